import { type DBSchema, type IDBPDatabase, openDB } from 'idb';
// Record types only: the stores import this module, so it imports none of them (no import cycles).
import type { AssetRecord, LocalAssetStatus } from '@/lib/storage/records/asset-record';
import type { GroupRecord } from '@/lib/storage/records/group-record';
import type { QueuedOperation } from '@/lib/storage/records/queued-operation';
import type { SettingKey, Settings } from '@/lib/storage/records/setting-values';
import type { StillRecord } from '@/lib/storage/records/still-record';
import type { BatchRecord, StoryboardRecord } from '@/lib/storage/records/studio-records';
import type { LocalTaskStatus, TaskRecord } from '@/lib/storage/records/task-record';

/**
 * The extension's single source of truth: IndexedDB, so that state survives the service worker
 * being stopped at any moment. Versioned; `upgrade` migrates step by step. Only the store modules
 * beside this one (group-store, asset-store, task-store, queue-store, settings-store,
 * storyboard-store, batch-store, still-store) open it:
 * each owns the reads and writes of its store, typed.
 */

export interface ArkbridgeDB extends DBSchema {
  groups: { key: string; value: GroupRecord; indexes: { byUsedAt: number } };
  assets: {
    key: string;
    value: AssetRecord;
    indexes: { byStatus: LocalAssetStatus; byGroup: string; byUrlGroup: [string, string]; byAssetId: string };
  };
  tasks: { key: string; value: TaskRecord; indexes: { byStatus: LocalTaskStatus; byCreatedAt: number; byTaskId: string } };
  queue: { key: number; value: QueuedOperation; indexes: { byNotBefore: number; byLocalId: string } };
  settings: { key: SettingKey; value: Settings[SettingKey] };
  /** The studio's storyboards (version 2). */
  storyboards: { key: string; value: StoryboardRecord; indexes: { byUpdatedAt: number } };
  /** The studio's batches (version 2). */
  batches: { key: string; value: BatchRecord; indexes: { byCreatedAt: number } };
  /** Stills taken from completed videos, by task id (version 3). */
  stills: { key: string; value: StillRecord };
}

export type StoreName = 'groups' | 'assets' | 'tasks' | 'queue' | 'settings' | 'storyboards' | 'batches' | 'stills';

export const DB_NAME = 'arkbridge';
export const DB_VERSION = 3;

export type Database = IDBPDatabase<ArkbridgeDB>;

let opening: Promise<Database> | null = null;

/** The database, opened once per context. */
export function db(): Promise<Database> {
  opening ??= openDB<ArkbridgeDB>(DB_NAME, DB_VERSION, {
    upgrade(database, oldVersion) {
      if (oldVersion < 1) {
        database.createObjectStore('groups', { keyPath: 'id' }).createIndex('byUsedAt', 'usedAt');
        const assets = database.createObjectStore('assets', { keyPath: 'localId' });
        assets.createIndex('byStatus', 'status');
        assets.createIndex('byGroup', 'groupId');
        assets.createIndex('byUrlGroup', ['url', 'groupId']);
        assets.createIndex('byAssetId', 'assetId', { unique: true });
        const tasks = database.createObjectStore('tasks', { keyPath: 'localId' });
        tasks.createIndex('byStatus', 'status');
        tasks.createIndex('byCreatedAt', 'createdAt');
        tasks.createIndex('byTaskId', 'taskId', { unique: true });
        const queue = database.createObjectStore('queue', { keyPath: 'key', autoIncrement: true });
        queue.createIndex('byNotBefore', 'notBefore');
        queue.createIndex('byLocalId', 'localId', { unique: true });
        database.createObjectStore('settings');
      }
      if (oldVersion < 2) {
        database.createObjectStore('storyboards', { keyPath: 'id' }).createIndex('byUpdatedAt', 'updatedAt');
        database.createObjectStore('batches', { keyPath: 'id' }).createIndex('byCreatedAt', 'createdAt');
      }
      // A new store only: what versions 1 and 2 hold stays as it is.
      if (oldVersion < 3) database.createObjectStore('stills', { keyPath: 'taskId' });
    },
    blocking() {
      // A newer version wants to upgrade (another context): let it.
      void closeDb();
    },
  });
  return opening;
}

/** Closes and forgets the connection (tests; a schema upgrade in another context). */
export async function closeDb(): Promise<void> {
  const current = opening;
  opening = null;
  if (current) (await current).close();
}

/** A random id for local records (Idempotency-Keys: lib/proxy/idempotency-keys). */
export const newLocalId = (): string => crypto.randomUUID();
