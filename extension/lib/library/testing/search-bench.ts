/**
 * The search's cost per keystroke at 10,000 assets, shared by the perf test (which asserts the
 * answers) and `npm run bench -- search` (which prints): LibrarySearch beside one MiniSearch query over
 * the whole index per keystroke (what LibrarySearch did before it kept each word's matches), same
 * options and documents, interleaved in one run so that both see the same machine.
 */
import MiniSearch from 'minisearch';
import { keepsRecord, searchText, type SearchQuery } from '@/lib/library/library-filter';
import { docOf, LibrarySearch, SEARCH_INDEX_OPTIONS } from '@/lib/library/library-search';
import type { AssetRecord } from '@/lib/storage/records/asset-record';

const WORDS = ['red', 'fox', 'ocean', 'mountain', 'city', 'night', 'portrait', 'studio', 'forest', 'river', 'snow', 'desert', 'neon', 'street', 'sky'];
const TYPES = ['Image', 'Video', 'Audio'] as const;
const STATUSES = ['Active', 'Processing', 'Failed', 'Queued'] as const;

/** What a member types, one keystroke at a time: words that extend, a second and third word, a date. */
export const TYPED = ['mountain river', 'red fox 12', 'neon street gallery', 'forest 2026-03', 'sky snow'];

/** A library of `count` assets in 40 groups, with source pages and capture dates (every searched field filled). */
export function benchLibrary(count: number): { assets: AssetRecord[]; groups: { id: string; name: string }[] } {
  const groups = Array.from({ length: 40 }, (_, i) => ({ id: `g${i}`, name: `Group ${WORDS[i % WORDS.length]} ${i}` }));
  const assets = Array.from({ length: count }, (_, i): AssetRecord => {
    const w = (k: number) => WORDS[(i * 7 + k * 13) % WORDS.length]!;
    return {
      localId: `a${i}`,
      groupId: `g${i % groups.length}`,
      name: `${w(0)} ${w(1)} ${i}`,
      url: `https://cdn.example.com/${i}.png`,
      type: TYPES[i % 3]!,
      status: STATUSES[i % 4]!,
      idempotencyKey: '',
      notified: true,
      source: { how: 'link', capturedAt: Date.UTC(2026, i % 12, (i % 28) + 1), pageUrl: `https://site${i % 300}.example.com/${w(2)}`, pageTitle: `${w(3)} gallery ${i % 500}` },
      createdAt: i,
      updatedAt: i,
    };
  });
  return { assets, groups };
}

const sortedOf = (xs: number[]) => [...xs].sort((a, b) => a - b);
const at = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
export const summary = (xs: number[]) => {
  const sorted = sortedOf(xs);
  return { median: at(sorted, 0.5), p95: at(sorted, 0.95), worst: sorted.at(-1)! };
};

export interface SearchBench {
  count: number;
  keystrokes: number;
  rounds: number;
  /** Building the index, ms. */
  build: number;
  /** Per keystroke, ms: LibrarySearch, and one MiniSearch query over the whole index. */
  after: number[];
  before: number[];
  /** Keystrokes where the two answered different records (should be none). */
  mismatches: string[];
  search: LibrarySearch;
  assets: AssetRecord[];
  groups: { id: string; name: string }[];
}

/**
 * Types each of TYPED one keystroke at a time, `rounds` times (the last with a status filter), timing
 * both searches at every keystroke, in alternating order so that neither always runs second.
 */
export function runSearchBench(count = 10_000, rounds = 3): SearchBench {
  const { assets, groups } = benchLibrary(count);
  const search = new LibrarySearch();
  let t = performance.now();
  search.sync(assets, groups);
  const build = performance.now() - t;

  const names = new Map(groups.map((g) => [g.id, g.name]));
  const whole = new MiniSearch({ ...SEARCH_INDEX_OPTIONS, storeFields: ['type', 'status', 'groupId'] });
  whole.addAll(assets.map((a) => docOf(a, names.get(a.groupId) ?? '')));
  const wholeQuery = (query: SearchQuery) => {
    const keep = keepsRecord(query);
    return whole.search(searchText(query), { filter: (r) => keep(r as unknown as { type: string; status: string; groupId: string }) }).map((r) => r.id as string);
  };

  const before: number[] = [];
  const after: number[] = [];
  const mismatches: string[] = [];
  let keystrokes = 0;
  for (let round = 0; round < rounds; round++) {
    for (const typed of TYPED) {
      for (let i = 1; i <= typed.length; i++) {
        keystrokes++;
        const query: SearchQuery = { text: typed.slice(0, i), status: round === rounds - 1 && rounds > 1 ? 'Active' : undefined };
        const timed = (f: () => string[], into: number[]) => () => {
          t = performance.now();
          const ids = f();
          into.push(performance.now() - t);
          return ids;
        };
        const runs = [timed(() => wholeQuery(query), before), timed(() => search.search(query), after)];
        const [a, b] = keystrokes % 2 ? [runs[0]!(), runs[1]!()] : [runs[1]!(), runs[0]!()].reverse();
        // The same records (ties in score may come in either order).
        if ([...a!].sort().join() !== [...b!].sort().join()) mismatches.push(JSON.stringify(query));
      }
    }
  }
  return { count, keystrokes, rounds, build, after, before, mismatches, search, assets, groups };
}

/** The bench's line: per keystroke, median and p95, LibrarySearch then the whole-index query. */
export function describeSearchBench(b: SearchBench): string {
  const ms = (x: number) => `${x.toFixed(2)} ms`;
  const now = summary(b.after);
  const was = summary(b.before);
  return (
    `search over ${b.count.toLocaleString('en')} assets, per keystroke (${b.keystrokes} keystrokes: ${TYPED.length} queries typed, ${b.rounds} rounds; goal 16 ms, one frame): ` +
    `median ${ms(now.median)}, p95 ${ms(now.p95)}, worst ${ms(now.worst)}; ` +
    `one MiniSearch query over the whole index, same run: median ${ms(was.median)}, p95 ${ms(was.p95)}, worst ${ms(was.worst)}; ` +
    `index built in ${ms(b.build)}`
  );
}
