/**
 * `npm run load`: N members x M concurrent calls against a local stack that it starts itself
 * (the sandbox and the proxy under wrangler dev, on free loopback ports, with throw-away state),
 * for a bounded time and a bounded number of requests, with a realistic mix of routes. Prints
 * p50/p99/max latency and counts per route, and the errors by status; exits 1 if any call failed.
 * Loopback only. The servers are stopped at the end and on Ctrl-C, SIGTERM or SIGHUP.
 *
 * Settings (environment): LOAD_MEMBERS (default 5), LOAD_CONCURRENCY (calls in flight per member,
 * default 8), LOAD_SECONDS (default 10), LOAD_MAX_REQUESTS (hard cap, default 20000).
 */
import { performance } from 'node:perf_hooks';
import { MODEL_IDS } from '../shared/catalog/testing/model-ids';
import { startProxy, startSandbox, TEST_PROXY_SECRETS, type Server } from '../test/support/sandbox';
import { AdminClient } from './lib/admin-client';
import { onShutdown } from './lib/processes';

function setting(name: string, fallback: number, max: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max) {
    console.error(`${name} must be a whole number from 1 to ${max}, got "${raw}".`);
    process.exit(2);
  }
  return value;
}
const MEMBERS = setting('LOAD_MEMBERS', 5, 100);
const CONCURRENCY = setting('LOAD_CONCURRENCY', 8, 64);
const SECONDS = setting('LOAD_SECONDS', 10, 300);
const MAX_REQUESTS = setting('LOAD_MAX_REQUESTS', 20_000, 500_000);
const MODEL = MODEL_IDS.s2;

const servers: Server[] = [];
let started: number | undefined; // when the load began; an interrupted run still reports what it did
let reported = false;
const shutdown = onShutdown(async () => {
  if (started !== undefined && !reported) report((performance.now() - started) / 1000);
  await Promise.all(servers.map((s) => s.stop()));
});

interface Member {
  name: string;
  token: string;
  groups: string[];
  tasks: string[];
}

/** One route's samples (ms) and outcomes. */
interface RouteStats {
  samples: number[];
  errors: number;
}
const stats = new Map<string, RouteStats>();
const errorsByStatus = new Map<string, number>();
let sent = 0;

/**
 * One timed call. An answer that is not 2xx, or an /api/v3 envelope carrying an error, or no
 * answer at all, counts as an error under its status (and the service's code when there is one).
 */
async function call(route: string, proxyUrl: string, m: Member | undefined, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<unknown> {
  sent++;
  const t = performance.now();
  let status = 'network';
  let json: unknown;
  let failed = true;
  try {
    const response = await fetch(`${proxyUrl}${path}`, {
      method,
      headers: { ...(m ? { Authorization: `Bearer ${m.token}` } : {}), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    status = String(response.status);
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const code = (json as { ResponseMetadata?: { Error?: { Code?: string } }; error?: { code?: string } } | undefined);
    const serviceCode = code?.ResponseMetadata?.Error?.Code ?? code?.error?.code;
    if (serviceCode) status += ` ${serviceCode}`;
    failed = !response.ok || Boolean(code?.ResponseMetadata?.Error);
  } catch (error) {
    status = `network (${(error as Error).name})`;
  }
  const elapsed = performance.now() - t;
  const s = stats.get(route) ?? { samples: [], errors: 0 };
  stats.set(route, s);
  s.samples.push(elapsed);
  if (failed) {
    s.errors++;
    errorsByStatus.set(`${route}: ${status}`, (errorsByStatus.get(`${route}: ${status}`) ?? 0) + 1);
  }
  return failed ? undefined : json;
}

const api = (proxyUrl: string, m: Member, action: string, body: unknown, headers?: Record<string, string>) =>
  call(`POST /api/v3 ${action}`, proxyUrl, m, 'POST', `/api/v3?Action=${action}&Version=2024-01-01`, body, headers);

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

/** The mix, by weight: mostly reads, as the extension's popup and background make them. */
function mix(proxyUrl: string, m: Member, worker: string) {
  let n = 0;
  let lastGroup: { key: string; body: unknown } | undefined;
  let lastVideo: { key: string; body: unknown } | undefined;
  const createGroup = async () => {
    // One in four repeats the previous create with the same key and body: a retry, answered from the record.
    const retry = lastGroup && Math.random() < 0.25;
    const request = retry ? lastGroup! : { key: `load-${worker}-g${n++}`, body: { Name: `load ${worker} ${n}`, Description: 'npm run load' } };
    lastGroup = request;
    const result = (await api(proxyUrl, m, 'CreateAssetGroup', request.body, { 'Idempotency-Key': request.key })) as { Result?: { Id: string } } | undefined;
    if (result?.Result?.Id && !m.groups.includes(result.Result.Id)) m.groups.push(result.Result.Id);
  };
  const createVideo = async () => {
    const retry = lastVideo && Math.random() < 0.25;
    const request = retry ? lastVideo! : { key: `load-${worker}-v${n++}`, body: { model: MODEL, prompt: `A paper boat on a pond, take ${n}` } };
    lastVideo = request;
    const result = (await call('POST /v1/video/generations', proxyUrl, m, 'POST', '/v1/video/generations', request.body, { 'Idempotency-Key': request.key })) as { id?: string } | undefined;
    if (result?.id && !m.tasks.includes(result.id)) m.tasks.push(result.id);
  };
  const routes: [number, () => Promise<unknown>][] = [
    [20, () => api(proxyUrl, m, 'GetAssetGroup', { Id: pick(m.groups) })],
    [14, () => api(proxyUrl, m, 'ListAssetGroups', { PageSize: 20 })],
    [14, () => api(proxyUrl, m, 'ListAssets', { Filter: { GroupIds: [pick(m.groups)] }, PageSize: 20 })],
    [6, createGroup],
    [10, () => call('GET /v1/models', proxyUrl, m, 'GET', '/v1/models')],
    [4, createVideo],
    [12, () => (m.tasks.length ? call('GET /v1/video/generations/{id}', proxyUrl, m, 'GET', `/v1/video/generations/${pick(m.tasks)}`) : createVideo())],
    [14, () => call('GET /proxy/me', proxyUrl, m, 'GET', '/proxy/me')],
    [6, () => call('GET /healthz', proxyUrl, undefined, 'GET', '/healthz')],
  ];
  const total = routes.reduce((sum, [w]) => sum + w, 0);
  return () => {
    let r = Math.random() * total;
    for (const [weight, run] of routes) if ((r -= weight) < 0) return run();
    return routes[0]![1]();
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const ms = (v: number) => v.toFixed(1);

function report(seconds: number): void {
  reported = true;
  const row = (route: string, samples: number[], errors: number) => {
    const sorted = [...samples].sort((a, b) => a - b);
    return [route, String(sorted.length), String(errors), ms(percentile(sorted, 50)), ms(percentile(sorted, 99)), ms(sorted.at(-1)!)];
  };
  const routes = [...stats.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([route, s]) => row(route, s.samples, s.errors));
  const samples = [...stats.values()].flatMap((s) => s.samples);
  const total = row('all routes', samples, [...stats.values()].reduce((sum, s) => sum + s.errors, 0));
  const head = ['route', 'requests', 'errors', 'p50 ms', 'p99 ms', 'max ms'];
  const widths = head.map((h, i) => Math.max(h.length, ...[...routes, total].map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  console.log(['', line(head), rule, ...routes.map(line), rule, line(total)].join('\n'));
  console.log(`\n${samples.length} requests in ${seconds.toFixed(1)} s: ${(samples.length / seconds).toFixed(0)} requests/s.`);
  if (errorsByStatus.size === 0) console.log('Errors by status: none.');
  else {
    console.log('Errors by status:');
    for (const [key, count] of [...errorsByStatus.entries()].sort()) console.log(`  ${key}  x${count}`);
  }
}

console.log('Starting a local sandbox and proxy (wrangler dev, loopback, throw-away state)...');
try {
  servers.push(await startSandbox({}, { label: 'load-sandbox' }));
  servers.push(await startProxy(servers[0]!.url));
} catch (error) {
  await shutdown.stop(1, `Could not start the local stack: ${(error as Error).message}`);
}
const proxyUrl = servers[1]!.url;
const admin = new AdminClient(proxyUrl, TEST_PROXY_SECRETS.ADMIN_TOKEN);
const members: Member[] = [];
for (let i = 0; i < MEMBERS; i++) {
  const created = await admin.add(`load-${i + 1}`);
  const m: Member = { name: `m${i + 1}`, token: created.token, groups: [], tasks: [] };
  // Each member starts with one group, so that reads have something to read.
  const group = (await api(proxyUrl, m, 'CreateAssetGroup', { Name: `load seed ${i + 1}` })) as { Result?: { Id: string } } | undefined;
  if (!group?.Result?.Id) await shutdown.stop(1, `Could not create a group for ${m.name}: ${[...errorsByStatus.keys()].join(', ')}`);
  m.groups.push(group!.Result!.Id);
  members.push(m);
}
stats.clear();
sent = 0;

console.log(`Load: ${MEMBERS} members x ${CONCURRENCY} concurrent calls for ${SECONDS} s (at most ${MAX_REQUESTS} requests) against ${proxyUrl}...`);
started = performance.now();
const deadline = started + SECONDS * 1000;
await Promise.all(
  members.flatMap((m) =>
    Array.from({ length: CONCURRENCY }, async (_, w) => {
      const next = mix(proxyUrl, m, `${m.name}w${w + 1}`);
      while (performance.now() < deadline && sent < MAX_REQUESTS) await next();
    }),
  ),
);
report((performance.now() - started) / 1000);
await shutdown.stop(errorsByStatus.size ? 1 : 0);
