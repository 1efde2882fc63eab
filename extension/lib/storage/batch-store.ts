import { db } from '@/lib/storage/database';
import type { BatchRecord } from '@/lib/storage/records/studio-records';

/** The `batches` store: the studio's batches (one prompt over seeds and models) and their tasks. */
export const batchStore = {
  /** Every batch, newest first. */
  async newestFirst(): Promise<BatchRecord[]> {
    return (await (await db()).getAllFromIndex('batches', 'byCreatedAt')).reverse();
  },

  async get(id: string): Promise<BatchRecord | undefined> {
    return (await db()).get('batches', id);
  },

  async put(record: BatchRecord): Promise<void> {
    await (await db()).put('batches', record);
  },

  /** Reads and rewrites one batch in one transaction; answers the stored record. */
  async update(id: string, update: (current: BatchRecord) => BatchRecord | undefined): Promise<BatchRecord | undefined> {
    const tx = (await db()).transaction('batches', 'readwrite');
    const current = await tx.store.get(id);
    const next = current && update(current);
    if (next) await tx.store.put(next);
    await tx.done;
    return next ?? current;
  },
};
