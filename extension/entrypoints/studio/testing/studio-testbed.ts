import { vi } from 'vitest';
import { forgetStudioModels } from '@/entrypoints/studio/use-studio-models';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import { VideoFakeProxy } from '@/lib/tasks/testing/fake-video';
import { connect, resetState } from '@/lib/testing/test-setup';

/** A completed take of model `m` with its video at the service (and `more`, e.g. a kept copy). */
export const completedTake = (localId: string, more: Partial<TaskRecord> = {}): TaskRecord => ({
  localId,
  taskId: `cgt-${localId}`,
  model: 'm',
  body: { model: 'm' },
  status: 'completed',
  progress: 100,
  idempotencyKey: localId,
  notified: true,
  createdAt: 1,
  videoUrl: `https://cdn.test/${localId}.mp4`,
  ...more,
});

/** A fresh extension state, connected, with the fake proxy's video interface behind `fetch`. */
export async function studioTestbed(): Promise<VideoFakeProxy> {
  await resetState();
  localStorage.clear();
  forgetStudioModels();
  await connect();
  const proxy = new VideoFakeProxy();
  vi.stubGlobal('fetch', proxy.fetch);
  return proxy;
}

/** The control with this data-testid (exactly one). */
export function byTestId<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.querySelectorAll<T>(`[data-testid="${id}"]`);
  if (found.length !== 1) throw new Error(`expected one [data-testid="${id}"], found ${found.length}`);
  return found[0]!;
}

export const allByTestId = <T extends HTMLElement = HTMLElement>(id: string): T[] => [...document.querySelectorAll<T>(`[data-testid="${id}"]`)];

/** The button whose aria-label is `label`. */
export function byAriaLabel<T extends HTMLElement = HTMLButtonElement>(label: string): T {
  const found = document.querySelectorAll<T>(`[aria-label="${label}"]`);
  if (found.length !== 1) throw new Error(`expected one [aria-label="${label}"], found ${found.length}`);
  return found[0]!;
}
