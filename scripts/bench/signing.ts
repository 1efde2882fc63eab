/** Bench section 1: signing one `/api/v3` request, in Node and inside workerd against a native HMAC. */
import { performance } from 'node:perf_hooks';
import { Signer } from '../../worker/proxy/infra/signing/signer';
import { TEST_PROXY_SECRETS } from '../../test/support/sandbox';
import { serve, stats, verdict, µs } from './measure';

/** Signatures per request to the signing Worker, and requests per variant. */
const SIGNS_PER_REQUEST = Number(process.env.BENCH_SIGNS ?? 5000);
const SIGN_ROUNDS = Number(process.env.BENCH_SIGN_ROUNDS ?? 60);

async function signingInNode() {
  const credentials = { accessKeyId: TEST_PROXY_SECRETS.ACCESS_KEY_ID, secretAccessKey: TEST_PROXY_SECRETS.SECRET_ACCESS_KEY };
  const url = 'http://127.0.0.1:8788/api/v3?Action=ListAssets&Version=2024-01-01'; // a string, as the proxy passes it
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
  return { warm: stats(warm), cold: stats(cold) };
}

/** Per-call cost inside workerd: (request with N calls − request with none) / N, medians over interleaved rounds. */
async function signingInWorkerd() {
  const worker = await serve('scripts/bench/wrangler.jsonc', {});
  try {
    const impls = ['none', 'signer', 'native', 'hash-ours', 'hash-noble', 'hash-webcrypto'] as const;
    type Impl = (typeof impls)[number];
    const samples = Object.fromEntries(impls.map((impl) => [impl, [] as number[]])) as Record<Impl, number[]>;
    const run = async (impl: Impl, into?: number[]) => {
      const t = performance.now();
      const response = await fetch(`${worker.url}/?impl=${impl}&n=${impl === 'none' ? 0 : SIGNS_PER_REQUEST}`);
      const text = await response.text();
      into?.push(performance.now() - t);
      if (text !== (impl === 'none' ? 'none' : 'ok')) throw new Error(`signing Worker answered ${response.status} ${text.slice(0, 200)}`);
    };
    const digests = await Promise.all(['hash-ours', 'hash-noble', 'hash-webcrypto'].map(async (impl) => (await fetch(`${worker.url}/?impl=${impl}&n=1&digest`)).text()));
    if (new Set(digests).size !== 1 || digests[0]!.length !== 192) throw new Error(`the three hashings disagree: ${digests.join(' ')}`);
    for (let i = 0; i < 5; i++) for (const impl of impls) await run(impl); // warm-up (JIT)
    for (let i = 0; i < SIGN_ROUNDS; i++) for (let j = 0; j < impls.length; j++) {
      const impl = impls[(i + j) % impls.length]!;
      await run(impl, samples[impl]);
    }
    const base = stats(samples.none).p50;
    const perCall = (impl: Exclude<Impl, 'none'>) => (stats(samples[impl]).p50 - base) / SIGNS_PER_REQUEST;
    return {
      signer: perCall('signer'),
      native: perCall('native'),
      hashing: { ours: perCall('hash-ours'), noble: perCall('hash-noble'), webcrypto: perCall('hash-webcrypto') },
    };
  } finally {
    await worker.stop();
  }
}

/** Runs the section and prints its tables; `goal`: the Signer within this many times a native HMAC. */
export async function signingSection(goal: number) {
  console.log('Signing one /api/v3 request in Node (the same Signer):');
  const node = await signingInNode();
  console.table({
    'daily key cached (hot path)': { p50: µs(node.warm.p50), p99: µs(node.warm.p99), mean: µs(node.warm.mean) },
    'key derived per call': { p50: µs(node.cold.p50), p99: µs(node.cold.p99), mean: µs(node.cold.mean) },
  });

  console.log(`\nSigning inside workerd (${SIGNS_PER_REQUEST} per request, ${SIGN_ROUNDS} requests each, timed from outside):`);
  const workerd = await signingInWorkerd();
  const ratio = workerd.signer / workerd.native;
  console.table({
    'Signer.sign (the proxy, cached keys)': { 'per call': µs(workerd.signer), 'vs native': `${ratio.toFixed(2)}x` },
    'native HMAC-SHA256, cached CryptoKey': { 'per call': µs(workerd.native), 'vs native': '1.00x' },
  });
  console.log(`Goal: Signer within ${goal}x of a native HMAC: ${verdict(ratio <= goal)}`);
  console.log('\nThe hashing one signature needs (two SHA-256, one HMAC with a cached key), inside workerd, side by side:');
  const { hashing } = workerd;
  console.table({
    "the proxy's SHA-256 (shared/signing/sha256.ts)": { 'per signature': µs(hashing.ours), 'vs the proxy': '1.00x' },
    '@noble/hashes (HMAC pads cached by clone)': { 'per signature': µs(hashing.noble), 'vs the proxy': `${(hashing.noble / hashing.ours).toFixed(2)}x` },
    'WebCrypto (cached CryptoKey)': { 'per signature': µs(hashing.webcrypto), 'vs the proxy': `${(hashing.webcrypto / hashing.ours).toFixed(2)}x` },
  });

}
