/**
 * A deployment that upgrades from wave 1 keeps every member, token and record: today's proxy and
 * sandbox start on a copy of the state a wave-1 proxy left (test/fixtures/wave1-state, made by
 * test/support/make-wave1-state.ts), with the ledger's new Durable Object class (migration v2) and
 * the members' new task table added on first use.
 */
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, ROOT, wranglerDev, type DevWorker } from '../../scripts/lib/wrangler-dev';
import { freshenWave1State } from '../support/freshen-wave1-state';
import { TEST_PROXY_SECRETS, TEST_VARS } from '../support/sandbox';

const FIXTURE = join(ROOT, 'test/fixtures/wave1-state');
let dir: string;
let sandbox: DevWorker;
let proxy: DevWorker;
let facts: {
  member: { id: string; name: string; token: string };
  group: string;
  asset: string;
  assetBody: Record<string, string>;
  assetKey: string;
  task: string;
};

beforeAll(async () => {
  facts = JSON.parse(await readFile(join(FIXTURE, 'facts.json'), 'utf8'));
  dir = await mkdtemp(join(tmpdir(), 'arkbridge-upgrade-'));
  await cp(join(FIXTURE, 'proxy'), join(dir, 'proxy'), { recursive: true });
  await cp(join(FIXTURE, 'sandbox'), join(dir, 'sandbox'), { recursive: true });
  // The fixture's idempotency records are as old as the fixture; a proxy keeps them 24 hours.
  await freshenWave1State(join(dir, 'proxy'));
  sandbox = wranglerDev({ config: 'worker/sandbox/wrangler.jsonc', port: await freePort(), persistTo: join(dir, 'sandbox'), vars: { ...TEST_VARS }, label: 'upgrade-sandbox', echo: false });
  await sandbox.ready;
  proxy = wranglerDev({
    config: 'worker/proxy/wrangler.jsonc',
    port: await freePort(),
    persistTo: join(dir, 'proxy'),
    vars: { ASSET_API_BASE: sandbox.url, VIDEO_API_BASE: sandbox.url, ALLOW_HTTP_MEDIA: 'on', TRACK_INTERVAL_SECONDS: '1', ...TEST_PROXY_SECRETS },
    label: 'upgrade-proxy',
    echo: false,
  });
  await proxy.ready;
});

afterAll(async () => {
  await proxy?.stop();
  await sandbox?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const admin = (path: string, init: RequestInit = {}) =>
  fetch(`${proxy.url}${path}`, { ...init, headers: { Authorization: `Bearer ${TEST_PROXY_SECRETS.ADMIN_TOKEN}`, 'Content-Type': 'application/json' } });
const member = (path: string, init: RequestInit = {}, extra: Record<string, string> = {}) =>
  fetch(`${proxy.url}${path}`, { ...init, headers: { Authorization: `Bearer ${facts.member.token}`, 'Content-Type': 'application/json', ...extra } });
const api = async (action: string, body: unknown, key?: string) =>
  (await member(`/api/v3?Action=${action}&Version=2024-01-01`, { method: 'POST', body: JSON.stringify(body) }, key ? { 'Idempotency-Key': key } : {})).json() as Promise<any>;

describe('upgrading a wave-1 deployment', () => {
  it('keeps the member, and the token still works', async () => {
    const { members } = (await (await admin('/admin/members')).json()) as { members: { id: string; name: string; revoked: boolean }[] };
    expect(members).toContainEqual(expect.objectContaining({ id: facts.member.id, name: 'Wave One', revoked: false }));
    const me = await member('/proxy/me');
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual({ id: facts.member.id, name: 'Wave One' });
  });

  it('keeps the owned library and the idempotency records', async () => {
    const groups = await api('ListAssetGroups', {});
    expect(groups.Result.Items.map((g: { Id: string }) => g.Id)).toEqual([facts.group]);
    expect((await api('GetAsset', { Id: facts.asset })).Result).toMatchObject({ Id: facts.asset, Status: 'Active' });
    // The same create under the same key is a replay of the wave-1 answer, not a second asset.
    expect((await api('CreateAsset', facts.assetBody, facts.assetKey)).Result.Id).toBe(facts.asset);
  });

  it('still answers the task created before tracking existed', async () => {
    const r = await member(`/v1/video/generations/${facts.task}`);
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ id: facts.task, object: 'video' });
  });

  it('adds the ledger and tracking: usage answers, and a new task is followed and priced', async () => {
    const usage = await member('/proxy/usage');
    expect(usage.status).toBe(200);
    expect(await usage.json()).toMatchObject({ currency: 'CNY', spent: 0, limit: null });
    const created = await member('/v1/video/generations', { method: 'POST', body: JSON.stringify({ model: 'doubao-seedance-1-0-pro-250528', prompt: 'a kite', duration: 5 }) });
    expect(created.status).toBe(200);
    const task = (await created.json()) as { id: string; arkbridge: unknown };
    // 1.0 Pro at 1080p (its default) is on the default price list: 15 CNY per million output
    // tokens, 1920 x 1088 x 120 / 1024 = 244,800 tokens reserved (16:9 is its largest 1080p size).
    expect(task.arkbridge).toEqual({ cost: 3.672, estimate: 3.672, currency: 'CNY', priced: true });
    const audit = await admin('/admin/audit');
    expect(audit.status).toBe(200);
  });
});
