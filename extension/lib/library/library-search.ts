import MiniSearch, { type SearchResult } from 'minisearch';
import { keepsRecord, searchText, type SearchQuery } from '@/lib/library/library-filter';
import type { AssetRecord } from '@/lib/storage/records/asset-record';
import type { GroupRecord } from '@/lib/storage/records/group-record';

/**
 * The library's search as you type (MiniSearch): over each asset's name, type, status, group name,
 * source page title and address, and capture date, across the member's own and shared groups. The
 * index lives in memory and follows the store incrementally (`sync` adds, replaces and discards only
 * the records that changed), so a keystroke only queries it. Text fields match by prefix and,
 * for words of 4 letters or more, fuzzily (one edit in five letters); a word of one letter only as a
 * whole word.
 */

export type { SearchQuery, SearchStatus } from '@/lib/library/library-filter';

interface SearchDoc {
  id: string;
  name: string;
  type: string;
  status: string;
  group: string;
  pageTitle: string;
  pageUrl: string;
  captured: string;
  groupId: string;
}

const FIELDS = ['name', 'type', 'status', 'group', 'pageTitle', 'pageUrl', 'captured'] as const;

/** The capture day (UTC), `YYYY-MM-DD`: found by "2026", "2026-11" or the whole day. */
const dayOf = (ms: number): string => (Number.isFinite(ms) ? new Date(ms).toISOString().slice(0, 10) : '');

function docOf(asset: AssetRecord, groupName: string): SearchDoc {
  return {
    id: asset.localId,
    name: asset.name,
    type: asset.type,
    status: asset.status,
    group: groupName,
    pageTitle: asset.source?.pageTitle ?? '',
    pageUrl: asset.source?.pageUrl ?? '',
    captured: dayOf(asset.source?.capturedAt ?? asset.createdAt),
    groupId: asset.groupId,
  };
}

/**
 * What decides whether a record must be indexed again, cheap to compute for every record on every
 * store change: every write of a record moves its `updatedAt`; its group's name is the one searched
 * field kept elsewhere.
 */
const keyOf = (asset: AssetRecord, groupName: string): string => `${asset.updatedAt}\u0000${asset.name}\u0000${asset.status}\u0000${asset.groupId}\u0000${groupName}`;

export class LibrarySearch {
  readonly #index = new MiniSearch<SearchDoc>({
    fields: [...FIELDS],
    storeFields: ['type', 'status', 'groupId'],
    searchOptions: {
      // A one-letter word is matched whole: as a prefix it would match most of the library.
      prefix: (term) => term.length >= 2,
      fuzzy: (term) => (term.length >= 4 ? 0.2 : false),
      combineWith: 'AND',
      boost: { name: 3, group: 1.5, pageTitle: 1.5 },
    },
  });
  /** Each indexed record's key (keyOf), by local id. */
  readonly #keys = new Map<string, string>();
  /** The records in the store's order (newest first), for the empty query. */
  #order: AssetRecord[] = [];

  /** Number of records indexed. */
  get size(): number {
    return this.#keys.size;
  }

  /**
   * Brings the index up to the store: records new or changed (by any searched field, or their
   * group's name) are (re)indexed, records gone are discarded; the others are left alone.
   */
  sync(assets: readonly AssetRecord[], groups: readonly Pick<GroupRecord, 'id' | 'name'>[]): { changed: number; removed: number } {
    const names = new Map(groups.map((g) => [g.id, g.name]));
    const seen = new Set<string>();
    let changed = 0;
    let removed = 0;
    for (const asset of assets) {
      seen.add(asset.localId);
      const groupName = names.get(asset.groupId) ?? '';
      const key = keyOf(asset, groupName);
      const before = this.#keys.get(asset.localId);
      if (before === key) continue;
      const doc = docOf(asset, groupName);
      if (before === undefined) this.#index.add(doc);
      else this.#index.replace(doc);
      this.#keys.set(asset.localId, key);
      changed++;
    }
    for (const id of this.#keys.keys()) {
      if (seen.has(id)) continue;
      this.#index.discard(id);
      this.#keys.delete(id);
      removed++;
    }
    this.#order = [...assets];
    return { changed, removed };
  }

  /** The local ids of the records matching, best first (for an empty text: in the store's order). */
  search(query: SearchQuery): string[] {
    const text = searchText(query);
    const keep = keepsRecord(query);
    if (!text) return this.#order.filter(keep).map((a) => a.localId);
    return this.#index.search(text, { filter: (r: SearchResult) => keep(r as unknown as SearchDoc) }).map((r) => r.id as string);
  }
}
