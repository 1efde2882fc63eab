import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { AssetStatus, AssetType, GroupType, TaskStatus } from '../../shared';

/**
 * The extension's single source of truth: IndexedDB, so that state survives the service worker
 * being stopped at any moment. Versioned; `upgrade` migrates step by step.
 */

export interface GroupRecord {
  id: string;
  name: string;
  description: string;
  type: GroupType;
  /** Last time the member used the group (drives the "recent groups" menu). */
  usedAt: number;
}

export interface AssetRecord {
  /** Platform asset id once created; a local id (`local-…`) before. */
  id: string;
  groupId: string;
  name: string;
  url: string;
  type: AssetType;
  status: AssetStatus | 'Pending';
  error?: string;
  /** Idempotency-Key of the create call, kept so a retry cannot create a second asset. */
  idempotencyKey: string;
  createdAt: number;
  updatedAt: number;
}

export interface TaskRecord {
  /** Platform task id once created; a local id before. */
  id: string;
  model: string;
  status: TaskStatus | 'submitting';
  progress: number;
  idempotencyKey: string;
  body: unknown;
  videoUrl?: string;
  error?: { code: string; message: string };
  createdAt: number;
  completedAt?: number;
}

export interface QueuedOperation {
  key?: number;
  kind: 'createAsset' | 'createTask';
  /** The record (asset or task) this operation creates. */
  recordId: string;
  attempts: number;
  notBefore: number;
}

export interface ArkbridgeDB extends DBSchema {
  groups: { key: string; value: GroupRecord; indexes: { byUsedAt: number } };
  assets: { key: string; value: AssetRecord; indexes: { byStatus: string; byGroup: string; byUrlGroup: [string, string] } };
  tasks: { key: string; value: TaskRecord; indexes: { byStatus: string; byCreatedAt: number } };
  queue: { key: number; value: QueuedOperation; indexes: { byNotBefore: number } };
}

export const DB_NAME = 'arkbridge';
export const DB_VERSION = 1;

let opening: Promise<IDBPDatabase<ArkbridgeDB>> | null = null;

/** The database, opened once per context. */
export function db(): Promise<IDBPDatabase<ArkbridgeDB>> {
  opening ??= openDB<ArkbridgeDB>(DB_NAME, DB_VERSION, {
    upgrade(database, oldVersion) {
      if (oldVersion < 1) {
        const groups = database.createObjectStore('groups', { keyPath: 'id' });
        groups.createIndex('byUsedAt', 'usedAt');
        const assets = database.createObjectStore('assets', { keyPath: 'id' });
        assets.createIndex('byStatus', 'status');
        assets.createIndex('byGroup', 'groupId');
        assets.createIndex('byUrlGroup', ['url', 'groupId']);
        const tasks = database.createObjectStore('tasks', { keyPath: 'id' });
        tasks.createIndex('byStatus', 'status');
        tasks.createIndex('byCreatedAt', 'createdAt');
        const queue = database.createObjectStore('queue', { keyPath: 'key', autoIncrement: true });
        queue.createIndex('byNotBefore', 'notBefore');
      }
    },
  });
  return opening;
}

/** Closes and forgets the connection (tests; a schema upgrade in another context). */
export async function closeDb(): Promise<void> {
  if (opening) (await opening).close();
  opening = null;
}
