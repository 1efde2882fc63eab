import { ApiError, isGone } from '@/lib/proxy/api-failure';
import type { ProxyClient } from '@/lib/proxy/proxy-client';
import { pollQueuedCreates } from '@/lib/poll/queued-creates';
import { annotated, annotationChanges, annotationOf, type ProxiedVideoTask } from '@/lib/proxy/task-annotation';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import { taskStore } from '@/lib/storage/task-store';

const ACTIVE = ['queued', 'in_progress', 'unknown'] as const;

/** The signed address of a kept copy is valid up to a day: a completed task is read again once it is this old. */
export const KEPT_URL_REFRESH_MS = 12 * 3600_000;
/** A completed task is read at most this often (while its copy is being made). */
export const KEPT_READ_MIN_MS = 60_000;

/**
 * Whether a completed task is read again for its kept copy: while the copy is being made (to learn
 * that it is kept, or why not), or when its signed address is getting old and the copy is still
 * kept. Never more than once a minute; never for a task without a copy or a word about one.
 */
export function keptCopyDue(record: TaskRecord, now: number): boolean {
  if (record.status !== 'completed' || !record.taskId) return false;
  const age = now - (record.keptReadAt ?? 0);
  if (record.keep === 'pending') return age >= KEPT_READ_MIN_MS;
  if (record.keptUrl !== undefined && record.keptUntil !== undefined && record.keptUntil * 1000 > now) return age >= Math.max(KEPT_READ_MIN_MS, KEPT_URL_REFRESH_MS);
  return false;
}

/**
 * How long after its create a copy being made is waited for with nothing else to follow: the proxy
 * settles it (kept or failed) within a day of the task's end, when the service's link dies; one it no
 * longer knows would otherwise keep the background waking.
 */
export const KEPT_FOLLOW_MS = 2 * 24 * 3600_000;

/**
 * When the next read of a kept copy being made is due (ms; `now` when one is due), or null when none
 * is waited for. The background keeps its alarm for it with no task open: a copy first read
 * `pending` (the last take of a run) would otherwise never arrive, nor the still taken from it.
 */
export async function nextKeptCopyRead(now: number): Promise<number | null> {
  const waited = (await taskStore.withStatus('completed')).filter((t) => t.taskId && t.keep === 'pending' && now - t.createdAt < KEPT_FOLLOW_MS);
  if (!waited.length) return null;
  return Math.max(now, Math.min(...waited.map((t) => (t.keptReadAt ?? 0) + KEPT_READ_MIN_MS)));
}

const videoUrlOf = (task: ProxiedVideoTask): string | undefined => ('metadata' in task && task.metadata?.url) || undefined;
/** The service's last frame of a task created with `return_last_frame`. */
const lastFrameOf = (task: object): { lastFrameUrl?: string } => {
  const url = 'metadata' in task ? (task.metadata as ProxiedVideoTask['metadata'])?.last_frame_url : undefined;
  return url ? { lastFrameUrl: url } : {};
};

/**
 * Reads the proxy's queue for the creates waiting for the service first (one that launched is then
 * followed in the same pass), queries each unfinished video task by id and stores what changed; then reads again the completed
 * tasks whose kept copy is due (keptCopyDue), so that its address stays fresh and a copy being made
 * shows up once kept.
 */
export async function pollTasks(client: ProxyClient): Promise<{ changed: TaskRecord[]; pending: number }> {
  const now = Date.now();
  const fromQueue = await pollQueuedCreates(client);
  const open = (await Promise.all(ACTIVE.map((s) => taskStore.withStatus(s)))).flat().filter((t) => t.taskId);
  const changed: TaskRecord[] = [...fromQueue];
  for (const record of open) {
    let task;
    try {
      task = await client.getVideo(record.taskId!);
    } catch (error) {
      // A task the proxy no longer knows cannot progress; anything else is retried next time.
      if (isGone(error)) {
        task = { status: 'failed' as const, progress: record.progress, error: { code: 'task_not_found', message: (error as ApiError).failure.message } };
      } else throw error;
    }
    // The proxy's cost, whether it still follows the task, and its kept copy, when it sends them.
    const annotation = annotationOf(task);
    if (task.status === record.status && task.progress === record.progress && !annotationChanges(record, annotation)) continue;
    const next: TaskRecord = annotated(
      {
        ...record,
        status: task.status,
        progress: task.progress,
        ...('metadata' in task && task.metadata?.url ? { videoUrl: task.metadata.url } : {}),
        ...lastFrameOf(task),
        ...(task.error ? { error: task.error } : {}),
        ...('completed_at' in task && task.completed_at ? { completedAt: task.completed_at * 1000 } : {}),
      },
      annotation,
      now,
    );
    await taskStore.put(next);
    // A record just launched from the queue is listed once, as it now stands.
    const listed = changed.findIndex((c) => c.localId === next.localId);
    if (listed >= 0) changed[listed] = next;
    else changed.push(next);
  }
  changed.push(...(await refreshKeptCopies(client, now)));
  return { changed, pending: open.filter((t) => !changed.some((c) => c.localId === t.localId && (c.status === 'completed' || c.status === 'failed'))).length };
}

/** Reads each completed task whose kept copy is due, once; answers the records that changed. */
async function refreshKeptCopies(client: ProxyClient, now: number): Promise<TaskRecord[]> {
  const due = (await taskStore.withStatus('completed')).filter((t) => keptCopyDue(t, now));
  const changed: TaskRecord[] = [];
  for (const record of due) {
    // The read is claimed first: another context (popup, background) does not read it again this
    // minute, and a read that fails is not repeated sooner either.
    let claimed = false as boolean;
    await taskStore.update(record.localId, (current) => {
      if (!keptCopyDue(current, now)) return undefined;
      claimed = true;
      return { ...current, keptReadAt: now };
    });
    if (!claimed) continue;
    const stored = await readKeptCopy(client, record, now);
    if (stored) changed.push(stored);
  }
  return changed;
}

/**
 * Reads a completed task once for its kept copy, now (no minute's wait: for what needs the copy at
 * once, e.g. the studio's export of a take that completed moments ago), and stores what changed.
 * Answers the stored record, or undefined when nothing changed or the proxy no longer knows it.
 */
export async function readKeptCopy(client: ProxyClient, record: TaskRecord, now: number = Date.now()): Promise<TaskRecord | undefined> {
  if (record.status !== 'completed' || !record.taskId) return undefined;
  let task: ProxiedVideoTask;
  try {
    task = await client.getVideo(record.taskId);
  } catch (error) {
    // A completed task stays completed: a proxy that no longer knows it changes nothing here.
    if (isGone(error)) return undefined;
    throw error;
  }
  const annotation = annotationOf(task);
  const url = videoUrlOf(task);
  let stored = undefined as TaskRecord | undefined;
  await taskStore.update(record.localId, (current) => {
    if (current.status !== 'completed' || (!annotationChanges(current, annotation) && (!url || url === current.videoUrl))) return undefined;
    stored = annotated({ ...current, ...(url ? { videoUrl: url } : {}) }, annotation, now);
    return stored;
  });
  return stored;
}
