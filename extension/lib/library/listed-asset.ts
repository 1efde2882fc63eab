import type { AssetListItem } from '@@/shared';
import { newLocalId } from '@/lib/storage/database';
import type { AssetRecord } from '@/lib/storage/records/asset-record';

/** The service's reason a listed asset Failed, as a record keeps it (none unless Failed). */
export const listedError = (item: AssetListItem): string | undefined =>
  item.Status === 'Failed' ? item.Error?.Message || item.Error?.Code || undefined : undefined;

/**
 * The record of an asset the library lists that IndexedDB did not know: nothing to send (no
 * Idempotency-Key), nothing to notify. `createdAt` keeps the listing's order (oldest first) for
 * "newest first" sorting.
 */
export function newListedRecord(item: AssetListItem, createdAt: number, updatedAt: number, groupId = item.GroupId): AssetRecord {
  const error = listedError(item);
  return {
    localId: newLocalId(),
    assetId: item.Id,
    groupId,
    name: item.Name,
    url: item.URL,
    type: item.AssetType,
    status: item.Status,
    ...(error ? { error } : {}),
    idempotencyKey: '',
    notified: true,
    createdAt,
    updatedAt,
  };
}
