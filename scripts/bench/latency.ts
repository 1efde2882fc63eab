/** Bench sections 2-4: latency by ablation, video creates with and without a budget, the same under wrangler dev. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Signer } from '../../worker/proxy/infra/signing/signer';
import { startProxy, TEST_PROXY_SECRETS, TEST_VARS, type Server } from '../../test/support/sandbox';
import { AdminClient } from '../lib/admin-client';
import { measure, ms, serve, signed, type Stats, type Step, verdict } from './measure';

/** Measured calls per latency step. */
const CALLS = Number(process.env.BENCH_CALLS ?? 1000);
/** Measured video creates per step (each accepted one is a task in the proxy and the sandbox). */
const CREATES = Number(process.env.BENCH_CREATES ?? 400);
const VIDEO_MODEL = 'doubao-seedance-2-0-260128';

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

/** The headers the vendor's Node signer lists (docs/identity.md): the signed step signs over these. */
const VENDOR_NODE_HEADERS = ['host', 'x-content-sha256', 'x-date'];
/** A signature is good for 15 minutes on either side; the bench signs again well before. */
const RESIGN_MS = 60_000;

/**
 * The member's `GetAssetGroup` signed with an access key of theirs, as a script with the vendor's
 * SDK sends it. The request is signed once and sent again until a minute has passed (the verifier
 * allows that within its 15 minutes, and keeps nothing per signature), so that the step times what
 * the proxy does with a signed call, not the client's signing in Node.
 */
async function signedCall(proxyUrl: string, auth: Record<string, string>, body: unknown) {
  const minted = await fetch(`${proxyUrl}/proxy/access-keys`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ label: 'bench' }) });
  if (minted.status !== 201) throw new Error(`access key not minted: HTTP ${minted.status} ${(await minted.text()).slice(0, 200)}`);
  const key = (await minted.json()) as { accessKeyId: string; secretAccessKey: string };
  const signer = new Signer({ accessKeyId: key.accessKeyId, secretAccessKey: key.secretAccessKey }, VENDOR_NODE_HEADERS);
  const url = `${proxyUrl}/api/v3?Action=GetAssetGroup&Version=2024-01-01`;
  let held: { at: number; request: Awaited<ReturnType<Signer['sign']>> } | null = null;
  return async () => {
    if (!held || Date.now() - held.at > RESIGN_MS) held = { at: Date.now(), request: await signer.sign(url, JSON.stringify(body)) };
    return fetch(url, { method: 'POST', headers: held.request.headers, body: held.request.body });
  };
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
  let budgetedToken = '';
  const member = async (name: string, budget?: { limit?: number | null; period?: 'month'; maxRunning?: number | null }) => {
    const added = await client.add(name);
    if (budget) await adminCall('PUT', `/admin/members/${encodeURIComponent(added.id)}/budget`, budget);
    const headers = { Authorization: `Bearer ${added.token}`, 'Content-Type': 'application/json' };
    if (name === 'bench-budget') budgetedToken = added.token;
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
  const quoteHeaders = { Authorization: `Bearer ${budgetedToken}`, 'Content-Type': 'application/json' };
  const quote = () => fetch(`${proxyUrl}/proxy/quote`, { method: 'POST', headers: quoteHeaders, body: JSON.stringify(valid) });
  const quoted = await quote();
  const answer = (await quoted.json()) as { cost?: number };
  if (quoted.status !== 200 || answer.cost !== 5) throw new Error(`quote check: expected 200 with cost 5, got ${quoted.status} ${JSON.stringify(answer).slice(0, 200)}`);
  return { budgeted: () => budgeted(valid), unbudgeted: () => unbudgeted(valid), atLedger: () => capped(valid), beforeLedger: () => capped(invalid), quote };
}

/** The latency steps; with `parts.creates`, the video creates and wrangler dev's comparison after them. */
async function latency(parts: { creates: boolean }) {
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
      signed: { name: 'proxy GetAssetGroup, signed with an access key', run: await signedCall(proxy.url, member.auth, member.group), expect: 200 },
    } satisfies Record<string, Step>;
    const main = await measure(steps, CALLS);
    if (!parts.creates) return { steps, main };

    // Video creates, before wrangler dev starts (see below). Each accepted create is one more
    // task in the proxy and the sandbox; BENCH_CREATES keeps them bounded.
    const video = await videoMembers(proxy.url);
    const createSteps = {
      budgeted: { name: 'create, member with a budget', run: video.budgeted, expect: 200 },
      unbudgeted: { name: 'create, member without a budget', run: video.unbudgeted, expect: 200 },
      atLedger: { name: 'create refused at the ledger (429 maxRunning 0)', run: video.atLedger, expect: 429 },
      beforeLedger: { name: 'create refused before the ledger (400, no prompt)', run: video.beforeLedger, expect: 400 },
      quote: { name: 'POST /proxy/quote, member with a budget', run: video.quote, expect: 200 },
      trivial: { name: 'sandbox GET / (a trivial Worker)', run: () => fetch(sandbox.url), expect: 200 },
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
    return { steps, main, more: { createSteps, created, devSteps, underDev } };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

/** Runs the sections and prints their tables against the goals (ms). */
export async function latencySection(
  GOAL: { addedP50: number; addedP99: number; addedRatio: number; verifyP50: number; reservationP50: number; quoteP50: number },
  parts = { creates: true },
) {
  console.log(`\nLatency per request, ${CALLS} calls each, interleaved, keep-alive, Workers in workerd (no dev server in front):`);
  const { steps, main, more } = await latency(parts);
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
  // Against the direct call's own time, measured beside it: a figure that holds on a faster or slower machine.
  const ratio = added.p50 / r.direct.p50;
  console.log(
    `Added / direct at p50: ${ratio.toFixed(2)}x (${signed(added.p50)} over a direct ${ms(r.direct.p50)}; proxied ${ms(r.proxied.p50)}). ` +
      `Goal: <= ${GOAL.addedRatio}x ${verdict(ratio <= GOAL.addedRatio)}.`,
  );
  const verify = { p50: r.signed.p50 - r.proxied.p50, p99: r.signed.p99 - r.proxied.p99 };
  console.log(
    `Signed with a member's access key (the vendor's Node header list), against the bearer call: verify adds ${signed(verify.p50)} at p50 ` +
      `(goal <= ${GOAL.verifyP50} ms) ${verdict(verify.p50 <= GOAL.verifyP50)}; p99 ${signed(verify.p99)}.`,
  );
  if (!more) return;
  const { createSteps, created, devSteps, underDev } = more;

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
  // What a quote costs in workerd: its whole answer minus one HTTP round trip into a trivial Worker.
  const quoteCost = delta(c.quote, c.trivial);
  console.log(
    `A quote in workerd (POST /proxy/quote − sandbox GET /: token, member object, the create's checks, one ledger call): p50 ${signed(quoteCost.p50)}, p99 ${signed(quoteCost.p99)}. ` +
      `Goal: <= ${GOAL.quoteP50} ms at p50: ${verdict(quoteCost.p50 <= GOAL.quoteP50)}.`,
  );

  console.log(`\nFor comparison, the proxy as npm start runs it (wrangler dev: its proxy Worker in front, a debugger attached), ${CALLS} calls each, interleaved:`);
  console.table(table(devSteps, underDev.results));
  const devAdded = { p50: underDev.results.proxied.p50 - underDev.results.direct.p50, p99: underDev.results.proxied.p99 - underDev.results.direct.p99 };
  console.log(`Added under wrangler dev: p50 ${signed(devAdded.p50)}, p99 ${signed(devAdded.p99)} (the difference to the above is the dev tool's).`);
}
