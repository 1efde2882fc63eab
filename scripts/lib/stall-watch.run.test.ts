import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from './wrangler-dev';

/** A vitest run of the blocked-worker fixture with the timing reporter: its exit code, output and timings file. */
async function blockedRun(env: Record<string, string>): Promise<{ code: number | null; output: string; timings: { failedTests: { file: string; name: string; error: string }[] } }> {
  const dir = await mkdtemp(join(tmpdir(), 'arkbridge-stall-'));
  try {
    const timingsFile = join(dir, 'timings.json');
    const child = spawn(process.execPath, [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', 'scripts/lib/testing/stall.vitest.config.ts'], {
      cwd: ROOT,
      env: { ...process.env, TEST_TIMINGS_FILE: timingsFile, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Without the watch the run would outlive this test: it is stopped here, and the test fails on its code.
      signal: AbortSignal.timeout(40_000),
      killSignal: 'SIGKILL',
    });
    child.on('error', () => {});
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    return { code, output, timings: JSON.parse(await readFile(timingsFile, 'utf8')) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

it('a run whose worker is blocked (no timeout of vitest\'s can fire) is ended, failed, naming the file and what it did last', async () => {
  // The worker stays blocked far longer than the 2 s allowed: the run ends only if the watch ends it.
  // What the file did last is "started" or its test's start: the worker sends its events in batches.
  const { code, output, timings } = await blockedRun({ TEST_STALL_SECONDS: '2', BLOCK_MS: '120000' });
  expect(code, output).toBe(1);
  expect(output).toMatch(/vitest made no progress for more than 2 s .*the run is ended\.\n {2}in flight: scripts\/lib\/testing\/blocked-worker\.fixture\.ts, silent \d+ s after: (started|test started: blocks its worker)/);
  expect(timings.failedTests).toEqual([
    expect.objectContaining({ file: 'scripts/lib/testing/blocked-worker.fixture.ts', name: '(stalled)', error: expect.stringMatching(/^silent \d+ s after: (started|test started: blocks its worker)$/) }),
  ]);
}, 60_000);
