import { db } from '@/lib/storage/database';
import type { LocalTaskStatus, TaskRecord } from '@/lib/storage/records/task-record';

/** The `tasks` store. */
export const taskStore = {
  /** Every task, newest first. */
  async newestFirst(): Promise<TaskRecord[]> {
    return (await (await db()).getAllFromIndex('tasks', 'byCreatedAt')).reverse();
  },

  async withStatus(status: LocalTaskStatus): Promise<TaskRecord[]> {
    return (await db()).getAllFromIndex('tasks', 'byStatus', status);
  },

  async countWithStatus(status: LocalTaskStatus): Promise<number> {
    return (await db()).countFromIndex('tasks', 'byStatus', status);
  },

  async delete(localId: string): Promise<void> {
    await (await db()).delete('tasks', localId);
  },

  async get(localId: string): Promise<TaskRecord | undefined> {
    return (await db()).get('tasks', localId);
  },

  async put(record: TaskRecord): Promise<void> {
    await (await db()).put('tasks', record);
  },

  /**
   * Reads and rewrites one record in one transaction (another page may change it meanwhile):
   * `update` answers the record to store, or undefined to leave it. Answers the stored record
   * (undefined when there is none).
   */
  async update(localId: string, update: (current: TaskRecord) => TaskRecord | undefined): Promise<TaskRecord | undefined> {
    const tx = (await db()).transaction('tasks', 'readwrite');
    const current = await tx.store.get(localId);
    const next = current && update(current);
    if (next) await tx.store.put(next);
    await tx.done;
    return next ?? current;
  },
};
