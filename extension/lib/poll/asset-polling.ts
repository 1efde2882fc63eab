import type { AssetListItem } from '@@/shared';
import { isGone } from '@/lib/proxy/api-failure';
import { listAssetsOfGroups } from '@/lib/proxy/list-all-pages';
import type { ProxyClient } from '@/lib/proxy/proxy-client';
import { assetStore } from '@/lib/storage/asset-store';
import type { AssetRecord } from '@/lib/storage/records/asset-record';

export interface AssetPollResult {
  /** Records whose status changed (to Active or Failed). */
  changed: AssetRecord[];
  /** Records still Processing. */
  pending: number;
}

/** Most recently updated first: the assets that just changed come first. */
const RECENT_FIRST = { SortBy: 'UpdateTime', SortOrder: 'Desc' } as const;

/**
 * An asset missing from both lists: rare (deleted, or it moved between pages while they were read).
 * One GetAsset settles it; null when the library no longer has it.
 */
async function lookUpMissing(client: ProxyClient, assetId: string): Promise<AssetListItem | null> {
  try {
    return await client.library('GetAsset', { Id: assetId });
  } catch (error) {
    if (isGone(error)) return null;
    throw error;
  }
}

/**
 * Brings every Processing asset up to date with list calls only, never one GetAsset per asset:
 * first the assets still Processing in those groups; those missing from it changed, and one more
 * list of Active and Failed assets (most recently updated first) tells how they ended.
 */
export async function pollAssets(client: ProxyClient, now = Date.now()): Promise<AssetPollResult> {
  const processing = (await assetStore.withStatus('Processing')).filter((a) => a.assetId);
  if (!processing.length) return { changed: [], pending: 0 };
  const groupsOf = (records: AssetRecord[]) => [...new Set(records.map((a) => a.groupId))];

  const still = new Set((await listAssetsOfGroups(client, groupsOf(processing), { Filter: { Statuses: ['Processing'] }, ...RECENT_FIRST })).items.map((a) => a.Id));
  const moved = processing.filter((a) => !still.has(a.assetId!));
  if (!moved.length) return { changed: [], pending: processing.length };

  const wanted = new Set(moved.map((a) => a.assetId!));
  const found = new Map(
    (
      await listAssetsOfGroups(client, groupsOf(moved), { Filter: { Statuses: ['Active', 'Failed'] }, ...RECENT_FIRST }, {
        until: (items) => [...wanted].every((id) => items.some((i) => i.Id === id)),
      })
    ).items
      .filter((i) => wanted.has(i.Id))
      .map((i) => [i.Id, i]),
  );
  const changed: AssetRecord[] = [];
  for (const record of moved) {
    const item = found.get(record.assetId!) ?? (await lookUpMissing(client, record.assetId!));
    // Not in the library any more (deleted elsewhere, or its group deleted): it will never become usable.
    const next: AssetRecord = item
      ? { ...record, status: item.Status, error: item.Status === 'Failed' ? item.Error.Message : undefined, updatedAt: now }
      : { ...record, status: 'Failed', error: 'This asset is no longer in the library (it or its group was deleted).', updatedAt: now };
    if (next.status === 'Processing') continue;
    await assetStore.put(next);
    changed.push(next);
  }
  return { changed, pending: processing.length - changed.length };
}
