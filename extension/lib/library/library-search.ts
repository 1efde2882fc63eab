import MiniSearch, { type Options } from 'minisearch';
import { keepsRecord, searchText, type SearchQuery } from '@/lib/library/library-filter';
import type { AssetRecord } from '@/lib/storage/records/asset-record';
import type { GroupRecord } from '@/lib/storage/records/group-record';

/**
 * The library's search as you type (MiniSearch): over each asset's name, type, status, group name,
 * source page title and address, and capture date, across the member's own and shared groups. The
 * index lives in memory and follows the store incrementally (`sync` adds, replaces and discards only
 * the records that changed), so a keystroke only queries it. Text fields match by prefix and,
 * for words of 4 letters or more, fuzzily (one edit in five letters); a word of one letter only as a
 * whole word. Every word must match (AND).
 *
 * A keystroke scores only what it can change. The words are matched one after another, each only
 * among the records the words before it matched (MiniSearch's `boostDocument` returning 0 skips a
 * record before any scoring), and each step is kept: typing the second word of "mountain river"
 * never matches "mountain" again, and "river" is scored only among mountain's records. A word that
 * extends the word at its place in the previous query ("riv" after "ri") is matched by prefix only
 * among that word's records (a record with a word beginning "riv" has one beginning "ri"), and
 * fuzzily, over the same records as before, only by the words it does not begin (the others are its
 * prefix matches). The scores are MiniSearch's own (BM25 counts every record of the index, whatever
 * is skipped), summed over the words as its AND does, so the answer is the one a query over the
 * whole index gives (the perf test checks it at every keystroke). The kept steps are dropped when
 * the index changes.
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

/** The index's options: exported for the benchmark, which sets one MiniSearch query per keystroke beside LibrarySearch. */
export const SEARCH_INDEX_OPTIONS = {
  fields: [...FIELDS],
  searchOptions: {
    // A one-letter word is matched whole: as a prefix it would match most of the library.
    prefix: (term: string) => term.length >= 2,
    fuzzy: (term: string) => (term.length >= 4 ? 0.2 : false),
    combineWith: 'AND',
    boost: { name: 3, group: 1.5, pageTitle: 1.5 },
  },
} satisfies Options<SearchDoc>;

/** The words of a query as the index reads them (MiniSearch's own tokenizer and term processing), each once. */
const tokenize: (text: string) => string[] = MiniSearch.getDefault('tokenize');
const processTerm: (term: string) => string | null | undefined | false = MiniSearch.getDefault('processTerm');
const wordsOf = (text: string): string[] => [...new Set(tokenize(text).map((t) => processTerm(t)).filter((t): t is string => !!t))];

/** The capture day (UTC), `YYYY-MM-DD`: found by "2026", "2026-11" or the whole day. */
const dayOf = (ms: number): string => (Number.isFinite(ms) ? new Date(ms).toISOString().slice(0, 10) : '');

export function docOf(asset: AssetRecord, groupName: string): SearchDoc {
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

/** One word of the query matched: its matches (local id → its score), and the records every word so far matches (→ summed score). */
interface Step {
  word: string;
  matches: Map<string, number>;
  scope: Map<string, number>;
}

/** Whether a word is matched by prefix (the index's option, read from it). */
const byPrefix = (word: string): boolean => SEARCH_INDEX_OPTIONS.searchOptions.prefix(word);

export class LibrarySearch {
  readonly #index = new MiniSearch<SearchDoc>(SEARCH_INDEX_OPTIONS);
  /** Each indexed record's key (keyOf), by local id. */
  readonly #keys = new Map<string, string>();
  /** The records in the store's order (newest first), for the empty query. */
  #order: AssetRecord[] = [];
  /** The records by local id, for the filters. */
  #byId = new Map<string, AssetRecord>();
  /** The last query's words matched, in order, while the index is unchanged. */
  #steps: Step[] = [];

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
    const byId = new Map<string, AssetRecord>();
    let changed = 0;
    let removed = 0;
    for (const asset of assets) {
      byId.set(asset.localId, asset);
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
      if (byId.has(id)) continue;
      this.#index.discard(id);
      this.#keys.delete(id);
      removed++;
    }
    this.#order = [...assets];
    this.#byId = byId;
    if (changed || removed) this.#steps = [];
    return { changed, removed };
  }

  /** The local ids of the records matching, best first (for an empty text: in the store's order). */
  search(query: SearchQuery): string[] {
    const text = searchText(query);
    const keep = keepsRecord(query);
    if (!text) return this.#order.filter(keep).map((a) => a.localId);
    const words = wordsOf(text);
    if (!words.length) return [];
    const before = this.#steps;
    let same = 0;
    while (same < words.length && same < before.length && before[same]!.word === words[same]) same++;
    const steps = before.slice(0, same);
    for (let i = same; i < words.length; i++) {
      const word = words[i]!;
      const scope = steps[i - 1]?.scope ?? null;
      if (scope?.size === 0) {
        steps.push({ word, matches: scope, scope });
        continue;
      }
      const was = i === same ? before[i] : undefined;
      const extended = was && word.startsWith(was.word) && byPrefix(was.word) ? was.matches : null;
      const matches = this.#match(word, scope, extended);
      let next = matches;
      if (scope) {
        next = new Map();
        for (const [id, score] of matches) next.set(id, score + scope.get(id)!);
      }
      steps.push({ word, matches, scope: next });
    }
    this.#steps = steps;
    const found: { id: string; score: number }[] = [];
    for (const [id, score] of steps.at(-1)!.scope) {
      const record = this.#byId.get(id);
      if (record && keep(record)) found.push({ id, score });
    }
    return found.sort((a, b) => b.score - a.score).map((f) => f.id);
  }

  /**
   * One word's matches (local id → score) among the records in scope (all if null); `extended`:
   * the matches, in the same scope, of a word it begins with, where its prefix matches all are.
   */
  #match(word: string, scope: Map<string, number> | null, extended: Map<string, number> | null): Map<string, number> {
    const matches = new Map<string, number>();
    const add = (results: { id: unknown; score: number }[]) => {
      for (const r of results) matches.set(r.id as string, (matches.get(r.id as string) ?? 0) + r.score);
    };
    if (!extended) {
      add(this.#index.search(word, scope ? { boostDocument: (id) => (scope.has(id as string) ? 1 : 0) } : {}));
      return matches;
    }
    // Exact and prefix matches, among the records of the word it extends.
    add(this.#index.search(word, { fuzzy: false, boostDocument: (id) => (extended.has(id as string) ? 1 : 0) }));
    // Fuzzy matches by words it does not begin (MiniSearch scores those only as prefix matches).
    if (SEARCH_INDEX_OPTIONS.searchOptions.fuzzy(word)) {
      add(this.#index.search(word, { prefix: false, boostDocument: (id, term) => (!term.startsWith(word) && (!scope || scope.has(id as string)) ? 1 : 0) }));
    }
    return matches;
  }
}
