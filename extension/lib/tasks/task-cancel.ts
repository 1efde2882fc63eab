import type { QueueItem } from '@@/shared';
import { applyQueueItem, readQueueItem } from '@/lib/poll/queued-creates';
import { ApiError } from '@/lib/proxy/api-failure';
import type { ProxyClient } from '@/lib/proxy/proxy-client';
import { cancelQueueItem } from '@/lib/proxy/queue-client';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import { announceChange } from '@/lib/storage/store-changes';

/**
 * Cancelling a create that waits for the service: `DELETE /proxy/queue/:id` takes it out of the
 * queue (the proxy gives its reservation back) and the record shows Cancelled. Refused because it
 * has just left the queue (launched, failed), the record follows what the item is now instead.
 * Answers the record as stored (undefined when it was no longer waiting). Throws ApiError
 * (offline, 401) for the caller to show.
 */
export async function cancelWaiting(client: Pick<ProxyClient, 'send' | 'proxyUrl'>, record: TaskRecord): Promise<TaskRecord | undefined> {
  if (record.status !== 'waiting' || !record.queueId) return undefined;
  let item: QueueItem;
  try {
    item = await cancelQueueItem(client, record.queueId);
  } catch (error) {
    if (!(error instanceof ApiError) || error.failure.kind !== 'rejected') throw error;
    item = await readQueueItem(client, record);
  }
  const stored = await applyQueueItem(record.localId, item);
  announceChange('tasks');
  return stored;
}
