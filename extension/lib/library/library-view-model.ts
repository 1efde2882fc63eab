import { assetStore } from '@/lib/storage/asset-store';
import { groupStore } from '@/lib/storage/group-store';
import type { AssetRecord } from '@/lib/storage/records/asset-record';
import type { GroupRecord } from '@/lib/storage/records/group-record';

/** What the Library view shows: everything IndexedDB knows (first paint never waits for the network). */
export interface LibraryData {
  groups: GroupRecord[];
  assets: AssetRecord[];
}

export async function readLibrary(): Promise<LibraryData> {
  const [groups, assets] = await Promise.all([groupStore.all(), assetStore.all()]);
  // Newest first; ties (listed together) by name.
  assets.sort((a, b) => b.createdAt - a.createdAt || a.name.localeCompare(b.name));
  return { groups, assets };
}

/** The status filter: Processing includes the records still being sent (Queued). */
export type StatusFilter = 'all' | 'Processing' | 'Active' | 'Failed';
export const STATUS_FILTERS: readonly StatusFilter[] = ['all', 'Processing', 'Active', 'Failed'];

export interface AssetQuery {
  /** Only this group; null: every group. */
  groupId: string | null;
  /** Part of the name (case-insensitive); blank: any. */
  search: string;
  status: StatusFilter;
}

/** Whether the query narrows anything beyond the group (the view then lists assets, not groups). */
export const isNarrowed = (query: AssetQuery): boolean => query.search.trim() !== '' || query.status !== 'all';

export function countByGroup(assets: readonly AssetRecord[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const a of assets) counts.set(a.groupId, (counts.get(a.groupId) ?? 0) + 1);
  return counts;
}
