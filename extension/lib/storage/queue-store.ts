import { db } from '@/lib/storage/database';
import type { QueuedOperation } from '@/lib/storage/records/queued-operation';

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

  /** The queued operation of a record, if any. */
  async ofRecord(localId: string): Promise<QueuedOperation | undefined> {
    return (await db()).getFromIndex('queue', 'byLocalId', localId);
  },
};
