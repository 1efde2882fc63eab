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
 * A keystroke scores only what it must. The words are matched one after another, each only among
 * the records the words before it matched, unscored (MiniSearch hands each match to `boostDocument`,
 * which notes it and answers 0), and each step is kept: typing the second word of "mountain river"
 * never matches "mountain" again. Only an answer of at most RANK_LIMIT records is then scored, by
 * MiniSearch's own scores (BM25 counts every record of the index) summed over the words as its AND
 * does, counted for those records only: the order a query over the whole index gives them. A larger
 * answer ("mo", "2026": thousands of records, whose relevance tells nothing) keeps the store's order,
 * newest first. Either way the records are those of a query over the whole index (the perf test
 * checks it at every keystroke). The kept steps are dropped when the index changes.
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

/**
 * One word of the query matched: the records every word so far matches (local ids), and, once
 * scored, this word's own scores (local id → score) for at least the records then ranked.
 */
interface Step {
  word: string;
  scope: Set<string>;
  scores: Map<string, number> | null;
}

/**
 * Up to how many records an answer is ranked: beyond, it keeps the library's order (newest first).
 * Relevance among thousands of records that all begin a word with "mo" or carry "2026" tells the
 * member nothing, and scoring them all (MiniSearch's BM25 and its result objects) is what cost a
 * keystroke its frame; an answer this size is scored in a few milliseconds.
 */
export const RANK_LIMIT = 1000;

export class LibrarySearch {
  readonly #index = new MiniSearch<SearchDoc>(SEARCH_INDEX_OPTIONS);
  /** Each indexed record's key (keyOf), by local id. */
  readonly #keys = new Map<string, string>();
  /** The records in the store's order (newest first), for the empty query. */
  #order: AssetRecord[] = [];
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
    if (changed || removed) this.#steps = [];
    return { changed, removed };
  }

  /**
   * The local ids of the records matching: best first when there are at most RANK_LIMIT of them,
   * else in the store's order (as for an empty text).
   */
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
      const scope = steps[i - 1]?.scope ?? null;
      if (scope?.size === 0) steps.push({ word: words[i]!, scope, scores: null });
      else if (scope && scope.size <= RANK_LIMIT) {
        // Few enough to rank: scored at once, among them.
        const scores = this.#score(words[i]!, scope);
        steps.push({ word: words[i]!, scope: new Set(scores.keys()), scores });
      } else steps.push({ word: words[i]!, scope: this.#match(words[i]!, scope), scores: null });
    }
    this.#steps = steps;
    const scope = steps.at(-1)!.scope;
    const found: string[] = [];
    if (scope.size) {
      for (const record of this.#order) if (scope.has(record.localId) && keep(record)) found.push(record.localId);
    }
    return found.length > RANK_LIMIT ? found : this.#rank(steps, found);
  }

  /**
   * The records every word matches (by prefix and fuzzily, as the index's options say) among those
   * in scope (all if null), unscored: MiniSearch hands each match to `boostDocument`, which notes it
   * and answers 0, so that nothing is scored nor kept as a result.
   */
  #match(word: string, scope: Set<string> | null): Set<string> {
    const matches = new Set<string>();
    this.#index.search(word, {
      boostDocument: (id) => {
        if (!scope || scope.has(id as string)) matches.add(id as string);
        return 0;
      },
    });
    return matches;
  }

  /** One word's scores (MiniSearch's own) for the records among `ids` it matches. */
  #score(word: string, ids: { has(id: string): boolean }): Map<string, number> {
    const scores = new Map<string, number>();
    for (const r of this.#index.search(word, { boostDocument: (id) => (ids.has(id as string) ? 1 : 0) })) scores.set(r.id as string, r.score);
    return scores;
  }

  /**
   * The records (in the store's order), best first: MiniSearch's own scores, each word's summed as its
   * AND does (the order a query over the whole index gives them; ties keep the store's order). A
   * word is scored only for these records, and only if its step has not scored them already (typing
   * "red fox" after "red fo" scores "red" no more).
   */
  #rank(steps: Step[], ids: string[]): string[] {
    if (ids.length < 2) return ids;
    const total = new Map<string, number>(ids.map((id) => [id, 0]));
    for (const step of steps) {
      if (!step.scores || !ids.every((id) => step.scores!.has(id))) step.scores = this.#score(step.word, total);
      for (const id of ids) total.set(id, total.get(id)! + step.scores.get(id)!);
    }
    return [...ids].sort((a, b) => total.get(b)! - total.get(a)!);
  }
}
