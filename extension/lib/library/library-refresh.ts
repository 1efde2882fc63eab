import type { Asset } from '@@/shared';
import { refreshGroups } from '@/lib/library/group-actions';
import { listedError, newListedRecord } from '@/lib/library/listed-asset';
import { tellBackground } from '@/lib/messaging/extension-messages';
import { listAssetsOfGroups, OLDEST_FIRST } from '@/lib/proxy/list-all-pages';
import type { ProxyClient } from '@/lib/proxy/proxy-client';
import { assetStore } from '@/lib/storage/asset-store';
import { groupStore } from '@/lib/storage/group-store';
import type { AssetRecord } from '@/lib/storage/records/asset-record';
import type { GroupRecord } from '@/lib/storage/records/group-record';
import { settingsStore } from '@/lib/storage/settings-store';
import { announceChange } from '@/lib/storage/store-changes';

export interface RefreshOutcome {
  groups: number;
  /** Assets listed by the proxy. */
  assets: number;
  /** Local records removed because the library no longer lists them. */
  removed: number;
}

/** The same groups for the context menu: ids, names, and the member's role (an editor group is offered, a viewer one never). */
const sameGroups = (a: GroupRecord[], b: GroupRecord[]) =>
  a.length === b.length && a.every((g, i) => g.id === b[i]!.id && g.name === b[i]!.name && g.role === b[i]!.role && g.owner?.name === b[i]!.owner?.name);

/**
 * Brings the Library view's data up to date with list calls only (never one GetAsset per asset):
 * ListAssetGroups (all pages) and the groups others share (`GET /proxy/shared`) replace the `groups`
 * store, keeping each group's usedAt; then
 * ListAssets over all those groups, shared ones included (100 a page, group ids in batches) updates the `assets` store,
 * keyed by the service's asset id:
 * - an asset IndexedDB does not know yet gets a new local record (nothing to send, nothing to notify);
 * - a known one takes the listed name, URL, type, status and error; except the status of a record
 *   the background is still watching (Processing, not yet notified), which the background's own
 *   poll moves on so that the member still gets the notification;
 * - a record with an asset id the library no longer lists (deleted, or its group deleted) is
 *   removed, unless it changed locally since this refresh began (just created by the queue);
 * - local records not yet sent (Queued) or refused before creation (no asset id) are left alone.
 */
export async function refreshLibrary(client: ProxyClient, now: () => number = Date.now): Promise<RefreshOutcome> {
  const started = now();
  await settingsStore.put('libraryRefreshedAt', started);
  const before = (await groupStore.all()).sort((a, b) => a.id.localeCompare(b.id));
  const groups = await refreshGroups(client);
  const { items, complete } = groups.length ? await listAssetsOfGroups(client, groups.map((g) => g.id), OLDEST_FIRST) : { items: [], complete: true };

  const listed = new Set<string>();
  let watched = false;
  let removed = 0;
  await assetStore.reconcile((known) => {
    const at = now();
    const put: AssetRecord[] = [];
    const remove: string[] = [];
    items.forEach((item, index) => {
      if (listed.has(item.Id)) return; // listed twice (paging while the library changed)
      listed.add(item.Id);
      const error = listedError(item);
      const record = known.get(item.Id);
      if (!record) {
        put.push(newListedRecord(item, at - (items.length - index), at));
        return;
      }
      const keepStatus = record.status === 'Processing' && !record.notified && item.Status !== 'Processing';
      if (keepStatus) watched = true;
      const next: AssetRecord = {
        ...record,
        groupId: item.GroupId,
        name: item.Name,
        url: item.URL,
        type: item.AssetType,
        ...(keepStatus ? {} : { status: item.Status, error }),
      };
      if (!keepStatus && !error) delete next.error;
      if (changed(record, next)) put.push({ ...next, updatedAt: at });
    });
    if (complete) {
      for (const [assetId, record] of known) {
        if (listed.has(assetId) || record.updatedAt >= started) continue;
        remove.push(record.localId);
        removed++;
      }
    }
    return { put, remove };
  });

  announceChange('groups', 'assets');
  const after = [...groups].sort((a, b) => a.id.localeCompare(b.id));
  if (!sameGroups(before, after)) await tellBackground({ type: 'arkbridge:groups-changed' });
  // Finished assets the background has not told the member about yet: let it poll now.
  if (watched) await tellBackground({ type: 'arkbridge:sync' });
  return { groups: groups.length, assets: listed.size, removed };
}

const changed = (a: AssetRecord, b: AssetRecord) =>
  a.groupId !== b.groupId || a.name !== b.name || a.url !== b.url || a.type !== b.type || a.status !== b.status || (a.error ?? '') !== (b.error ?? '');

/** The asset with its per-model readiness (GetAsset), for the detail panel only. */
export async function loadReadiness(client: ProxyClient, assetId: string, signal?: AbortSignal): Promise<Asset> {
  return client.library('GetAsset', { Id: assetId }, signal ? { signal } : {});
}

/**
 * Refreshes on popup open unless a refresh started less than `maxAgeMs` ago: a large library is
 * many list pages, and the background keeps Processing items current anyway. Answers null when skipped.
 */
export async function refreshLibraryIfStale(client: ProxyClient, maxAgeMs = 60_000, now: () => number = Date.now): Promise<RefreshOutcome | null> {
  const last = await settingsStore.get('libraryRefreshedAt');
  if (last !== undefined && now() - last < maxAgeMs) return null;
  return refreshLibrary(client, now);
}
