/** What every bench section shares: statistics, formatting, servers in workerd, interleaved measurement. */
import { spawn } from 'node:child_process';
import diagnostics from 'node:diagnostics_channel';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Server } from '../../test/support/sandbox';
import { stopChild } from '../lib/processes';
import { freePort, ROOT } from '../lib/wrangler-dev';

export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
export const stats = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), mean: sorted.reduce((a, b) => a + b, 0) / sorted.length };
};
export type Stats = ReturnType<typeof stats>;
export const ms = (v: number) => `${v.toFixed(2)} ms`;
export const µs = (v: number) => `${(v * 1000).toFixed(1)} µs`;
export const signed = (v: number) => `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(2)} ms`;
export const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

/** New TCP connections per server opened by Node's fetch while measuring: 0 shows keep-alive in use. */
const connections = new Map<string, number>();
diagnostics.subscribe('undici:client:connected', (message) => {
  const { connectParams } = message as { connectParams: { hostname: string; port: string } };
  const key = `${connectParams.hostname}:${connectParams.port}`;
  connections.set(key, (connections.get(key) ?? 0) + 1);
});

/**
 * A Worker in workerd with nothing in front of it (scripts/bench/serve.ts), throw-away state;
 * `alongside`, bench-only Workers in the same workerd. `pid`: the serve process (workerd is its child).
 */
export async function serve(config: string, vars: Record<string, string>, alongside: { config: string; routes: string[] }[] = []): Promise<Server & { pid: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'arkbridge-bench-'));
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/bench/serve.ts')], {
    cwd: ROOT,
    detached: true,
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const stop = async () => {
    await stopChild(child);
    await rm(dir, { recursive: true, force: true });
  };
  const tail: string[] = [];
  const url = new Promise<string>((resolve, reject) => {
    for (const stream of [child.stdout!, child.stderr!]) {
      stream.setEncoding('utf8').on('data', (chunk: string) => {
        for (const line of chunk.split('\n')) {
          const ready = /^ready (http:\S+)/.exec(line);
          if (ready) resolve(ready[1]!);
          else if (line.trim() && tail.push(line) > 30) tail.shift();
        }
      });
    }
    child.once('exit', (code) => reject(new Error(`${config} exited (code ${code}):\n${tail.join('\n')}`)));
  });
  child.stdin!.end(JSON.stringify({ config, port: await freePort(), dir, vars, alongside }));
  try {
    return { url: await url, stop, pid: child.pid! };
  } catch (error) {
    await stop();
    throw error;
  }
}

export interface Step {
  name: string;
  run: () => Promise<Response>;
  expect: number;
}

/** Runs `steps` `calls` times each, interleaved in rotating order so that no step always follows the same one. */
export async function measure<K extends string>(steps: Record<K, Step>, calls: number) {
  const order = Object.keys(steps) as K[];
  const samples = Object.fromEntries(order.map((k) => [k, [] as number[]])) as Record<K, number[]>;
  const timed = async (key: K, into?: number[]) => {
    const step: Step = steps[key];
    const t = performance.now();
    const response = await step.run();
    await response.arrayBuffer();
    into?.push(performance.now() - t);
    if (response.status !== step.expect) throw new Error(`${step.name}: HTTP ${response.status}, expected ${step.expect}`);
  };
  for (let i = 0; i < 50; i++) for (const key of order) await timed(key); // warm-up
  connections.clear();
  for (let i = 0; i < calls; i++) {
    for (let j = 0; j < order.length; j++) {
      const key = order[(i + j) % order.length]!;
      await timed(key, samples[key]);
    }
  }
  const opened = [...connections.values()].reduce((a, b) => a + b, 0);
  return { results: Object.fromEntries(order.map((k) => [k, stats(samples[k])])) as Record<K, Stats>, opened };
}
