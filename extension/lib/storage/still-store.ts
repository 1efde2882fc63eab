import { db } from '@/lib/storage/database';
import type { StillRecord } from '@/lib/storage/records/still-record';

/** The `stills` store: the pictures taken once from each completed video (lib/tasks/task-stills). */
export const stillStore = {
  async get(taskId: string): Promise<StillRecord | undefined> {
    return (await db()).get('stills', taskId);
  },

  async put(record: StillRecord): Promise<void> {
    await (await db()).put('stills', record);
  },
};
