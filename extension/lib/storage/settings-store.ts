import { db } from '@/lib/storage/database';
import type { SettingKey, Settings } from '@/lib/storage/records/setting-values';

/** The `settings` store: one typed value per key. */
export const settingsStore = {
  async get<K extends SettingKey>(key: K): Promise<Settings[K] | undefined> {
    return (await (await db()).get('settings', key)) as Settings[K] | undefined;
  },

  async put<K extends SettingKey>(key: K, value: Settings[K]): Promise<void> {
    await (await db()).put('settings', value, key);
  },

  async remove(key: SettingKey): Promise<void> {
    await (await db()).delete('settings', key);
  },

  /**
   * Reads and rewrites one value in one transaction (no write of another context in between is
   * lost): `update` answers the new value, or undefined to remove it. Answers the stored value.
   */
  async update<K extends SettingKey>(key: K, update: (current: Settings[K] | undefined) => Settings[K] | undefined): Promise<Settings[K] | undefined> {
    const tx = (await db()).transaction('settings', 'readwrite');
    const next = update((await tx.store.get(key)) as Settings[K] | undefined);
    if (next === undefined) await tx.store.delete(key);
    else await tx.store.put(next, key);
    await tx.done;
    return next;
  },
};
