import type { QueueItem, QueuedCreate } from '@@/shared';
import { t } from '@/lib/i18n/translate';
import { isGone } from '@/lib/proxy/api-failure';
import type { ProxyClient } from '@/lib/proxy/proxy-client';
import { getQueueItem, listQueue } from '@/lib/proxy/queue-client';
import { annotated, annotationOf } from '@/lib/proxy/task-annotation';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import { taskStore } from '@/lib/storage/task-store';
import '@/lib/i18n/tasks.en';

/**
 * The one owner of the `waiting` state ("waiting for the service"): a create the proxy queued
 * because the service was busy (its 202 to `Prefer: respond-async`). The record enters it from the
 * 202, keeps its place in line from the proxy's queue, and leaves it when the item does: `launched`
 * makes it the ordinary task (the same record, so a storyboard's shot or a batch keeps its take),
 * `failed` shows the service's refusal, `cancelled` the member's cancel.
 */

/** The fields only a waiting record has. */
function withoutQueue(record: TaskRecord): TaskRecord {
  const { queueId: _q, queuePosition: _p, attempts: _a, retryAt: _r, notice: _n, ...rest } = record;
  return rest;
}

/** The record of a create the proxy answered with a queued create: waiting, with its item and place; the reservation as its cost. */
export function waitingRecord<T extends TaskRecord>(record: T, queued: QueuedCreate, now: number): T {
  const next = { ...withoutQueue(record), status: 'waiting', queueId: queued.id, queuePosition: queued.position } as unknown as T;
  return annotated(next, annotationOf(queued), now);
}

/**
 * What `item` (the proxy's word on a waiting record's queue item) makes of the record; undefined when
 * nothing changes, or the record is no longer waiting on that item (another context settled it).
 */
export function afterQueueItem(record: TaskRecord, item: QueueItem): TaskRecord | undefined {
  if (record.status !== 'waiting' || record.queueId !== item.id) return undefined;
  switch (item.status) {
    case 'queued':
      return item.position === record.queuePosition ? undefined : { ...record, queuePosition: item.position };
    case 'launched':
      // An ordinary task from now on, followed by its id like any other.
      return item.taskId ? { ...withoutQueue(record), status: 'queued', progress: 0, taskId: item.taskId } : undefined;
    case 'failed':
      return { ...withoutQueue(record), status: 'failed', error: item.error ?? { code: 'queue_failed', message: t('tasks.waiting.failedNoMessage') } };
    case 'cancelled':
      return { ...withoutQueue(record), status: 'cancelled' };
  }
}

/** Stores what `item` makes of the record `localId`, in one transaction; answers the stored record when it changed. */
export async function applyQueueItem(localId: string, item: QueueItem): Promise<TaskRecord | undefined> {
  let stored: TaskRecord | undefined;
  await taskStore.update(localId, (current) => (stored = afterQueueItem(current, item)));
  return stored;
}

/** An item the proxy no longer knows (or not the member's): the record can never launch. */
const goneItem = (record: TaskRecord): QueueItem => ({
  id: record.queueId!,
  status: 'failed',
  position: null,
  model: record.model,
  createdAt: 0,
  taskId: null,
  error: { code: 'queue_item_not_found', message: t('tasks.waiting.gone') },
});

/** The proxy's word on a waiting record's item (`GET /proxy/queue/:id`); one it no longer knows reads as failed. */
export async function readQueueItem(client: Pick<ProxyClient, 'send' | 'proxyUrl'>, record: TaskRecord): Promise<QueueItem> {
  try {
    return await getQueueItem(client, record.queueId!);
  } catch (error) {
    if (!isGone(error)) throw error;
    return goneItem(record);
  }
}

/**
 * Reads the proxy's queue for every waiting record and stores what changed: one `GET /proxy/queue`
 * when several wait, `GET /proxy/queue/:id` for one (or one the list left out). Throws ApiError
 * (offline, 401, 429) as the task poll does.
 */
export async function pollQueuedCreates(client: Pick<ProxyClient, 'send' | 'proxyUrl'>): Promise<TaskRecord[]> {
  const waiting = (await taskStore.withStatus('waiting')).filter((r) => r.queueId);
  if (!waiting.length) return [];
  const listed = waiting.length > 1 ? new Map((await listQueue(client)).map((item) => [item.id, item])) : new Map<string, QueueItem>();
  const changed: TaskRecord[] = [];
  for (const record of waiting) {
    const item = listed.get(record.queueId!) ?? (await readQueueItem(client, record));
    const stored = await applyQueueItem(record.localId, item);
    if (stored) changed.push(stored);
  }
  return changed;
}
