/**
 * `npm run bench`: what the proxy costs. Per-call signing time, and proxied vs direct latency
 * (p50, p99 over 1,000 calls each, interleaved) against a sandbox started for the run.
 * Prints figures; it is a measurement, not a test.
 */
import { performance } from 'node:perf_hooks';
import { Signer } from '../worker/proxy/signing/signer';
import { startProxy, startSandbox, TEST_PROXY_SECRETS } from '../test/support/sandbox';
import { AdminClient } from './lib/admin-client';

const CALLS = Number(process.env.BENCH_CALLS ?? 1000);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const summary = (samples: number[], unit: 'ms' | 'µs') => {
  const sorted = [...samples].sort((a, b) => a - b);
  const scale = unit === 'µs' ? 1000 : 1;
  const f = (v: number) => `${(v * scale).toFixed(unit === 'µs' ? 1 : 2)} ${unit}`;
  return { p50: f(percentile(sorted, 50)), p99: f(percentile(sorted, 99)), mean: f(sorted.reduce((a, b) => a + b, 0) / sorted.length) };
};

async function signingCost() {
  const credentials = { accessKeyId: TEST_PROXY_SECRETS.ACCESS_KEY_ID, secretAccessKey: TEST_PROXY_SECRETS.SECRET_ACCESS_KEY };
  const url = new URL('http://127.0.0.1:8788/api/v3?Action=ListAssets&Version=2024-01-01');
  const body = JSON.stringify({ Filter: { Statuses: ['Processing'], GroupIds: ['group-1', 'group-2'] }, PageSize: 100 });
  const cached = new Signer(credentials);
  const warm: number[] = [];
  const cold: number[] = [];
  for (let i = 0; i < 200; i++) await cached.sign(url, body); // warm-up
  for (let i = 0; i < 5000; i++) {
    let t = performance.now();
    await cached.sign(url, body);
    warm.push(performance.now() - t);
    if (i % 10 === 0) {
      t = performance.now();
      await new Signer(credentials).sign(url, body); // key derived again, as without the daily cache
      cold.push(performance.now() - t);
    }
  }
  return { warm: summary(warm, 'µs'), cold: summary(cold, 'µs') };
}

async function latency() {
  const sandbox = await startSandbox({}, { label: 'bench-sandbox' });
  const proxy = await startProxy(sandbox.url);
  try {
    const member = await new AdminClient(proxy.url, TEST_PROXY_SECRETS.ADMIN_TOKEN).add('bench');
    const proxied = (action: string, body: unknown) =>
      fetch(`${proxy.url}/api/v3?Action=${action}&Version=2024-01-01`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${member.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const signer = new Signer({ accessKeyId: TEST_PROXY_SECRETS.ACCESS_KEY_ID, secretAccessKey: TEST_PROXY_SECRETS.SECRET_ACCESS_KEY });
    const direct = async (action: string, body: unknown) => {
      const url = new URL(`/api/v3?Action=${action}&Version=2024-01-01`, sandbox.url);
      const signed = await signer.sign(url, JSON.stringify(body));
      return fetch(url, { method: 'POST', headers: signed.headers, body: signed.body });
    };
    const group = (await (await proxied('CreateAssetGroup', { Name: 'bench' })).json()) as { Result: { Id: string } };
    const request = { Id: group.Result.Id };
    const samples = { direct: [] as number[], proxied: [] as number[] };
    const timed = async (run: () => Promise<Response>, into: number[]) => {
      const t = performance.now();
      const response = await run();
      await response.arrayBuffer();
      into.push(performance.now() - t);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
    };
    for (let i = 0; i < 50; i++) await Promise.all([direct('GetAssetGroup', request), proxied('GetAssetGroup', request)]); // warm-up
    for (let i = 0; i < CALLS; i++) {
      // Interleaved, alternating order, so both see the same machine conditions.
      const pair = [() => timed(() => direct('GetAssetGroup', request), samples.direct), () => timed(() => proxied('GetAssetGroup', request), samples.proxied)];
      if (i % 2) pair.reverse();
      for (const run of pair) await run();
    }
    return { direct: summary(samples.direct, 'ms'), proxied: summary(samples.proxied, 'ms') };
  } finally {
    await Promise.all([proxy.stop(), sandbox.stop()]);
  }
}

console.log('Signing one /api/v3 request (Node WebCrypto):');
const signing = await signingCost();
console.table({ 'daily key cached (hot path)': signing.warm, 'key derived per call': signing.cold });
console.log(`\nGetAssetGroup latency over ${CALLS} calls each, local sandbox under wrangler dev:`);
console.table(await latency());
