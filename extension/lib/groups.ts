import { listAll, OLDEST_FIRST } from '@/lib/proxy/list-all-pages';
import type { ProxyClient } from '@/lib/proxy/proxy-client';
import { groupStore, type GroupRecord } from '@/lib/storage/group-store';

/** At most this many pages are read by a refresh (100 groups a page). */
const MAX_PAGES = 100;

/**
 * Reads every group of the member through the proxy (ListAssetGroups, 100 a page, all pages) and
 * makes the `groups` store match it: listed groups are written (keeping their usedAt), groups the
 * proxy no longer lists (deleted, or another member's) are dropped, and so is a default group that
 * no longer exists. Answers the groups, sorted by name.
 */
export async function refreshGroups(client: ProxyClient): Promise<GroupRecord[]> {
  const { items } = await listAll(client, 'ListAssetGroups', OLDEST_FIRST, { maxPages: MAX_PAGES });
  return groupStore.replaceAll(items.map((item) => ({ id: item.Id, name: item.Name, description: item.Description ?? '', type: item.GroupType })));
}
