/**
 * Prints what the last `npm test` left in test-results/: how long each of its parts took (the
 * checks and each vitest, from phases.json) and where the tests' time went, with their counts (from
 * the test-timings*.json each vitest wrote). `.ci/run` prints it at its end, pass or fail.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatSummary, summarise, TIMINGS_NAME, type FileTiming } from './lib/test-timings';
import { ROOT } from './lib/wrangler-dev';

const RESULTS = join(ROOT, 'test-results');
const phasesFile = join(RESULTS, 'phases.json');

if (existsSync(phasesFile)) {
  const { seconds, phases } = JSON.parse(readFileSync(phasesFile, 'utf8')) as { seconds: number; phases: { name: string; seconds: number; ok: boolean }[] };
  console.log(`npm test: ${seconds.toFixed(1)} s`);
  for (const p of phases) console.log(`  ${p.ok ? 'ok    ' : 'FAILED'} ${p.seconds.toFixed(1).padStart(7)} s  ${p.name}`);
}
// `npm test` removes the last run's timings first, so these are this run's (a vitest that never ended writes none).
const runs = existsSync(RESULTS)
  ? readdirSync(RESULTS)
      .filter((name) => TIMINGS_NAME.test(name))
      .map((name) => JSON.parse(readFileSync(join(RESULTS, name), 'utf8')) as { wallMs: number; files: FileTiming[] })
  : [];
console.log(runs.length > 0 ? formatSummary(summarise(runs.flatMap((r) => r.files), Math.max(...runs.map((r) => r.wallMs)))) : 'No test timings (no vitest finished a run).');
