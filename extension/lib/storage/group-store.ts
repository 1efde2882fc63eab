import { db } from '@/lib/storage/database';
import type { GroupRecord } from '@/lib/storage/records/group-record';

/** The settings entry of the context menu's default group (owned here: it must name a stored group). */
const DEFAULT_GROUP = 'defaultGroupId' as const;

const byName = (a: GroupRecord, b: GroupRecord): number => a.name.localeCompare(b.name) || a.id.localeCompare(b.id);

/** The `groups` store, and the default group's id that must name one of its groups. */
export const groupStore = {
  /** Every group, sorted by name. */
  async all(): Promise<GroupRecord[]> {
    return (await (await db()).getAll('groups')).sort(byName);
  },

  async get(id: string): Promise<GroupRecord | undefined> {
    return (await db()).get('groups', id);
  },

  async put(record: GroupRecord): Promise<void> {
    await (await db()).put('groups', record);
  },

  /** Records a group the member just created or resolved (it counts as just used). */
  async remember(group: Omit<GroupRecord, 'usedAt'>, now = Date.now()): Promise<GroupRecord> {
    const record: GroupRecord = { ...group, usedAt: now };
    await (await db()).put('groups', record);
    return record;
  },

  /**
   * Makes the store hold exactly `groups` (the proxy's list), in one transaction: listed groups are
   * written keeping their usedAt, the others dropped, and so is a default group no longer listed.
   * Answers the records, sorted by name.
   */
  async replaceAll(groups: Omit<GroupRecord, 'usedAt'>[]): Promise<GroupRecord[]> {
    const tx = (await db()).transaction(['groups', 'settings'], 'readwrite');
    const store = tx.objectStore('groups');
    const known = new Map((await store.getAll()).map((g) => [g.id, g]));
    const records: GroupRecord[] = groups.map((group) => ({ ...group, usedAt: known.get(group.id)?.usedAt ?? 0 }));
    const ids = new Set(records.map((r) => r.id));
    for (const id of known.keys()) if (!ids.has(id)) await store.delete(id);
    for (const record of records) await store.put(record);
    const defaultId = await tx.objectStore('settings').get(DEFAULT_GROUP);
    if (defaultId && !ids.has(defaultId as string)) await tx.objectStore('settings').delete(DEFAULT_GROUP);
    await tx.done;
    return records.sort(byName);
  },

  /** Removes a group, its asset records and, if it was the default group, that setting; in one transaction. */
  async removeWithAssets(groupId: string): Promise<void> {
    const tx = (await db()).transaction(['groups', 'assets', 'settings'], 'readwrite');
    await tx.objectStore('groups').delete(groupId);
    const assets = tx.objectStore('assets');
    for (const key of await assets.index('byGroup').getAllKeys(groupId)) await assets.delete(key);
    if ((await tx.objectStore('settings').get(DEFAULT_GROUP)) === groupId) await tx.objectStore('settings').delete(DEFAULT_GROUP);
    await tx.done;
  },

  /** The default group's id, or null ("most recently used"). */
  async defaultId(): Promise<string | null> {
    return ((await (await db()).get('settings', DEFAULT_GROUP)) as string | undefined) ?? null;
  },

  /** Sets the default group; null goes back to "most recently used". */
  async setDefaultId(id: string | null): Promise<void> {
    const database = await db();
    if (id) await database.put('settings', id, DEFAULT_GROUP);
    else await database.delete('settings', DEFAULT_GROUP);
  },
};
