/** Bench section: the Library's search as you type at 10,000 assets, per keystroke (extension/lib/library/testing/search-bench). */
import { describeSearchBench, runSearchBench, summary } from '../../extension/lib/library/testing/search-bench';
import { verdict } from './measure';

export function searchSection(goalMs: number) {
  console.log('\nThe Library\'s search as you type, in Node (LibrarySearch beside one MiniSearch query over the whole index, interleaved):');
  const bench = runSearchBench(10_000, Number(process.env.BENCH_SEARCH_ROUNDS ?? 5));
  console.log(describeSearchBench(bench));
  if (bench.mismatches.length) console.log(`answers differ from the whole-index query at: ${bench.mismatches.join(', ')}`);
  const { p95 } = summary(bench.after);
  console.log(`Goal: a keystroke within ${goalMs} ms at the p95, the same records as the whole-index query: ${verdict(p95 <= goalMs && !bench.mismatches.length)}`);
}
