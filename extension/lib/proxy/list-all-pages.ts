import { type LibraryRequestInput, type LibraryResult, LIMITS } from '@@/shared';
import type { ProxyClient } from '@/lib/proxy/proxy-client';

/**
 * Oldest first: sort for a list that can grow while it is read, so that new items land on later
 * pages instead of shifting earlier ones.
 */
export const OLDEST_FIRST = { SortBy: 'CreateTime', SortOrder: 'Asc' } as const;

/** The library's paged list operations. */
export type ListAction = 'ListAssets' | 'ListAssetGroups';
export type ListItem<A extends ListAction> = LibraryResult<A>['Items'][number];

export interface ListAllOptions<A extends ListAction> {
  /** Safety stop: at most this many pages are read (then `complete` is false). Default 1000. */
  maxPages?: number;
  /** Stops early once the items read so far are enough (then `complete` is true). */
  until?: (items: ListItem<A>[]) => boolean;
}

export interface Listed<A extends ListAction> {
  items: ListItem<A>[];
  /** False when `maxPages` stopped the listing before its last page. */
  complete: boolean;
}

/**
 * Every page of a list call, 100 items a page (the most the service allows), one request per page:
 * stops at a short or empty page, once TotalCount items are read, when `until` is satisfied, or
 * after `maxPages`. Sort OLDEST_FIRST when the list can grow while it is read.
 */
export async function listAll<A extends ListAction>(
  client: ProxyClient,
  action: A,
  query: Omit<LibraryRequestInput<A>, 'PageNumber' | 'PageSize'>,
  { maxPages = 1000, until }: ListAllOptions<A> = {},
): Promise<Listed<A>> {
  const items: ListItem<A>[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const body = { ...query, PageNumber: page, PageSize: LIMITS.pageSizeMax } as LibraryRequestInput<A>;
    const result = await client.library(action, body);
    const pageItems = (result?.Items ?? []) as ListItem<A>[];
    items.push(...pageItems);
    const total = typeof result?.TotalCount === 'number' ? result.TotalCount : Infinity;
    if (pageItems.length < LIMITS.pageSizeMax || items.length >= total || until?.(items)) return { items, complete: true };
  }
  return { items, complete: false };
}

/** Group ids per ListAssets filter: assets of many groups are listed in several batches. */
export const GROUP_BATCH = 100;

type AssetFilter = NonNullable<LibraryRequestInput<'ListAssets'>['Filter']>;

/**
 * Every asset of `groupIds` matching the rest of `query`: `listAll` over batches of GROUP_BATCH
 * group ids. `until` sees the items of every batch read so far; `maxPages` applies per batch.
 */
export async function listAssetsOfGroups(
  client: ProxyClient,
  groupIds: readonly string[],
  query: Omit<LibraryRequestInput<'ListAssets'>, 'PageNumber' | 'PageSize' | 'Filter'> & { Filter?: Omit<AssetFilter, 'GroupIds'> },
  { maxPages, until }: ListAllOptions<'ListAssets'> = {},
): Promise<Listed<'ListAssets'>> {
  const items: ListItem<'ListAssets'>[] = [];
  let complete = true;
  for (let start = 0; start < groupIds.length; start += GROUP_BATCH) {
    const Filter = { ...query.Filter, GroupIds: groupIds.slice(start, start + GROUP_BATCH) };
    const batch = await listAll(client, 'ListAssets', { ...query, Filter }, { maxPages, until: until && ((read) => until([...items, ...read])) });
    items.push(...batch.items);
    complete &&= batch.complete;
    if (until?.(items)) break;
  }
  return { items, complete };
}
