import type { ModelsInfo } from '@/lib/generate/model-list';
import type { PopupTab } from '@/lib/next-tab';
import type { ResolvedRecord } from '@/lib/portrait/portrait-resolve';
import type { ConsentRecord, StoredSession } from '@/lib/portrait/portrait-store';
import type { PendingKeys } from '@/lib/proxy/idempotency-keys';
import { db } from '@/lib/storage/database';
import type { Connection } from '@/lib/storage/stored-connection';

/** Everything the `settings` store holds: each key once, with the type of its value. */
export interface Settings {
  /** How the extension reaches the proxy (stored-connection). */
  connection: Connection;
  /** The context menu's default group (group-store). */
  defaultGroupId: string;
  /** When a library refresh last started (library-refresh). */
  libraryRefreshedAt: number;
  /** The background's current polling delay (background-sync). */
  syncDelayMs: number;
  /** The popup tab to open next, once (next-tab). */
  'popup.nextTab': PopupTab;
  /** The last list of models (model-list). */
  'generate.models': ModelsInfo;
  /** The last consent the proxy recorded (portrait-store). */
  'portrait.consent': ConsentRecord;
  /** The QR code on screen (portrait-store). */
  'portrait.session': StoredSession;
  /** The last resolved code and its group (portrait-resolve). */
  'portrait.resolved': ResolvedRecord;
  /** Idempotency-Keys of pending creates that have no record (idempotency-keys). */
  pendingCreateKeys: PendingKeys;
}

export type SettingKey = keyof Settings;

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
