import { describe, expect, it, vi } from 'vitest';
import type { VideoCreateBody } from '@@/shared';
import { click, mount } from '@/components/dom-testing';
import { TasksView } from '@/entrypoints/popup/tasks/TasksView';
import { useTasksTestbed } from '@/entrypoints/popup/tasks/testing/tasks-testbed';
import { ProxyClient } from '@/lib/proxy/proxy-client';
import { taskStore } from '@/lib/storage/task-store';
import { submitTask } from '@/lib/tasks/task-submit';
import { PROXY_URL, TOKEN } from '@/lib/testing/fake-proxy';

const body = (text: string): VideoCreateBody => ({ model: 'doubao-seedance-2-0-260128', content: [{ type: 'text', text }] });
const proxy = useTasksTestbed();

const item = (localId: string) => document.querySelector<HTMLLIElement>(`[aria-labelledby="task-${localId}-title"]`)!;
const status = (localId: string) => item(localId)?.querySelector('.task__status')?.textContent;

/** One task running at the service, on a cap of one, and `count` creates waiting for it. */
async function waiting(count: number): Promise<void> {
  proxy().maxRunning = 1;
  const client = new ProxyClient({ proxyUrl: PROXY_URL, token: TOKEN }, proxy().fetch);
  await submitTask(client, body('runs now'));
  for (let i = 1; i <= count; i++) await submitTask(client, body(`waits ${i}`), Date.now, { localId: `w${i}` });
}

describe('Tasks: waiting for the service', () => {
  it('shows the place in line (n ahead, then next in line), and the ordinary task once it launched', async () => {
    await waiting(3);
    mount(<TasksView pollMs={20} />);
    await vi.waitFor(() => expect(status('w3')).toBe('Waiting for the service (2 ahead)'));
    expect(status('w1')).toBe('Waiting for the service (next in line)');
    expect(item('w1').textContent).toContain('Its cost stays reserved until then.');
    expect(item('w1').querySelector('progress')!.hasAttribute('value')).toBe(false);

    proxy().launchQueued();
    await vi.waitFor(() => expect(status('w3')).toBe('Waiting for the service (1 ahead)'));
    expect(status('w2')).toBe('Waiting for the service (next in line)');
    expect(status('w1')).toBe('Queued');
    expect(item('w1').querySelector('[data-testid="waiting-cancel"]')).toBeNull();
  });

  it('Cancel takes the create out of the proxy’s queue (DELETE /proxy/queue/:id) and the task shows Cancelled', async () => {
    await waiting(2);
    const queueId = (await taskStore.get('w1'))!.queueId!;
    mount(<TasksView pollMs={60_000} />);
    await vi.waitFor(() => expect(status('w1')).toBe('Waiting for the service (next in line)'));

    click(item('w1').querySelector<HTMLButtonElement>('[data-testid="waiting-cancel"]')!);

    await vi.waitFor(() => expect(status('w1')).toBe('Cancelled'));
    expect(proxy().calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`/proxy/queue/${queueId}`]);
    expect(proxy().queue.get(queueId)!.status).toBe('cancelled');
    expect(item('w1').textContent).toContain('its reservation was given back');
    expect(item('w1').querySelector('[data-testid="waiting-cancel"]')).toBeNull();
    // The other one still waits, now next in line.
    expect(await taskStore.get('w2')).toMatchObject({ status: 'waiting' });
  });

  it('a cancel that comes too late (it has just launched) leaves the task to run, followed as any other', async () => {
    await waiting(1);
    mount(<TasksView pollMs={60_000} />);
    await vi.waitFor(() => expect(status('w1')).toBe('Waiting for the service (next in line)'));
    const taskId = proxy().launchQueued();

    click(item('w1').querySelector<HTMLButtonElement>('[data-testid="waiting-cancel"]')!);

    await vi.waitFor(() => expect(status('w1')).toBe('Queued'));
    expect(await taskStore.get('w1')).toMatchObject({ status: 'queued', taskId });
  });
});
