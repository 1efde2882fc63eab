import type { AssetListItem, ResolvedPortrait } from '../../../shared';
import type { ProxyClient } from '@/lib/proxy/proxy-client';
import { listAll, OLDEST_FIRST } from '@/lib/proxy/list-all-pages';
import { db, newLocalId, type AssetRecord, type GroupRecord } from '../db';

/** The last consent the proxy recorded for this member (shown under the rules). */
export interface ConsentRecord {
  rulesVersion: string;
  acceptedAt: string;
}

/**
 * The QR code on screen, kept so that the flow survives the popup closing or a tab switch (the
 * member copies the link elsewhere, looks at the Library...). `handle` is the proxy's opaque
 * PartnerToken handle: it resolves only with this member's token, never the service's token.
 */
export interface StoredSession {
  h5Link: string;
  handle: string;
  expiresAt: number;
  /** Fresh codes already made automatically in this flow. */
  renewals: number;
  continuous: boolean;
}

export const CONSENT_KEY = 'portrait.consent';
export const SESSION_KEY = 'portrait.session';

export async function readConsent(): Promise<ConsentRecord | null> {
  return ((await (await db()).get('settings', CONSENT_KEY)) as ConsentRecord | undefined) ?? null;
}

export async function saveConsent(consent: ConsentRecord): Promise<void> {
  await (await db()).put('settings', consent, CONSENT_KEY);
}

export async function readSession(): Promise<StoredSession | null> {
  const value = (await (await db()).get('settings', SESSION_KEY)) as StoredSession | undefined;
  return value && typeof value.handle === 'string' && typeof value.expiresAt === 'number' ? value : null;
}

export async function saveSession(session: StoredSession): Promise<void> {
  await (await db()).put('settings', session, SESSION_KEY);
}

/** Forgets the stored code; with `handle`, only if that code is still the stored one (not a newer one). */
export async function clearSession(handle?: string): Promise<void> {
  const tx = (await db()).transaction('settings', 'readwrite');
  const stored = (await tx.store.get(SESSION_KEY)) as StoredSession | undefined;
  if (stored && (handle === undefined || stored.handle === handle)) await tx.store.delete(SESSION_KEY);
  await tx.done;
}

/** Every asset of a real-person group: ListAssets with its id and GroupType LivenessFace, 100 a page. */
export async function listGroupAssets(client: ProxyClient, groupId: string): Promise<AssetListItem[]> {
  const listed = await listAll(client, 'ListAssets', { Filter: { GroupIds: [groupId], GroupType: 'LivenessFace' }, ...OLDEST_FIRST }, { maxPages: 100 });
  return listed.items;
}

/** Records the resolved group (type LivenessFace, used now) in IndexedDB, before its assets are listed. */
export async function storeGroup(resolved: ResolvedPortrait, now: number): Promise<GroupRecord> {
  const record: GroupRecord = {
    id: resolved.GroupId,
    name: resolved.GroupName,
    description: resolved.GroupDescription ?? '',
    type: 'LivenessFace',
    usedAt: now,
  };
  await (await db()).put('groups', record);
  return record;
}

/**
 * Records the group's listed assets: a new local record per asset (random local id, nothing to
 * send, so no Idempotency-Key, and nothing to notify), or the existing record of an asset already
 * known (e.g. a Library refresh got there first), updated. Answers the group's records.
 */
export async function storeAssets(groupId: string, items: AssetListItem[], now: number): Promise<AssetRecord[]> {
  const tx = (await db()).transaction('assets', 'readwrite');
  const records: AssetRecord[] = [];
  for (const [index, item] of items.entries()) {
    const known = await tx.store.index('byAssetId').get(item.Id);
    const error = item.Status === 'Failed' ? item.Error?.Message || item.Error?.Code || undefined : undefined;
    const record: AssetRecord = {
      ...(known ?? { localId: newLocalId(), idempotencyKey: '', notified: true, createdAt: now - (items.length - index) }),
      assetId: item.Id,
      groupId: item.GroupId || groupId,
      name: item.Name,
      url: item.URL,
      type: item.AssetType,
      status: item.Status,
      updatedAt: now,
    };
    if (error) record.error = error;
    else delete record.error;
    await tx.store.put(record);
    records.push(record);
  }
  await tx.done;
  return records;
}

/** The group's records in IndexedDB, oldest first (the view's live list). */
export async function readGroupAssets(groupId: string): Promise<AssetRecord[]> {
  const records = await (await db()).getAllFromIndex('assets', 'byGroup', groupId);
  return records.sort((a, b) => a.createdAt - b.createdAt);
}
