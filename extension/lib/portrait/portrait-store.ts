import type { AssetListItem, ResolvedPortrait } from '@@/shared';
import { listedError, newListedRecord } from '@/lib/library/listed-asset';
import { listAll, OLDEST_FIRST } from '@/lib/proxy/list-all-pages';
import type { ProxyClient } from '@/lib/proxy/proxy-client';
import { assetStore } from '@/lib/storage/asset-store';
import { groupStore } from '@/lib/storage/group-store';
import type { AssetRecord } from '@/lib/storage/records/asset-record';
import type { GroupRecord } from '@/lib/storage/records/group-record';
import type { ConsentRecord, StoredSession } from '@/lib/storage/records/setting-values';
import { settingsStore } from '@/lib/storage/settings-store';

export async function readConsent(): Promise<ConsentRecord | null> {
  return (await settingsStore.get('portrait.consent')) ?? null;
}

export async function saveConsent(consent: ConsentRecord): Promise<void> {
  await settingsStore.put('portrait.consent', consent);
}

export async function readSession(): Promise<StoredSession | null> {
  const value = await settingsStore.get('portrait.session');
  return value && typeof value.handle === 'string' && typeof value.expiresAt === 'number' ? value : null;
}

export async function saveSession(session: StoredSession): Promise<void> {
  await settingsStore.put('portrait.session', session);
}

/** Forgets the stored code; with `handle`, only if that code is still the stored one (not a newer one). */
export async function clearSession(handle?: string): Promise<void> {
  await settingsStore.update('portrait.session', (stored) => (stored && (handle === undefined || stored.handle === handle) ? undefined : stored));
}

/** Every asset of a real-person group: ListAssets with its id and GroupType LivenessFace, 100 a page. */
export async function listGroupAssets(client: ProxyClient, groupId: string): Promise<AssetListItem[]> {
  const listed = await listAll(client, 'ListAssets', { Filter: { GroupIds: [groupId], GroupType: 'LivenessFace' }, ...OLDEST_FIRST }, { maxPages: 100 });
  return listed.items;
}

/** Records the resolved group (type LivenessFace, used now) in IndexedDB, before its assets are listed. */
export async function storeGroup(resolved: ResolvedPortrait, now: number): Promise<GroupRecord> {
  return groupStore.remember({ id: resolved.GroupId, name: resolved.GroupName, description: resolved.GroupDescription ?? '', type: 'LivenessFace' }, now);
}

/**
 * Records the group's listed assets: a new local record per asset (random local id, nothing to
 * send, so no Idempotency-Key, and nothing to notify), or the existing record of an asset already
 * known (e.g. a Library refresh got there first), updated. Answers the group's records.
 */
export async function storeAssets(groupId: string, items: AssetListItem[], now: number): Promise<AssetRecord[]> {
  const records: AssetRecord[] = [];
  await assetStore.reconcile((byAssetId) => {
    for (const [index, item] of items.entries()) {
      const known = byAssetId.get(item.Id);
      const groupOf = item.GroupId || groupId;
      if (!known) {
        records.push(newListedRecord(item, now - (items.length - index), now, groupOf));
        continue;
      }
      const error = listedError(item);
      const record: AssetRecord = { ...known, groupId: groupOf, name: item.Name, url: item.URL, type: item.AssetType, status: item.Status, updatedAt: now };
      if (error) record.error = error;
      else delete record.error;
      records.push(record);
    }
    return { put: records };
  });
  return records;
}

/** The group's records in IndexedDB, oldest first (the view's live list). */
export const readGroupAssets = (groupId: string): Promise<AssetRecord[]> => assetStore.ofGroup(groupId);
