import type { AssetType } from '../../../shared';
import { db, newLocalId, type AssetRecord } from '../db';
import { newIdempotencyKey } from '@/lib/proxy/idempotency-keys';

export type AddOutcome =
  | { kind: 'queued'; record: AssetRecord }
  /** The same URL is already Processing, Queued or Active in that group: not created again. */
  | { kind: 'duplicate'; record: AssetRecord };

export interface AddRequest {
  groupId: string;
  url: string;
  name: string;
  type: AssetType;
}

/**
 * Records an asset to create and queues its creation, in one transaction: the Idempotency-Key
 * is in IndexedDB before any request, so no retry can create it twice. The same URL already
 * on its way or usable in the group is reported instead (the service: do not repeat CreateAsset
 * while Processing).
 */
export async function addToLibrary(request: AddRequest, now = Date.now()): Promise<AddOutcome> {
  const database = await db();
  const tx = database.transaction(['assets', 'queue', 'groups'], 'readwrite');
  // A failing write rejects below and aborts the whole transaction; do not leave tx.done unhandled.
  tx.done.catch(() => {});
  const existing = await tx.objectStore('assets').index('byUrlGroup').getAll([request.url, request.groupId]);
  const live = existing.find((a) => a.status !== 'Failed');
  if (live) {
    await tx.done;
    return { kind: 'duplicate', record: live };
  }
  const record: AssetRecord = {
    localId: newLocalId(),
    groupId: request.groupId,
    name: request.name,
    url: request.url,
    type: request.type,
    status: 'Queued',
    idempotencyKey: newIdempotencyKey(),
    notified: false,
    createdAt: now,
    updatedAt: now,
  };
  await tx.objectStore('assets').add(record);
  await tx.objectStore('queue').add({ kind: 'createAsset', localId: record.localId, attempts: 0, notBefore: now });
  const group = await tx.objectStore('groups').get(request.groupId);
  if (group) await tx.objectStore('groups').put({ ...group, usedAt: now });
  await tx.done;
  return { kind: 'queued', record };
}
