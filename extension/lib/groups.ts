import type { ProxyClient } from '@/lib/proxy/proxy-client';
import { listAll, OLDEST_FIRST } from '@/lib/proxy/list-all-pages';
import { db, type GroupRecord } from './db';

/** Key of the default group's id in the `settings` store (read by the context menu). */
export const DEFAULT_GROUP_KEY = 'defaultGroupId';

/** At most this many pages are read by a refresh (100 groups a page). */
const MAX_PAGES = 100;

/**
 * Reads every group of the member through the proxy (ListAssetGroups, 100 a page, all pages) and
 * makes the `groups` store match it: listed groups are written (keeping their usedAt), groups the
 * proxy no longer lists (deleted, or another member's) are dropped, and so is a default group that
 * no longer exists. Answers the groups, sorted by name.
 */
export async function refreshGroups(client: ProxyClient): Promise<GroupRecord[]> {
  const { items: listed } = await listAll(client, 'ListAssetGroups', OLDEST_FIRST, { maxPages: MAX_PAGES });

  const database = await db();
  const tx = database.transaction(['groups', 'settings'], 'readwrite');
  const groups = tx.objectStore('groups');
  const known = new Map((await groups.getAll()).map((g) => [g.id, g]));
  const records: GroupRecord[] = listed.map((item) => ({
    id: item.Id,
    name: item.Name,
    description: item.Description ?? '',
    type: item.GroupType,
    usedAt: known.get(item.Id)?.usedAt ?? 0,
  }));
  const ids = new Set(records.map((r) => r.id));
  for (const id of known.keys()) if (!ids.has(id)) await groups.delete(id);
  for (const record of records) await groups.put(record);
  const defaultId = (await tx.objectStore('settings').get(DEFAULT_GROUP_KEY)) as string | undefined;
  if (defaultId && !ids.has(defaultId)) await tx.objectStore('settings').delete(DEFAULT_GROUP_KEY);
  await tx.done;
  return records.sort(byName);
}

/** The groups IndexedDB knows, sorted by name. */
export async function storedGroups(): Promise<GroupRecord[]> {
  return (await (await db()).getAll('groups')).sort(byName);
}

/** Records a group the member just created (it counts as just used). */
export async function rememberGroup(group: Omit<GroupRecord, 'usedAt'>, now = Date.now()): Promise<GroupRecord> {
  const record: GroupRecord = { ...group, usedAt: now };
  await (await db()).put('groups', record);
  return record;
}

export async function getDefaultGroupId(): Promise<string | null> {
  return ((await (await db()).get('settings', DEFAULT_GROUP_KEY)) as string | undefined) ?? null;
}

/** Sets the default group; null goes back to "most recently used". */
export async function setDefaultGroupId(id: string | null): Promise<void> {
  const database = await db();
  if (id) await database.put('settings', id, DEFAULT_GROUP_KEY);
  else await database.delete('settings', DEFAULT_GROUP_KEY);
}

const byName = (a: GroupRecord, b: GroupRecord): number => a.name.localeCompare(b.name) || a.id.localeCompare(b.id);
