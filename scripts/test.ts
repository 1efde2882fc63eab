/**
 * `npm test`: everything at once, since most of the suite waits on workerd, browsers and the
 * sandbox's clock rather than on a core (docs/testing.md has the figures):
 * - the proxy's tests in two vitests of their own (half the files each), one file after another
 *   in each (the sandbox a vitest's proxy files share keeps its faults, clock and counters for the
 *   whole run, so two of its files must not overlap; each vitest starts its own sandbox);
 * - the sandbox's tests in a vitest of their own, one file after another (its clock and faults
 *   are one for the project);
 * - every other project in another vitest, files side by side;
 * - the type checks and the import rules beside both.
 * The larger vitest's output streams as it comes; the others' is held and printed whole when each
 * ends, so lines never interleave. Fails when any part fails; prints how long each took and writes
 * it to test-results/phases.json for `.ci/run`'s summary. With arguments (`npm test -- --project
 * unit`, a file name), they go to one vitest run as given, and the checks run beside it.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { signalGroup } from './lib/processes';
import { TIMINGS_NAME } from './lib/test-timings';
import { ROOT } from './lib/wrangler-dev';

interface Phase {
  name: string;
  seconds: number;
  ok: boolean;
}

/** The process groups of the parts still running. */
const groups = new Set<number>();
// The parts are in groups of their own, so a Ctrl-C at the terminal reaches only this process: pass it on.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    for (const group of groups) signalGroup(group, 'SIGTERM');
    setTimeout(() => {
      for (const group of groups) signalGroup(group, 'SIGKILL');
      process.exit(130);
    }, 5_000).unref();
  });
}

const bin = (name: string): string => join(ROOT, 'node_modules', '.bin', name);
const RESULTS = join(ROOT, 'test-results');

function run(name: string, command: string, args: string[], { stream = false, env = {} }: { stream?: boolean; env?: Record<string, string> } = {}): Promise<Phase> {
  const started = performance.now();
  return new Promise((resolve) => {
    // Each part leads a process group of its own: whatever it started and left behind (a workerd
    // that ignores SIGTERM after a failed file, a browser) is stopped with it when it ends.
    const child = spawn(command, args, { cwd: ROOT, detached: true, env: { ...process.env, ...env }, stdio: stream ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    const group = child.pid;
    if (group !== undefined) groups.add(group);
    const held: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => held.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => held.push(chunk));
    let settled = false;
    const done = (ok: boolean) => {
      if (settled) return;
      settled = true;
      if (group !== undefined) {
        signalGroup(group, 'SIGKILL');
        groups.delete(group);
      }
      const seconds = (performance.now() - started) / 1000;
      if (!stream) {
        const output = Buffer.concat(held).toString('utf8').trimEnd();
        process.stdout.write(`\n──── ${name}: ${ok ? 'ok' : 'FAILED'} in ${seconds.toFixed(1)} s ────\n${output ? `${output}\n` : ''}──── end of ${name} ────\n\n`);
      }
      resolve({ name, seconds, ok });
    };
    child.on('error', (error) => {
      held.push(Buffer.from(String(error)));
      done(false);
    });
    child.on('close', (code) => done(code === 0));
  });
}

/** The checks one after another (two tsc at once would take both cores from the tests). */
async function checks(): Promise<Phase[]> {
  return [
    await run('typecheck (extension, shared, tests, scripts)', bin('tsc'), ['--noEmit', '-p', '.']),
    await run('typecheck (Workers)', bin('tsc'), ['--noEmit', '-p', 'worker']),
    await run('imports', bin('depcruise'), ['--config', '.dependency-cruiser.cjs', 'shared', 'worker', 'extension', 'scripts', 'test']),
  ];
}

/**
 * The proxy's files in parts, each a vitest of its own with its own sandbox, media server and
 * webhook receiver (the project's globalSetup), so the parts' faults, clocks and counters never
 * meet; inside a part, files still run one after another.
 */
const PROXY_SHARDS = 2;

/** Each vitest writes its own timings (test/support/timing-reporter.ts). */
const timings = (name: string) => ({ TEST_TIMINGS_FILE: join(RESULTS, `test-timings.${name}.json`) });

function vitests(args: string[]): Promise<Phase>[] {
  if (args.length > 0) return [run('vitest', bin('vitest'), ['run', ...args], { stream: true, env: timings('all') })];
  return [
    run('vitest: unit, extension, e2e', bin('vitest'), ['run', '--project', 'unit', '--project', 'extension', '--project', 'e2e'], { stream: true, env: timings('rest') }),
    run('vitest: sandbox', bin('vitest'), ['run', '--project', 'sandbox'], { env: timings('sandbox') }),
    ...Array.from({ length: PROXY_SHARDS }, (_, i) =>
      run(`vitest: proxy, part ${i + 1} of ${PROXY_SHARDS}`, bin('vitest'), ['run', '--project', 'proxy', `--shard=${i + 1}/${PROXY_SHARDS}`], { env: timings(`proxy${i + 1}`) }),
    ),
  ];
}

mkdirSync(RESULTS, { recursive: true });
for (const name of readdirSync(RESULTS)) if (TIMINGS_NAME.test(name) || name === 'phases.json') rmSync(join(RESULTS, name));

const started = performance.now();
const parts = await Promise.all([checks(), ...vitests(process.argv.slice(2))]);
const phases = parts.flat();
const total = (performance.now() - started) / 1000;

writeFileSync(join(RESULTS, 'phases.json'), `${JSON.stringify({ seconds: total, phases }, null, 1)}\n`);
process.stdout.write(
  `\nnpm test: ${total.toFixed(1)} s\n${phases.map((p) => `  ${p.ok ? 'ok    ' : 'FAILED'} ${p.seconds.toFixed(1).padStart(7)} s  ${p.name}`).join('\n')}\n`,
);
process.exitCode = phases.every((p) => p.ok) ? 0 : 1;
