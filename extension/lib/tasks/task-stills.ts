import type { StillRecord } from '@/lib/storage/records/still-record';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import { stillStore } from '@/lib/storage/still-store';
import type { Taken } from '@/lib/tasks/still-frame';
import { videoAddress } from '@/lib/tasks/task-presentation';

/**
 * Stills: what a video tile shows before it plays, so that takes are picked by looking. The proxy's
 * kept last frame where there is one; else frames the extension takes from the video itself, once
 * per task (remembered in this page, stored in the `stills` store for every other), after the page
 * has painted, one video at a time, and never for a task with no video yet.
 */

/** A video to show a still of: a take's, or a team gallery item's. */
export interface StillSubject {
  /** The service's task id: the still's key. */
  key: string;
  url: string;
  /** The proxy's kept last frame (a PNG), when the create asked for one. */
  lastFrameUrl?: string;
}

/** The video of a completed task (its kept copy first), or null: no video yet. */
export function taskSubject(task: TaskRecord, now: number): StillSubject | null {
  if (task.status !== 'completed') return null;
  const url = videoAddress(task, now);
  return url ? { key: task.taskId ?? task.localId, url, ...(task.keptLastFrameUrl ? { lastFrameUrl: task.keptLastFrameUrl } : {}) } : null;
}

/** Takes the stills of a video in the page (still-frame, a chunk loaded only when a still is needed). */
export type StillTaker = (url: string) => Promise<Taken>;
const loadTaker = async (): Promise<StillTaker> => (await import('@/lib/tasks/still-frame')).takeStills;

/**
 * Per task id and address: the still as stored or taken, 'gone', or null (none can be had). At most
 * one try per address and page: a task first seen by the service's link (no CORS, unreadable) is
 * tried again once its kept copy arrives.
 */
const known = new Map<string, Promise<StillRecord | 'gone' | null>>();
/** One video taken at a time, each after the page is idle. */
let line: Promise<unknown> = Promise.resolve();

const idle = (): Promise<void> =>
  new Promise((resolve) => (typeof requestIdleCallback === 'function' ? requestIdleCallback(() => resolve(), { timeout: 2000 }) : setTimeout(resolve, 0)));

/** The stored still of a video, taken first if there is none. */
export function stillOf(subject: StillSubject, taker: () => Promise<StillTaker> = loadTaker): Promise<StillRecord | 'gone' | null> {
  const at = `${subject.key} ${subject.url}`;
  let found = known.get(at);
  if (!found) {
    found = (async () => {
      const stored = await stillStore.get(subject.key);
      if (stored) return stored;
      const turn = line.then(idle).then(async () => (await taker())(subject.url));
      line = turn.catch(() => undefined);
      const taken = await turn.catch((): Taken => ({ kind: 'unreadable' }));
      if (taken.kind === 'gone') return 'gone';
      if (taken.kind !== 'taken') return null;
      const record: StillRecord = { taskId: subject.key, head: taken.head, ...(taken.tail ? { tail: taken.tail } : {}), duration: taken.duration, takenAt: Date.now() };
      await stillStore.put(record);
      return record;
    })();
    known.set(at, found);
  }
  return found;
}

/** The stored still only, never taking one (a tile with a kept last frame needs none). */
export const storedStill = (key: string): Promise<StillRecord | undefined> => stillStore.get(key);

/** Forgets what this page knows (tests: as a page opened again). */
export function forgetStills(): void {
  known.clear();
  line = Promise.resolve();
}
