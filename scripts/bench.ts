/**
 * `npm run bench`: what the proxy costs, measured side by side in one run (never in tests).
 *
 * 1. Signing one `/api/v3` request: in Node, and inside workerd against a native HMAC-SHA256 with
 *    a cached key (a bench-only Worker, scripts/bench/, timed from outside, so that no clock inside
 *    the Worker is needed: on Cloudflare it stands still during pure CPU work).
 * 2. Latency by ablation: requests of increasing depth, interleaved in rotating order over one
 *    keep-alive connection per server, so that every step sees the same machine conditions. The
 *    difference between two steps is what the deeper one adds; the differences add up to proxied
 *    minus direct, the latency the proxy adds, checked against the goal. The Workers run in
 *    workerd with nothing in front of them, as deployed (scripts/bench/serve.ts), logs on.
 * 3. Video creates through the proxy in front of the sandbox: a member with a budget against one
 *    without, and by ablation what the ledger's reservation itself adds (a create refused at the
 *    ledger minus one refused before it).
 * 4. The same comparison with the proxy under `wrangler dev`, as `npm start` runs it, to show what
 *    the dev tool adds on its own.
 * 5. Uploads: a 50 MB video POSTed to the proxy's `/proxy/uploads` against the same bytes written
 *    to the same local R2 bucket by a bench-only Worker in the same workerd (scripts/bench/
 *    r2-direct-worker.ts), interleaved, MB/s; and workerd's resident memory (/proc VmRSS every
 *    50 ms): the rise over its baseline during a first upload, the proxy's against the direct
 *    write's, and what more uploads at once add, which for bodies that stream is far less than 50 MB each.
 * Prints figures; it is a measurement, not a test.
 */
import { spawn } from 'node:child_process';
import diagnostics from 'node:diagnostics_channel';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Signer } from '../worker/proxy/infra/signing/signer';
import { startProxy, TEST_PROXY_SECRETS, TEST_VARS, type Server } from '../test/support/sandbox';
import { AdminClient } from './lib/admin-client';
import { stopChild } from './lib/processes';
import { freePort, ROOT } from './lib/wrangler-dev';

const CALLS = Number(process.env.BENCH_CALLS ?? 1000);
/** Signatures per request to the signing Worker, and requests per variant. */
const SIGNS_PER_REQUEST = Number(process.env.BENCH_SIGNS ?? 5000);
const SIGN_ROUNDS = Number(process.env.BENCH_SIGN_ROUNDS ?? 60);
/** Measured video creates per step (each accepted one is a task in the proxy and the sandbox). */
const CREATES = Number(process.env.BENCH_CREATES ?? 400);
/** Measured uploads of each kind (50 MB each). */
const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 5);
/** MB here are 2^20 bytes, as in the proxy's limits: a video may be at most 50 MB (shared/media/media-kinds.ts). */
const MB = 1024 * 1024;
const UPLOAD_BYTES = 50 * MB;
/** Proxy uploads at once, after the others: memory grows by far less than 50 MB for each if the bodies stream. */
const CONCURRENT_UPLOADS = 3;
const GOAL = { addedP50: 3, addedP99: 8, signingRatio: 2, reservationP50: 2, uploadRiseMB: 25, uploadShareMB: 10 };
const VIDEO_MODEL = 'doubao-seedance-2-0-260128';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const stats = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), mean: sorted.reduce((a, b) => a + b, 0) / sorted.length };
};
type Stats = ReturnType<typeof stats>;
const ms = (v: number) => `${v.toFixed(2)} ms`;
const µs = (v: number) => `${(v * 1000).toFixed(1)} µs`;
const signed = (v: number) => `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(2)} ms`;
const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

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
async function serve(config: string, vars: Record<string, string>, alongside: { config: string; routes: string[] }[] = []): Promise<Server & { pid: number }> {
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

/** A plain Node HTTP server on loopback: the floor of one keep-alive round trip from this client. */
async function loopbackFloor(): Promise<Server> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end('{"status":"ok"}');
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A member with one group of its own on `proxyUrl`, and its calls. */
async function benchMember(proxyUrl: string) {
  const member = await new AdminClient(proxyUrl, TEST_PROXY_SECRETS.ADMIN_TOKEN).add('bench');
  const auth = { Authorization: `Bearer ${member.token}` };
  const library = (action: string, body: unknown) =>
    fetch(`${proxyUrl}/api/v3?Action=${action}&Version=2024-01-01`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const group = (await (await library('CreateAssetGroup', { Name: 'bench' })).json()) as { Result: { Id: string } };
  return { auth, library, group: { Id: group.Result.Id } };
}

/**
 * Members for the create steps, with the ledger set up through the admin routes (called with
 * fetch: scripts/lib/admin-client.ts has no budget or price methods). A price for the model makes
 * every create cost something (5 s at 1 CNY/s: 5 CNY); the team has no budget, so the only
 * difference between `budgeted` and `unbudgeted` is the member's own limit, checked and reserved
 * against in the ledger. `capped` may run no task at all: each of its creates is refused by the
 * ledger, after the reservation call and before anything goes upstream.
 */
async function videoMembers(proxyUrl: string) {
  const adminCall = async (method: string, path: string, body: unknown) => {
    const response = await fetch(new URL(path, proxyUrl), {
      method,
      headers: { Authorization: `Bearer ${TEST_PROXY_SECRETS.ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${text.slice(0, 200)}`);
  };
  await adminCall('PUT', '/admin/prices', { currency: 'CNY', models: { [VIDEO_MODEL]: { '*': 1 } } });
  await adminCall('PUT', '/admin/budget', { limit: null });
  const client = new AdminClient(proxyUrl, TEST_PROXY_SECRETS.ADMIN_TOKEN);
  const member = async (name: string, budget?: { limit?: number | null; period?: 'month'; maxRunning?: number | null }) => {
    const added = await client.add(name);
    if (budget) await adminCall('PUT', `/admin/members/${encodeURIComponent(added.id)}/budget`, budget);
    const headers = { Authorization: `Bearer ${added.token}`, 'Content-Type': 'application/json' };
    return (body: unknown) => fetch(`${proxyUrl}/v1/video/generations`, { method: 'POST', headers, body: JSON.stringify(body) });
  };
  // A limit no bench run comes near (5 CNY a create), and no maxRunning: it counts running tasks,
  // and the bench's tasks all keep running (nothing polls them, see TRACK_INTERVAL_SECONDS).
  const budgeted = await member('bench-budget', { limit: 1e8, period: 'month' });
  const unbudgeted = await member('bench-no-budget');
  const capped = await member('bench-max-running-0', { maxRunning: 0 });
  // What each step must answer, checked once outside the measurement (the steps check the status only).
  const valid = { model: VIDEO_MODEL, prompt: 'bench', duration: 5 };
  const invalid = { model: VIDEO_MODEL }; // no prompt: 400 from the member's object, before the ledger
  const expectCode = async (response: Promise<Response>, status: number, code: string | null) => {
    const r = await response;
    const body = (await r.json()) as { id?: string; error?: { code?: string } };
    if (r.status !== status || (code === null ? typeof body.id !== 'string' : body.error?.code !== code)) {
      throw new Error(`create check: expected ${status} ${code ?? 'a task'}, got ${r.status} ${JSON.stringify(body).slice(0, 200)}`);
    }
  };
  await expectCode(budgeted(valid), 200, null);
  await expectCode(unbudgeted(valid), 200, null);
  await expectCode(capped(valid), 429, 'too_many_running_tasks');
  await expectCode(capped(invalid), 400, 'invalid_parameter');
  return { budgeted: () => budgeted(valid), unbudgeted: () => unbudgeted(valid), atLedger: () => capped(valid), beforeLedger: () => capped(invalid) };
}

interface Step {
  name: string;
  run: () => Promise<Response>;
  expect: number;
}

/** Runs `steps` `calls` times each, interleaved in rotating order so that no step always follows the same one. */
async function measure<K extends string>(steps: Record<K, Step>, calls: number) {
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

async function latency() {
  const servers: Server[] = [];
  const started = <T extends Server>(server: T) => (servers.push(server), server);
  try {
    const floor = started(await loopbackFloor());
    const sandbox = started(await serve('worker/sandbox/wrangler.jsonc', { ...TEST_VARS }));
    // Tracking at most once an hour: each accepted create is a task the member's alarm would
    // otherwise poll every 15 s, and hundreds of bench tasks polling would run during the
    // measurement. The create path itself is the same (the task is recorded, the alarm set).
    const proxy = started(
      await serve('worker/proxy/wrangler.jsonc', { ASSET_API_BASE: sandbox.url, VIDEO_API_BASE: sandbox.url, ALLOW_HTTP_MEDIA: 'on', TRACK_INTERVAL_SECONDS: '3600', ...TEST_PROXY_SECRETS }),
    );
    const member = await benchMember(proxy.url);
    const signer = new Signer({ accessKeyId: TEST_PROXY_SECRETS.ACCESS_KEY_ID, secretAccessKey: TEST_PROXY_SECRETS.SECRET_ACCESS_KEY });
    const direct = async () => {
      const url = new URL('/api/v3?Action=GetAssetGroup&Version=2024-01-01', sandbox.url);
      const request = await signer.sign(url, JSON.stringify(member.group));
      return fetch(url, { method: 'POST', headers: request.headers, body: request.body });
    };
    const steps = {
      floor: { name: 'loopback floor (a Node HTTP server)', run: () => fetch(floor.url), expect: 200 },
      trivial: { name: 'sandbox GET / (a trivial Worker)', run: () => fetch(sandbox.url), expect: 200 },
      direct: { name: 'direct GetAssetGroup (sandbox)', run: direct, expect: 200 },
      healthz: { name: 'proxy GET /healthz', run: () => fetch(`${proxy.url}/healthz`), expect: 200 },
      me: { name: 'proxy GET /proxy/me', run: () => fetch(`${proxy.url}/proxy/me`, { headers: member.auth }), expect: 200 },
      denied: { name: 'proxy GetAssetGroup, not owned (403)', run: () => member.library('GetAssetGroup', { Id: 'group-not-mine' }), expect: 403 },
      proxied: { name: 'proxy GetAssetGroup', run: () => member.library('GetAssetGroup', member.group), expect: 200 },
    } satisfies Record<string, Step>;
    const main = await measure(steps, CALLS);

    // Video creates, before wrangler dev starts (see below). Each accepted create is one more
    // task in the proxy and the sandbox; BENCH_CREATES keeps them bounded.
    const video = await videoMembers(proxy.url);
    const createSteps = {
      budgeted: { name: 'create, member with a budget', run: video.budgeted, expect: 200 },
      unbudgeted: { name: 'create, member without a budget', run: video.unbudgeted, expect: 200 },
      atLedger: { name: 'create refused at the ledger (429 maxRunning 0)', run: video.atLedger, expect: 429 },
      beforeLedger: { name: 'create refused before the ledger (400, no prompt)', run: video.beforeLedger, expect: 400 },
    } satisfies Record<string, Step>;
    const created = await measure(createSteps, CREATES);

    // The proxy as `npm start` runs it, apart: wrangler dev's relay keeps working after each
    // answer and would disturb the steps above.
    const dev = started(await startProxy(sandbox.url));
    const devMember = await benchMember(dev.url);
    const devSteps = {
      direct: { name: 'direct GetAssetGroup (sandbox)', run: direct, expect: 200 },
      proxied: { name: 'proxy GetAssetGroup under wrangler dev', run: () => devMember.library('GetAssetGroup', devMember.group), expect: 200 },
    } satisfies Record<string, Step>;
    const underDev = await measure(devSteps, CALLS);
    return { steps, main, createSteps, created, devSteps, underDev };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

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
console.log(`Goal: Signer within ${GOAL.signingRatio}x of a native HMAC: ${verdict(ratio <= GOAL.signingRatio)}`);
console.log('\nThe hashing one signature needs (two SHA-256, one HMAC with a cached key), inside workerd, side by side:');
const { hashing } = workerd;
console.table({
  "the proxy's SHA-256 (signing/sha256.ts)": { 'per signature': µs(hashing.ours), 'vs the proxy': '1.00x' },
  '@noble/hashes (HMAC pads cached by clone)': { 'per signature': µs(hashing.noble), 'vs the proxy': `${(hashing.noble / hashing.ours).toFixed(2)}x` },
  'WebCrypto (cached CryptoKey)': { 'per signature': µs(hashing.webcrypto), 'vs the proxy': `${(hashing.webcrypto / hashing.ours).toFixed(2)}x` },
});

console.log(`\nLatency per request, ${CALLS} calls each, interleaved, keep-alive, Workers in workerd (no dev server in front):`);
const { steps, main, createSteps, created, devSteps, underDev } = await latency();
const r = main.results;
const table = <K extends string>(named: Record<K, Step>, results: Record<K, Stats>) =>
  Object.fromEntries((Object.keys(results) as K[]).map((k) => [named[k].name, { p50: ms(results[k].p50), p99: ms(results[k].p99), mean: ms(results[k].mean) }]));
console.table(table(steps, r));
console.log(`New connections while measuring: ${main.opened} (0: every call reused its keep-alive connection).`);

// Each row is the difference of two steps; together they add up to proxied − direct.
type StepKey = keyof typeof r;
const diff = (f: (s: Record<StepKey, number>) => number, from: string) => {
  const at = (p: 'p50' | 'p99') => f(Object.fromEntries(Object.entries(r).map(([k, s]) => [k, (s as Stats)[p]])) as Record<StepKey, number>);
  return { p50: signed(at('p50')), p99: signed(at('p99')), from };
};
console.log('\nWhere the added latency goes (differences of the steps above; p99 differences are indicative):');
console.table({
  'one more Worker on the way (HTTP into workerd and out)': diff((s) => s.trivial - s.floor, 'sandbox GET / − floor'),
  'Hono routing, CORS, the log line': diff((s) => s.healthz - s.trivial, '/healthz − sandbox GET /'),
  'token hash, member Durable Object call': diff((s) => s.me - s.healthz, '/proxy/me − /healthz'),
  'POST body, validation, ownership SQL': diff((s) => s.denied - s.me, 'not owned − /proxy/me'),
  'signing, upstream fetch from workerd, relay': diff((s) => s.proxied - s.denied - (s.direct - s.floor), '(proxied − not owned) − (direct − floor)'),
  'added by the proxy': diff((s) => s.proxied - s.direct, 'proxied − direct'),
});
const added = { p50: r.proxied.p50 - r.direct.p50, p99: r.proxied.p99 - r.direct.p99 };
console.log(`Added by the proxy (proxied − direct): p50 ${signed(added.p50)}, p99 ${signed(added.p99)}.`);
console.log(`Goal: p50 <= ${GOAL.addedP50} ms ${verdict(added.p50 <= GOAL.addedP50)}, p99 <= ${GOAL.addedP99} ms ${verdict(added.p99 <= GOAL.addedP99)}.`);

console.log(`\nVideo creates through the proxy (sandbox upstream, 5 s at 1 CNY/s), ${CREATES} calls each, interleaved, keep-alive, tracking idle:`);
const c = created.results;
console.table(table(createSteps, c));
console.log(`New connections while measuring: ${created.opened}.`);
const delta = (a: Stats, b: Stats) => ({ p50: a.p50 - b.p50, p99: a.p99 - b.p99 });
const budgetCost = delta(c.budgeted, c.unbudgeted);
const reservation = delta(c.atLedger, c.beforeLedger);
console.table({
  "the member's budget (checked and reserved against)": { p50: signed(budgetCost.p50), p99: signed(budgetCost.p99), from: 'with a budget − without' },
  'the reservation: ledger round trip (+ refusal audit row)': { p50: signed(reservation.p50), p99: signed(reservation.p99), from: 'refused at the ledger − refused before it' },
});
console.log(`Goal: the reservation adds <= ${GOAL.reservationP50} ms at p50: ${verdict(reservation.p50 <= GOAL.reservationP50)}.`);

console.log(`\nFor comparison, the proxy as npm start runs it (wrangler dev: its proxy Worker in front, a debugger attached), ${CALLS} calls each, interleaved:`);
console.table(table(devSteps, underDev.results));
const devAdded = { p50: underDev.results.proxied.p50 - underDev.results.direct.p50, p99: underDev.results.proxied.p99 - underDev.results.direct.p99 };
console.log(`Added under wrangler dev: p50 ${signed(devAdded.p50)}, p99 ${signed(devAdded.p99)} (the difference to the above is the dev tool's).`);

/** The workerd process under a serve process (Miniflare's child): found by walking /proc. */
function workerdUnder(parent: number): number {
  const children = new Map<number, { pid: number; comm: string }[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const ppid = Number(stat.slice(close + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), { pid: Number(entry), comm: stat.slice(stat.indexOf('(') + 1, close) }]);
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  for (let queue = [parent]; queue.length; ) {
    const next: number[] = [];
    for (const pid of queue) for (const child of children.get(pid) ?? []) (child.comm === 'workerd' ? found : next).push(child.pid);
    queue = next;
  }
  if (found.length !== 1) throw new Error(`expected one workerd under process ${parent}, found ${found.length}`);
  return found[0]!;
}

/** Resident set size in bytes (VmRSS), sampled every 50 ms while `sampling`. */
function rssSampler(pid: number) {
  const read = () => {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (!match) throw new Error(`workerd (pid ${pid}) exited during the uploads`);
    return Number(match[1]) * 1024;
  };
  const samples: { t: number; rss: number }[] = [];
  let failure: unknown;
  const take = () => {
    try {
      samples.push({ t: performance.now(), rss: read() });
    } catch (error) {
      failure ??= error;
    }
  };
  const timer = setInterval(take, 50);
  take();
  return {
    read,
    /** The largest sample in [from, to], with one taken now (call it at `to`). */
    peak: (from: number, to = performance.now()) => (take(), Math.max(...samples.filter((s) => s.t >= from && s.t <= to + 1).map((s) => s.rss))),
    /** The median over the last `ms` (at rest: the baseline). */
    settled: async (ms: number) => {
      const from = performance.now();
      await new Promise((resolve) => setTimeout(resolve, ms));
      return stats(samples.filter((s) => s.t >= from).map((s) => s.rss)).p50;
    },
    stop: () => {
      clearInterval(timer);
      if (failure) throw failure;
      const gaps = samples.slice(1).map((s, i) => s.t - samples[i]!.t);
      return { count: samples.length, maxGap: Math.max(...gaps) };
    },
  };
}

type Bytes = Uint8Array<ArrayBuffer>;
/** A video: the fixture's real MP4 bytes (an ftyp box first), repeated to 50 MB. */
const sampleMp4: Bytes = new Uint8Array(readFileSync(join(ROOT, 'test/fixtures/media/sample.mp4')));
const video: Bytes = new Uint8Array(UPLOAD_BYTES);
for (let at = 0; at < video.length; at += sampleMp4.length) video.set(sampleMp4.subarray(0, Math.min(sampleMp4.length, video.length - at)), at);
const videoSha256 = createHash('sha256').update(video).digest('hex');
const UPLOAD_KINDS = {
  proxy: 'proxy POST /proxy/uploads',
  direct: 'direct R2 put(request.body)',
  fixed: 'direct, through a FixedLengthStream',
  transform: 'direct, through a JS TransformStream + FixedLengthStream',
} as const;
type UploadKind = keyof typeof UPLOAD_KINDS;

/**
 * The proxy in workerd with a bench-only Worker beside it (scripts/bench/r2-direct-worker.ts,
 * routed at /__bench/r2/*) bound to the same bucket: one workerd, one local R2 store (on disk in
 * the throw-away directory). `upload` sends a body, checks the answer (201, the size, for the
 * proxy the SHA-256), deletes the object again and returns the seconds until the answer.
 */
async function uploadServer() {
  // MEDIA_URL_SECRET set here too: without it the proxy's media store answers 503.
  const server = await serve('worker/proxy/wrangler.jsonc', { ...TEST_PROXY_SECRETS, MEDIA_URL_SECRET: 'bench-media-url-secret-0123456789abcdef' }, [
    { config: 'scripts/bench/r2-direct.jsonc', routes: ['*/__bench/r2/*'] },
  ]);
  try {
    const pid = workerdUnder(server.pid);
    const member = await new AdminClient(server.url, TEST_PROXY_SECRETS.ADMIN_TOKEN).add('bench-uploads');
    const auth = { Authorization: `Bearer ${member.token}` };
    const headers = { 'Content-Type': 'video/mp4' };
    const via: Record<Exclude<UploadKind, 'proxy'>, string> = { direct: 'body', fixed: 'fixed', transform: 'transform' };
    let serial = 0;
    const upload = async (kind: UploadKind, body: Bytes) => {
      const key = `${via[kind as Exclude<UploadKind, 'proxy'>]}-${serial++}.mp4`;
      const t = performance.now();
      const response =
        kind === 'proxy'
          ? await fetch(`${server.url}/proxy/uploads?name=bench.mp4`, { method: 'POST', headers: { ...auth, ...headers }, body })
          : await fetch(`${server.url}/__bench/r2/${key}?via=${via[kind]}`, { method: 'PUT', headers, body });
      const text = await response.text();
      const seconds = (performance.now() - t) / 1000;
      const answer = (response.status === 201 ? JSON.parse(text) : {}) as { id?: string; size?: number; sha256?: string };
      if (response.status !== 201 || answer.size !== body.length) throw new Error(`${UPLOAD_KINDS[kind]}: HTTP ${response.status} ${text.slice(0, 300)}`);
      if (kind === 'proxy' && body === video && answer.sha256 !== videoSha256) throw new Error(`proxy upload: sha256 ${answer.sha256}, expected ${videoSha256}`);
      const removed =
        kind === 'proxy'
          ? await fetch(`${server.url}/proxy/uploads/${encodeURIComponent(answer.id!)}`, { method: 'DELETE', headers: auth })
          : await fetch(`${server.url}/__bench/r2/${key}`, { method: 'DELETE' });
      if (removed.status !== 204) throw new Error(`${UPLOAD_KINDS[kind]}: delete answered ${removed.status}`);
      return seconds;
    };
    // Every path once with the small fixture itself, so that each isolate and the R2 store are
    // loaded before any baseline: a rise is then what 50 MB bodies cost, not start-up.
    for (const kind of Object.keys(UPLOAD_KINDS) as UploadKind[]) await upload(kind, sampleMp4);
    return { ...server, pid, upload };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** Resident memory of a fresh workerd at rest (the baseline), then its peak during its first 50 MB upload, of `kind`. */
async function firstUpload(server: Awaited<ReturnType<typeof uploadServer>>, rss: ReturnType<typeof rssSampler>, kind: UploadKind) {
  const baseline = await rss.settled(1000);
  const from = performance.now();
  const seconds = await server.upload(kind, video);
  return { baseline, peak: rss.peak(from), seconds };
}

/**
 * Uploads: throughput, interleaved, in one workerd; memory, which in one process depends on what
 * ran before (memory freed stays resident and is used again), so each first 50 MB upload is
 * measured in a fresh workerd: the direct write's in a workerd of its own, stopped before the
 * proxy's starts. Then several proxy uploads at once: a proxy holding bodies would need 50 MB
 * more for each.
 */
async function uploads() {
  const started = performance.now();
  const fresh = await uploadServer();
  let direct;
  try {
    const rss = rssSampler(fresh.pid);
    direct = await firstUpload(fresh, rss, 'direct');
    rss.stop();
  } finally {
    await fresh.stop();
  }

  const server = await uploadServer();
  try {
    const rss = rssSampler(server.pid);
    const proxy = await firstUpload(server, rss, 'proxy');
    const kinds = Object.keys(UPLOAD_KINDS) as UploadKind[];
    for (const kind of kinds) if (kind !== 'proxy') await server.upload(kind, video); // warm-up
    const seconds = Object.fromEntries(kinds.map((k) => [k, [] as number[]])) as Record<UploadKind, number[]>;
    const before = rss.read();
    const from = performance.now();
    for (let i = 0; i < UPLOADS; i++) {
      for (let j = 0; j < kinds.length; j++) {
        const kind = kinds[(i + j) % kinds.length]!;
        seconds[kind].push(await server.upload(kind, video));
      }
    }
    const steady = { before, peak: rss.peak(from) };
    const atOnce = { before: await rss.settled(300), peak: 0, seconds: 0 };
    const t = performance.now();
    await Promise.all(Array.from({ length: CONCURRENT_UPLOADS }, () => server.upload('proxy', video)));
    atOnce.seconds = (performance.now() - t) / 1000;
    atOnce.peak = rss.peak(t);
    const after = await rss.settled(300);
    const sampling = rss.stop();
    return {
      mbps: Object.fromEntries(kinds.map((k) => [k, seconds[k].map((s) => UPLOAD_BYTES / MB / s)])) as Record<UploadKind, number[]>,
      direct,
      proxy,
      steady,
      atOnce,
      after,
      sampling,
      elapsed: (performance.now() - started) / 1000,
    };
  } finally {
    await server.stop();
  }
}

console.log(`\nUploads of a 50 MB video (MB = 2^20 bytes; the fixture's MP4 repeated), ${UPLOADS} each, interleaved, in one workerd (the proxy and a bench Worker writing to the same local R2 bucket):`);
const up = await uploads();
const median = (values: number[]) => stats(values).p50;
const mbps = (v: number) => `${v.toFixed(1)} MB/s`;
const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
console.table(
  Object.fromEntries(
    (Object.keys(UPLOAD_KINDS) as UploadKind[]).map((k) => [
      UPLOAD_KINDS[k],
      { median: mbps(median(up.mbps[k])), min: mbps(Math.min(...up.mbps[k])), max: mbps(Math.max(...up.mbps[k])), 'vs direct': `${(median(up.mbps[k]) / median(up.mbps.direct)).toFixed(2)}x` },
    ]),
  ),
);
const uploadRatio = median(up.mbps.direct) / median(up.mbps.proxy);
console.log(`Proxy ${mbps(median(up.mbps.proxy))} against ${mbps(median(up.mbps.direct))} writing to R2 directly: the direct write is ${uploadRatio.toFixed(2)}x as fast (medians).`);
console.log(
  `\nResident memory (VmRSS) of workerd, every 50 ms (${up.sampling.count} samples in the proxy's workerd, at most ${up.sampling.maxGap.toFixed(0)} ms apart). ` +
    `One workerd runs the Worker, the bench Worker and Miniflare's local R2 (itself JS in the same process):`,
);
const rise = (m: { baseline: number; peak: number }) => m.peak - m.baseline;
console.table({
  'first 50 MB upload through the proxy (fresh workerd)': { before: mb(up.proxy.baseline), peak: mb(up.proxy.peak), rise: mb(rise(up.proxy)) },
  'first 50 MB direct R2 put (another fresh workerd)': { before: mb(up.direct.baseline), peak: mb(up.direct.peak), rise: mb(rise(up.direct)) },
  [`then ${UPLOADS} rounds of all four, interleaved`]: { before: mb(up.steady.before), peak: mb(up.steady.peak), rise: mb(up.steady.peak - up.steady.before) },
  [`then ${CONCURRENT_UPLOADS} proxy uploads at once (${CONCURRENT_UPLOADS * 50} MB in flight, ${up.atOnce.seconds.toFixed(1)} s)`]: {
    before: mb(up.atOnce.before),
    peak: mb(up.atOnce.peak),
    rise: mb(up.atOnce.peak - up.atOnce.before),
  },
});
console.log(`At rest afterwards: ${mb(up.after)}. Section: ${up.elapsed.toFixed(0)} s.`);
const firstRise = rise(up.proxy) / MB;
const perExtra = (up.atOnce.peak - up.atOnce.before) / MB / (CONCURRENT_UPLOADS - 1);
// Locally, Miniflare's R2 runs inside the same workerd and costs its own memory (the direct write
// shows how much); on Cloudflare, R2 is outside the Worker. So the proxy is judged by its share.
const share = firstRise - rise(up.direct) / MB;
console.log(
  `Goal: the proxy's share of the first 50 MB upload (its rise − the direct R2 write's) < ${GOAL.uploadShareMB} MB: ${share.toFixed(1)} MB ${verdict(share < GOAL.uploadShareMB)} ` +
    `(raw rise ${firstRise.toFixed(1)} MB, of which the local R2 ${(rise(up.direct) / MB).toFixed(1)} MB; raw < ${GOAL.uploadRiseMB} MB: ${verdict(firstRise < GOAL.uploadRiseMB)}).`,
);
console.log(
  `Streaming: each upload in flight beyond the first adds ${perExtra.toFixed(1)} MB (a proxy holding its bodies would add ≥ 50): < ${GOAL.uploadRiseMB} MB ${verdict(perExtra < GOAL.uploadRiseMB)}.`,
);
