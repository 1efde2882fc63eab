import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { AssetType, GroupType, TaskStatus, VideoCreateBody } from '../../shared';

/**
 * The extension's single source of truth: IndexedDB, so that state survives the service worker
 * being stopped at any moment. Versioned; `upgrade` migrates step by step.
 */

export interface GroupRecord {
  id: string;
  name: string;
  description: string;
  type: GroupType;
  /** Last time the member added to the group (drives "recent groups"); 0 if never. */
  usedAt: number;
}

/** `Queued`: recorded locally, not yet accepted by the service (the create may be retried). */
export type LocalAssetStatus = 'Queued' | 'Processing' | 'Active' | 'Failed';

export interface AssetRecord {
  /** Local key, fixed before any request. */
  localId: string;
  /** The service's asset id, once created. */
  assetId?: string;
  groupId: string;
  name: string;
  url: string;
  type: AssetType;
  status: LocalAssetStatus;
  error?: string;
  /** Idempotency-Key of the create call, stored before the request so a retry cannot create twice. */
  idempotencyKey: string;
  /** The member was told about the final status. */
  notified: boolean;
  createdAt: number;
  updatedAt: number;
}

/** `submitting`: recorded locally, the create request not yet answered. */
export type LocalTaskStatus = TaskStatus | 'submitting';

export interface TaskRecord {
  localId: string;
  taskId?: string;
  model: string;
  body: VideoCreateBody;
  status: LocalTaskStatus;
  progress: number;
  idempotencyKey: string;
  videoUrl?: string;
  error?: { code: string; message: string };
  notified: boolean;
  createdAt: number;
  completedAt?: number;
  /** While `submitting`: creates sent so far, when to send again, and what to tell the member. */
  attempts?: number;
  retryAt?: number;
  notice?: string;
}

export interface QueuedOperation {
  key?: number;
  kind: 'createAsset';
  /** The local id of the record this operation creates. */
  localId: string;
  attempts: number;
  /** Not before this time (backoff, Retry-After). */
  notBefore: number;
}

export interface ArkbridgeDB extends DBSchema {
  groups: { key: string; value: GroupRecord; indexes: { byUsedAt: number } };
  assets: {
    key: string;
    value: AssetRecord;
    indexes: { byStatus: LocalAssetStatus; byGroup: string; byUrlGroup: [string, string]; byAssetId: string };
  };
  tasks: { key: string; value: TaskRecord; indexes: { byStatus: LocalTaskStatus; byCreatedAt: number; byTaskId: string } };
  queue: { key: number; value: QueuedOperation; indexes: { byNotBefore: number; byLocalId: string } };
  settings: { key: string; value: unknown };
}

export const DB_NAME = 'arkbridge';
export const DB_VERSION = 1;

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

/** Name of the channel on which every context announces its writes, so open views refresh. */
const CHANNEL = 'arkbridge-db';

/** Tells open pages (the popup) that these stores changed. */
export function announceChange(...stores: (keyof ArkbridgeDB)[]): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage(stores);
  channel.close();
}

/** Calls `listener` with the changed stores whenever another context announces a write. */
export function onChange(listener: (stores: (keyof ArkbridgeDB)[]) => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => {};
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (event: MessageEvent<(keyof ArkbridgeDB)[]>) => listener(event.data);
  return () => channel.close();
}
