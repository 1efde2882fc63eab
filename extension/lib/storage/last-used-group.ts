import { settingsStore } from '@/lib/storage/settings-store';

/**
 * The group the member last saved to (settings `lastGroupId`), as "Save In" remembers it: every save
 * to a group (the context menu, the new-group window) records it, and the keyboard save goes there.
 * It may name a group deleted since: readers check it against the `groups` store.
 */
export const lastUsedGroup = {
  async id(): Promise<string | null> {
    return (await settingsStore.get('lastGroupId')) ?? null;
  },

  async remember(groupId: string): Promise<void> {
    await settingsStore.put('lastGroupId', groupId);
  },
};
