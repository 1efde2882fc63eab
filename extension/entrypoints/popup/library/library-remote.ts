import type { LibraryViewAction, Sync } from '@/entrypoints/popup/library/library-view-state';
import { t } from '@/lib/i18n/translate';
import { deleteGroup } from '@/lib/library/group-actions';
import { refreshLibrary, refreshLibraryIfStale } from '@/lib/library/library-refresh';
import { ApiError } from '@/lib/proxy/api-failure';
import { connectedClient } from '@/lib/proxy/connected-client';
import { describeFailure, notConnected, problemOf } from '@/lib/proxy/failure-message';
import type { GroupRecord } from '@/lib/storage/records/group-record';

/**
 * What the Library tab asks of the proxy: its refresh, a group's deletion, and the group form
 * (create, rename, describe). A chunk of its own with the proxy client and the library's schemas,
 * loaded by the refresh the tab starts once it has painted (LibraryView), so that the first paint
 * is the tab from IndexedDB without them.
 */
export { GroupForm } from '@/entrypoints/popup/library/GroupForm';

/**
 * Refreshes the library from the proxy (`whenStale`: unless refreshed a moment ago). `begin` is
 * called once connected, before the first request; answering false stops there (the view is gone).
 * Answers the status line's next state, or null when nothing was sent.
 */
export async function refreshFromProxy(whenStale: boolean, begin: () => boolean): Promise<Sync | null> {
  const connected = await connectedClient();
  if (!connected || !begin()) return null;
  try {
    await (whenStale ? refreshLibraryIfStale(connected.client) : refreshLibrary(connected.client));
    return { state: 'idle' };
  } catch (error) {
    if (error instanceof ApiError && error.failure.kind === 'network') return { state: 'offline' };
    return { state: 'failed', message: (await problemOf(error)).message };
  }
}

/** Deletes a group the member owns: answers what the view does next (its reducer's action). */
export async function deleteGroupOnProxy(group: GroupRecord): Promise<Extract<LibraryViewAction, { type: 'deleteNotSent' | 'deleteFailed' | 'deleted' }>> {
  const connected = await connectedClient();
  if (!connected) return { type: 'deleteNotSent', problem: notConnected() };
  const result = await deleteGroup(connected.client, group).catch((error: unknown) => ({ ok: false as const, problem: describeFailure(error) }));
  if (!result.ok) return { type: 'deleteFailed', problem: result.problem };
  return { type: 'deleted', notice: t('library.group.deleted', { name: group.name }) };
}
