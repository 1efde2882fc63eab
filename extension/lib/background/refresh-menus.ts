import { getConnection } from '@/lib/storage/stored-connection';
import { buildMenus } from '../menus';
import { groupStore } from '@/lib/storage/group-store';

/** Rebuilds the context menu from what IndexedDB knows now. */
export async function refreshMenus(): Promise<void> {
  const [connection, groups, defaultGroupId] = await Promise.all([getConnection(), groupStore.all(), groupStore.defaultId()]);
  await buildMenus({ connected: Boolean(connection && !connection.needsReconnect), groups, defaultGroupId });
}
