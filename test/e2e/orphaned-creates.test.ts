/**
 * Creates in flight when the proxy stops (docs/budgets.md, "Orphaned creates"), for real: the
 * sandbox and the proxy under `wrangler dev` with the proxy's state kept on disk, two creates with
 * an Idempotency-Key waiting on a slow service, the proxy's processes killed (SIGKILL: nothing of
 * the create's own cleanup runs) and started again on the same state. Within UPSTREAM_TIMEOUT_MS
 * plus one tracking interval the member's object resolves both: reservations released, running
 * count back to 0, `create.unknown` in the audit log, and each key answers once that the earlier
 * outcome is unknown, then creates afresh.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signalGroup } from '../../scripts/lib/processes';
import { freePort, wranglerDev, type DevWorker } from '../../scripts/lib/wrangler-dev';
import { waitFor } from '../support/poll-until';
import { startSandbox, TEST_PROXY_SECRETS, type Sandbox } from '../support/sandbox';

const UPSTREAM_TIMEOUT_MS = 2000;
const TRACK_INTERVAL_SECONDS = 1;
/** How long after its start an unresolved create is resolved; the proxy's restart is allowed on top. */
const BOUND_MS = UPSTREAM_TIMEOUT_MS + TRACK_INTERVAL_SECONDS * 1000;
/** 1.0 Pro, 5 s at its default 1080p: 3.672 CNY on the default price list. */
const BODY = { model: 'doubao-seedance-1-0-pro-250528', prompt: 'a kite', duration: 5 };

let dir: string;
let sandbox: Sandbox;
let proxy: DevWorker;
let port: number;

const startProxy = async () => {
  const worker = wranglerDev({
    config: 'worker/proxy/wrangler.jsonc',
    port,
    persistTo: join(dir, 'proxy'),
    vars: {
      ASSET_API_BASE: sandbox.url,
      VIDEO_API_BASE: sandbox.url,
      ALLOW_HTTP_MEDIA: 'on',
      TRACK_INTERVAL_SECONDS: String(TRACK_INTERVAL_SECONDS),
      UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS),
      ...TEST_PROXY_SECRETS,
    },
    label: 'orphan-proxy',
    echo: Boolean(process.env.E2E_VERBOSE),
  });
  await worker.ready;
  return worker;
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'arkbridge-orphans-'));
  sandbox = await startSandbox({}, { label: 'orphan-sandbox' });
  port = await freePort();
  proxy = await startProxy();
});

afterAll(async () => {
  await proxy?.stop();
  await sandbox?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const admin = async (path: string, init: RequestInit = {}) =>
  (await fetch(`${proxy.url}${path}`, { ...init, headers: { Authorization: `Bearer ${TEST_PROXY_SECRETS.ADMIN_TOKEN}`, 'Content-Type': 'application/json' } })).json() as Promise<any>;
const stats = async () => ((await (await fetch(`${sandbox.url}/sandbox/stats`)).json()) as Record<string, { total: number }>)['v1-create']?.total ?? 0;

describe('creates in flight when the proxy stops', () => {
  it('are resolved after a restart: reservations released, running 0, audited, and each key retryable', async () => {
    const member = (await admin('/admin/members', { method: 'POST', body: JSON.stringify({ name: 'Orphans' }) })) as { id: string; token: string };
    await admin(`/admin/members/${member.id}/budget`, { method: 'PUT', body: JSON.stringify({ maxRunning: 3 }) });
    const headers = (key: string) => ({ Authorization: `Bearer ${member.token}`, 'Content-Type': 'application/json', 'Idempotency-Key': key });
    const createWith = (key: string) => fetch(`${proxy.url}/v1/video/generations`, { method: 'POST', headers: headers(key), body: JSON.stringify(BODY) });
    const usage = async () => (await (await fetch(`${proxy.url}/proxy/usage`, { headers: { Authorization: `Bearer ${member.token}` } })).json()) as { reserved: number; running: number };

    // A slow service: both creates wait upstream far longer than the test runs.
    const fault = await fetch(`${sandbox.url}/sandbox/faults`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ target: 'v1-create', status: 200, delayMs: 120_000, count: 2 }) });
    expect(fault.status).toBe(200);
    const before = await stats();
    const keys = [`orphan-a-${crypto.randomUUID()}`, `orphan-b-${crypto.randomUUID()}`];
    const waiting = keys.map((key) => createWith(key).then((r) => r.status, () => 'cut off'));
    // Both reached the service and are reserved.
    await waitFor(stats, (n) => n === before + 2, 30_000);
    expect(await usage()).toMatchObject({ reserved: 7.344, running: 2 });

    signalGroup(proxy.pid, 'SIGKILL');
    await proxy.stop();
    // The members' answers: 504 (the deadline passed first) or a dropped connection; either way no task.
    for (const status of await Promise.all(waiting)) expect([504, 'cut off']).toContain(status);

    proxy = await startProxy();
    // Resolved by the member's object on its alarm, within the bound (plus the restart's own time).
    const resolved = await waitFor(usage, (u) => u.reserved === 0 && u.running === 0, BOUND_MS + 15_000, 250);
    expect(resolved).toMatchObject({ reserved: 0, running: 0 });

    const { entries } = (await admin('/admin/audit?limit=100')) as { entries: { action: string; actor: string; target: string; detail: any }[] };
    const unknown = entries.filter((e) => e.action === 'create.unknown');
    expect(unknown).toHaveLength(2);
    for (const entry of unknown) {
      expect(entry).toMatchObject({ actor: member.id, target: `member:${member.id}`, detail: { model: BODY.model, cost: 3.672, keyed: true } });
    }

    // A retry with the same key is told what happened, once; then the key creates afresh.
    const told = await createWith(keys[0]!);
    expect(told.status).toBe(409);
    expect(((await told.json()) as any).error).toMatchObject({ code: 'create_outcome_unknown', message: expect.stringContaining('safe to retry') });
    const created = await createWith(keys[0]!);
    expect(created.status).toBe(200);
    const task = (await created.json()) as { id: string; arkbridge: unknown };
    expect(task.arkbridge).toEqual({ cost: 3.672, estimate: 3.672, currency: 'CNY', priced: true });
    expect(await usage()).toMatchObject({ reserved: 3.672, running: 1 });
    // The retry made one task upstream; the other key is told too.
    expect(await stats()).toBe(before + 3);
    expect((await createWith(keys[1]!)).status).toBe(409);
  });
});
