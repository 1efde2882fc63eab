import { db } from '@/lib/storage/database';
import type { StoryboardRecord } from '@/lib/storage/records/studio-records';

/** The `storyboards` store: the studio's storyboards, each with its shots. */
export const storyboardStore = {
  /** Every storyboard, the last changed first. */
  async all(): Promise<StoryboardRecord[]> {
    return (await (await db()).getAllFromIndex('storyboards', 'byUpdatedAt')).reverse();
  },

  async get(id: string): Promise<StoryboardRecord | undefined> {
    return (await db()).get('storyboards', id);
  },

  async put(record: StoryboardRecord): Promise<void> {
    await (await db()).put('storyboards', record);
  },

  async delete(id: string): Promise<void> {
    await (await db()).delete('storyboards', id);
  },

  /**
   * Reads and rewrites one storyboard in one transaction (another studio tab may change it
   * meanwhile): `update` answers the record to store, or undefined to leave it. Answers the stored
   * record (undefined when there is none).
   */
  async update(id: string, update: (current: StoryboardRecord) => StoryboardRecord | undefined): Promise<StoryboardRecord | undefined> {
    const tx = (await db()).transaction('storyboards', 'readwrite');
    const current = await tx.store.get(id);
    const next = current && update(current);
    if (next) await tx.store.put(next);
    await tx.done;
    return next ?? current;
  },
};
