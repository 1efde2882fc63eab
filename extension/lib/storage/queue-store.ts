import { db } from '@/lib/storage/database';

/** A create waiting to be sent (records to create are added with asset-store's addQueued). */
export interface QueuedOperation {
  key?: number;
  kind: 'createAsset';
  /** The local id of the record this operation creates. */
  localId: string;
  attempts: number;
  /** Not before this time (backoff, Retry-After). */
  notBefore: number;
}

/** The `queue` store. */
export const queueStore = {
  async all(): Promise<QueuedOperation[]> {
    return (await db()).getAll('queue');
  },

  /** The operations whose time has come, earliest first. */
  async due(now: number): Promise<QueuedOperation[]> {
    return (await db()).getAllFromIndex('queue', 'byNotBefore', IDBKeyRange.upperBound(now));
  },

  /** When the earliest waiting operation may run, or null when the queue is empty. */
  async nextAt(): Promise<number | null> {
    const cursor = await (await db()).transaction('queue').store.index('byNotBefore').openCursor();
    return cursor ? cursor.value.notBefore : null;
  },

  async put(op: QueuedOperation): Promise<void> {
    await (await db()).put('queue', op);
  },

  async remove(key: number): Promise<void> {
    await (await db()).delete('queue', key);
  },
};
