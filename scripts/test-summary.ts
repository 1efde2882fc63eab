/**
 * Prints what the last `npm test` left in test-results/: how long each of its phases took (the
 * checks and vitest, from phases.json) and where vitest's time went, with the test counts (from
 * test-timings.json). `.ci/run` prints it at its end, pass or fail.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatSummary, type RunSummary } from './lib/test-timings';
import { ROOT } from './lib/wrangler-dev';

const read = <T>(name: string): T | undefined => {
  const path = join(ROOT, 'test-results', name);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as T) : undefined;
};

const phases = read<{ seconds: number; phases: { name: string; seconds: number; ok: boolean }[] }>('phases.json');
const timings = read<RunSummary>('test-timings.json');
if (phases) {
  console.log(`npm test: ${phases.seconds.toFixed(1)} s`);
  for (const p of phases.phases) console.log(`  ${p.ok ? 'ok    ' : 'FAILED'} ${p.seconds.toFixed(1).padStart(7)} s  ${p.name}`);
}
console.log(timings ? formatSummary(timings) : 'No test timings (vitest did not finish a run).');
