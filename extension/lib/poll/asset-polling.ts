import type { AssetListItem } from '@@/shared';
import { isGone } from '@/lib/proxy/api-failure';
import { followedStatuses } from '@/lib/proxy/asset-status-client';
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
 * Brings every Processing asset up to date. The proxy follows the assets created through it on its
 * own (docs/proxy-api.md): one `POST /proxy/assets/statuses` per 100 assets reads how those stand,
 * from the proxy's storage. Only the assets it does not follow (created before it followed, or
 * through a proxy without the route) are asked of the service, with list calls only (pollLibrary).
 */
export async function pollAssets(client: ProxyClient, now = Date.now()): Promise<AssetPollResult> {
  const processing = (await assetStore.withStatus('Processing')).filter((a) => a.assetId);
  if (!processing.length) return { changed: [], pending: 0 };
  const followed = await followedStatuses(client, processing.map((a) => a.assetId!));
  const changed: AssetRecord[] = [];
  for (const record of processing) {
    const known = followed.get(record.assetId!);
    if (!known || known.status === 'Processing') continue;
    const next: AssetRecord = { ...record, status: known.status, error: known.error?.message, updatedAt: now };
    await assetStore.put(next);
    changed.push(next);
  }
  const own = await pollLibrary(client, processing.filter((a) => !followed.has(a.assetId!)), now);
  return { changed: [...changed, ...own], pending: processing.length - changed.length - own.length };
}

/**
 * The assets the proxy does not follow, from the service, with list calls only, never one GetAsset
 * per asset: first the assets still Processing in those groups; those missing from it changed, and
 * one more list of Active and Failed assets (most recently updated first) tells how they ended.
 */
async function pollLibrary(client: ProxyClient, processing: AssetRecord[], now: number): Promise<AssetRecord[]> {
  if (!processing.length) return [];
  const groupsOf = (records: AssetRecord[]) => [...new Set(records.map((a) => a.groupId))];

  const still = new Set((await listAssetsOfGroups(client, groupsOf(processing), { Filter: { Statuses: ['Processing'] }, ...RECENT_FIRST })).items.map((a) => a.Id));
  const moved = processing.filter((a) => !still.has(a.assetId!));
  if (!moved.length) return [];

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
  return changed;
}
