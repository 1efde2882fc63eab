import { getConnection } from '../connection';
import { db } from '../db';
import { buildMenus } from '../menus';

/** Rebuilds the context menu from what IndexedDB knows now. */
export async function refreshMenus(): Promise<void> {
  const database = await db();
  const [connection, groups, defaultGroupId] = await Promise.all([
    getConnection(),
    database.getAll('groups'),
    database.get('settings', 'defaultGroupId') as Promise<string | undefined>,
  ]);
  await buildMenus({ connected: Boolean(connection && !connection.needsReconnect), groups, defaultGroupId: defaultGroupId ?? null });
}
