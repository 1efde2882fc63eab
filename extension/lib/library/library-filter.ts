import type { AssetType } from '@@/shared';
import type { AssetRecord } from '@/lib/storage/records/asset-record';

/**
 * The library's filters (type, status, group), apart from the text index (library-search), so that
 * a group opens and its chips filter without loading MiniSearch: the index is only needed once the
 * member types, and stays out of the popup's first paint.
 */

/** Longest query read (the rest is ignored): tokenizing is linear, and a query is a few words. */
export const SEARCH_QUERY_MAX = 200;

/** Status filter: Processing includes the records still being sent (Queued), as the view's chips say. */
export type SearchStatus = 'all' | 'Processing' | 'Active' | 'Failed';

export interface SearchQuery {
  text: string;
  type?: AssetType | 'all';
  status?: SearchStatus;
  /** Only this group; null or absent: every group. */
  groupId?: string | null;
}

const matchesStatus = (status: string, filter: SearchStatus | undefined): boolean =>
  !filter || filter === 'all' || (filter === 'Processing' ? status === 'Processing' || status === 'Queued' : status === filter);

/** Whether a record passes the query's filters (its text aside). */
export function keepsRecord(query: SearchQuery): (r: { type: string; status: string; groupId: string }) => boolean {
  const type = query.type && query.type !== 'all' ? query.type : undefined;
  const groupId = query.groupId ?? undefined;
  return (r) => (!type || r.type === type) && (!groupId || r.groupId === groupId) && matchesStatus(r.status, query.status);
}

/** The query's text as searched: bounded and trimmed; empty means "filters only". */
export const searchText = (query: SearchQuery): string => query.text.slice(0, SEARCH_QUERY_MAX).trim();

/** The records passing the filters, in the given order (the answer to a query without text). */
export const filterRecords = (assets: readonly AssetRecord[], query: SearchQuery): AssetRecord[] => assets.filter(keepsRecord(query));
