import { ApiError, type ApiFailure } from '@/lib/proxy/api-failure';
import type { ProxyClient } from '@/lib/proxy/proxy-client';
import { putSource } from '@/lib/proxy/source-client';
import { backoffMs } from '@/lib/queue/queue-backoff';
import { assetStore } from '@/lib/storage/asset-store';
import { queueStore } from '@/lib/storage/queue-store';
import type { QueuedOperation } from '@/lib/storage/records/queued-operation';
import { readyToCreate, releaseBytes, sweepBytes } from '@/lib/uploads/upload-step';

export interface DrainResult {
  /** Creates accepted by the service in this run. */
  created: number;
  /** Records that ended Failed (refused by the service), to notify. */
  failed: string[];
  /** The proxy refused the token: draining stopped, the member must reconnect. */
  unauthorized: boolean;
  /** Earliest time a waiting operation may run again, or null when the queue is empty. */
  nextAt: number | null;
}

/**
 * Runs the queued creates that are due, one at a time, each with its stored Idempotency-Key.
 * Transient failures (offline, 429, 5xx, timeout) wait and retry with the same key; a refusal ends
 * the record Failed with the service's message; a 401 stops everything until reconnect.
 */
export async function drainQueue(client: ProxyClient, now: () => number = Date.now): Promise<DrainResult> {
  const result: DrainResult = { created: 0, failed: [], unauthorized: false, nextAt: null };
  for (const op of await queueStore.due(now())) {
    try {
      if (await createAsset(client, op, now)) result.created++;
      await queueStore.remove(op.key!);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const outcome = await settleFailure(op, error.failure, now());
      if (outcome === 'unauthorized') {
        result.unauthorized = true;
        break;
      }
      if (outcome === 'failed') result.failed.push(op.localId);
      if (outcome === 'rate_limited') break; // the proxy asked everyone to wait
    }
  }
  result.nextAt = await queueStore.nextAt();
  await sweepBytes(now()).catch(() => {});
  return result;
}

/** Sends one queued create; answers false when there was nothing to send. */
async function createAsset(client: ProxyClient, op: QueuedOperation, now: () => number): Promise<boolean> {
  const record = await assetStore.get(op.localId);
  if (!record || record.status !== 'Queued') return false; // deleted or already created meanwhile
  // An upload is sent first; its signed address becomes the URL (uploads/upload-step).
  const ready = await readyToCreate(client, record, now);
  const { Id } = await client.library(
    'CreateAsset',
    { GroupId: ready.groupId, AssetType: ready.type, Name: ready.name, URL: ready.url },
    { idempotencyKey: ready.idempotencyKey },
  );
  await assetStore.put({ ...ready, assetId: Id, status: 'Processing', updatedAt: now() });
  await releaseBytes(ready);
  await shareSource(client, Id, ready.localId);
  return true;
}

/**
 * Sends the new asset's source to the proxy (for teammates it is shared with); once, best effort:
 * the asset is made whatever becomes of it, and the record keeps its source either way.
 */
async function shareSource(client: ProxyClient, assetId: string, localId: string): Promise<void> {
  const record = await assetStore.get(localId);
  if (!record?.source) return;
  try {
    await putSource(client, assetId, record.source);
  } catch {
    // Offline, or a proxy without the route: the source stays the member's own.
  }
}

async function settleFailure(op: QueuedOperation, failure: ApiFailure, now: number): Promise<'unauthorized' | 'failed' | 'retry' | 'rate_limited'> {
  if (failure.kind === 'unauthorized') return 'unauthorized';
  if (failure.kind === 'rejected') {
    const record = await assetStore.get(op.localId);
    if (record) await assetStore.put({ ...record, status: 'Failed', error: failure.message, updatedAt: now });
    await releaseBytes(record);
    await queueStore.remove(op.key!);
    return 'failed';
  }
  if (failure.kind === 'rate_limited') {
    // Retry-After applies to every queued create, not only this one.
    const until = now + failure.retryAfterMs;
    for (const other of await queueStore.all()) {
      if (other.notBefore < until) await queueStore.put({ ...other, notBefore: until, attempts: other.key === op.key ? op.attempts + 1 : other.attempts });
    }
    return 'rate_limited';
  }
  await queueStore.put({ ...op, attempts: op.attempts + 1, notBefore: now + backoffMs(op.attempts) });
  return 'retry';
}
