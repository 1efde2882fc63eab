import { buildMenus } from '@/lib/background/context-menu';
import { groupStore } from '@/lib/storage/group-store';
import { getConnection } from '@/lib/storage/stored-connection';

/** Rebuilds the context menu from what IndexedDB knows now. */
export async function refreshMenus(): Promise<void> {
  const [connection, groups, defaultGroupId] = await Promise.all([getConnection(), groupStore.all(), groupStore.defaultId()]);
  await buildMenus({ connected: Boolean(connection && !connection.needsReconnect), groups, defaultGroupId });
}
