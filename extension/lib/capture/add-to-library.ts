import type { AssetType } from '@@/shared';
import { newIdempotencyKey } from '@/lib/proxy/idempotency-keys';
import { assetStore } from '@/lib/storage/asset-store';
import { newLocalId } from '@/lib/storage/database';
import type { AssetRecord } from '@/lib/storage/records/asset-record';

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
  const live = await assetStore.addQueued(record);
  return live ? { kind: 'duplicate', record: live } : { kind: 'queued', record };
}
