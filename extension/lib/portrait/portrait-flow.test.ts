import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FINAL_CHECK_MS, POLL_MS, PortraitFlow } from '@/lib/portrait/portrait-flow';
import { RULES_VERSION } from '@/lib/portrait/portrait-rules';
import { readSession } from '@/lib/portrait/portrait-store';
import { AUTO_RENEWALS, type PortraitState } from '@/lib/portrait/portrait-transitions';
import { FakePortraitProxy, ManualClock, PROXY_URL, TOKEN } from '@/lib/portrait/testing/fake-portrait';
import { ProxyClient } from '@/lib/proxy/proxy-client';
import { db } from '@/lib/storage/database';
import type { StoredSession } from '@/lib/storage/records/setting-values';
import { settingsStore } from '@/lib/storage/settings-store';
import { getConnection } from '@/lib/storage/stored-connection';
import { assetRecord, connect, resetState } from '@/lib/testing/test-setup';

let clock: ManualClock;
let proxy: FakePortraitProxy;
let flow: PortraitFlow;

beforeEach(async () => {
  await resetState();
  await connect();
  clock = new ManualClock();
  proxy = new FakePortraitProxy(clock.now);
  flow = newFlow();
});

function newFlow() {
  return new PortraitFlow({ client: async () => new ProxyClient({ proxyUrl: PROXY_URL, token: TOKEN }, proxy.fetch), now: clock.now, sleep: clock.sleep });
}

const settled = (kind: PortraitState['kind'], f = flow) => vi.waitFor(() => expect(f.state.kind).toBe(kind));
/** The flow waits before its next ResolvePartnerToken check. */
const waiting = () => vi.waitFor(() => expect(clock.sleepers).toHaveLength(1));
const showing = (f = flow) => {
  const state = f.state;
  if (state.kind !== 'showing') throw new Error(`expected showing, got ${state.kind}`);
  return state;
};

/** Agrees, and waits for the QR code and the first wait. */
async function showCode(continuous = false) {
  flow.agree(continuous);
  await settled('showing');
  await waiting();
  return showing();
}

describe('the consent gate (with the proxy)', () => {
  it('records the consent with RULES_VERSION before CreatePortraitSession is ever called', async () => {
    const state = await showCode();
    expect(proxy.actions()).toEqual(['/proxy/consents', 'CreatePortraitSession']);
    expect(proxy.calls[0]!.body).toEqual({ scope: 'portrait', rulesVersion: RULES_VERSION });
    expect(proxy.calls[1]!.body).toEqual({ ContinuousCreate: false });
    expect(state.session).toMatchObject({ h5Link: 'https://sandbox.test/h5/portrait/h5-1', handle: 'ph_1', expiresAt: clock.now() + 300_000, renewals: 0 });
    // Remembered for display, and the code kept for the next popup.
    expect(flow.snapshot.consent).toEqual({ rulesVersion: RULES_VERSION, acceptedAt: new Date(clock.now()).toISOString() });
    expect(await settingsStore.get('portrait.consent')).toEqual(flow.snapshot.consent);
    expect(await readSession()).toEqual(state.session);
  });

  it.each([
    ['the proxy fails', { kind: 'status', status: 500, code: 'internal', message: 'database unavailable' } as const, /database unavailable/],
    ['the proxy cannot be reached', { kind: 'network' } as const, /Cannot reach the proxy/],
    ['the consent is refused', { kind: 'status', status: 400, code: 'invalid_parameter', message: 'rulesVersion: must not be empty' } as const, /rulesVersion: must not be empty/],
  ])('when %s: back to the rules with the message, and no session is created', async (_case, fault, message) => {
    proxy.failNext('/proxy/consents', fault);
    flow.agree(false);
    await vi.waitFor(() => expect(flow.state).toMatchObject({ kind: 'rules', problem: { message: expect.stringMatching(message) } }));
    await new Promise((r) => setTimeout(r, 20));
    expect(proxy.actions()).toEqual(['/proxy/consents']);
    expect(proxy.sessions).toHaveLength(0);
    expect(await readSession()).toBeNull();
    expect(flow.snapshot.consent).toBeNull();
  });

  it('a refused member token: asks to reconnect, creates nothing', async () => {
    proxy.failNext('/proxy/consents', { kind: 'status', status: 401, code: 'unauthorized', message: 'no' });
    flow.agree(false);
    await vi.waitFor(() => expect(flow.state).toMatchObject({ kind: 'rules', problem: { reconnect: true } }));
    expect(proxy.callsOf('CreatePortraitSession')).toHaveLength(0);
    expect((await getConnection())!.needsReconnect).toBe(true);
  });

  it('cancel while the consent is being recorded: no session is created even when the consent succeeds', async () => {
    flow.agree(false);
    flow.cancel();
    expect(flow.state.kind).toBe('rules');
    await vi.waitFor(() => expect(proxy.consents).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 20));
    expect(proxy.callsOf('CreatePortraitSession')).toHaveLength(0);
  });

  it('every new flow records the consent again (the proxy needs it on record each time)', async () => {
    await showCode();
    flow.cancel();
    clock.sleepers.length = 0; // the cancelled flow's wait is abandoned
    await showCode();
    expect(proxy.actions()).toEqual(['/proxy/consents', 'CreatePortraitSession', '/proxy/consents', 'CreatePortraitSession']);
  });

  it('passes ContinuousCreate', async () => {
    await showCode(true);
    expect(proxy.callsOf('CreatePortraitSession')[0]!.body).toEqual({ ContinuousCreate: true });
  });
});

describe('polling', () => {
  it('keeps checking the same code every POLL_MS while the person is not done', async () => {
    const { session } = await showCode();
    for (let i = 1; i <= 4; i++) {
      clock.advance(POLL_MS);
      await vi.waitFor(() => expect(proxy.callsOf('ResolvePartnerToken')).toHaveLength(i));
      await waiting();
      expect(showing().session).toBe(session);
    }
    expect(proxy.callsOf('ResolvePartnerToken').every((c) => c.body.PartnerToken === 'ph_1')).toBe(true);
    expect(proxy.callsOf('CreatePortraitSession')).toHaveLength(1);
  });

  it('on expiry makes a fresh code automatically (new link, new handle), then stops after AUTO_RENEWALS', async () => {
    const first = (await showCode()).session;
    clock.advance(300_000);
    await vi.waitFor(() => expect(proxy.callsOf('CreatePortraitSession')).toHaveLength(2));
    await waiting();
    const second = showing().session;
    expect(second).toMatchObject({ h5Link: 'https://sandbox.test/h5/portrait/h5-2', handle: 'ph_2', renewals: 1 });
    expect(second.h5Link).not.toBe(first.h5Link);
    expect(await readSession()).toEqual(second);
    // The consent is not asked again within the same flow.
    expect(proxy.callsOf('/proxy/consents')).toHaveLength(1);

    for (let i = 2; i <= AUTO_RENEWALS; i++) {
      clock.advance(300_000);
      await vi.waitFor(() => expect(showing().session.renewals).toBe(i));
      await waiting();
    }
    clock.advance(300_000);
    await settled('expired');
    expect(proxy.callsOf('CreatePortraitSession')).toHaveLength(AUTO_RENEWALS + 1);
    expect(await readSession()).toBeNull();

    flow.renew();
    await settled('showing');
    expect(showing().session.renewals).toBe(0);
    expect(proxy.callsOf('CreatePortraitSession')).toHaveLength(AUTO_RENEWALS + 2);
  });

  it('checks once more just before the expiry, so a person who finishes at the last moment is not lost', async () => {
    const { session } = await showCode();
    clock.advance(300_000 - POLL_MS); // the first wait ends late (a busy computer)
    await vi.waitFor(() => expect(proxy.callsOf('ResolvePartnerToken')).toHaveLength(1));
    await waiting();
    proxy.complete(session.h5Link);
    clock.advance(POLL_MS - FINAL_CHECK_MS);
    await settled('resolved');
    expect(clock.now()).toBe(session.expiresAt - FINAL_CHECK_MS);
  });

  it('also makes a fresh code when the proxy says the session expired before the local clock does', async () => {
    await showCode();
    proxy.latest().expiresAt = clock.now() + 1000; // the server's clock is ahead
    clock.advance(POLL_MS);
    await vi.waitFor(() => expect(proxy.callsOf('CreatePortraitSession')).toHaveLength(2));
    await settled('showing');
    expect(showing().session.handle).toBe('ph_2');
  });

  it('keeps the code and keeps checking when the proxy cannot be reached for a moment', async () => {
    const { session } = await showCode();
    proxy.failNext('ResolvePartnerToken', { kind: 'network' });
    clock.advance(POLL_MS);
    await vi.waitFor(() => expect(showing().problem?.message).toMatch(/Cannot reach the proxy/));
    await waiting();
    proxy.complete(session.h5Link);
    clock.advance(POLL_MS);
    await settled('resolved');
  });

  it('waits Retry-After when the proxy is busy', async () => {
    await showCode();
    proxy.failNext('ResolvePartnerToken', { kind: 'status', status: 429, code: 'rate_limited', message: 'slow down', retryAfter: '10' });
    clock.advance(POLL_MS);
    await vi.waitFor(() => expect(showing().waitMs).toBe(10_000));
    await waiting();
    clock.advance(POLL_MS);
    await new Promise((r) => setTimeout(r, 20));
    expect(proxy.callsOf('ResolvePartnerToken')).toHaveLength(1);
    clock.advance(10_000 - POLL_MS);
    await vi.waitFor(() => expect(proxy.callsOf('ResolvePartnerToken')).toHaveLength(2));
  });

  it('a handle of another member ends in an error with a retry that makes a new code', async () => {
    await showCode();
    proxy.failNext('ResolvePartnerToken', { kind: 'status', status: 403, code: 'AccessDenied', message: 'not yours' });
    clock.advance(POLL_MS);
    await settled('error');
    expect(flow.state).toMatchObject({ problem: { message: expect.stringMatching(/another member/) }, retry: { kind: 'create' } });
    flow.retry();
    await settled('showing');
    expect(showing().session.handle).toBe('ph_2');
  });

  it('cancel stops checking and forgets the code', async () => {
    await showCode();
    flow.cancel();
    expect(flow.state.kind).toBe('rules');
    clock.advance(POLL_MS);
    await new Promise((r) => setTimeout(r, 20));
    expect(proxy.callsOf('ResolvePartnerToken')).toHaveLength(0);
    expect(await readSession()).toBeNull();
  });
});

describe('completion', () => {
  it('stores the group (LivenessFace, used now) and its listed assets with their statuses, then forgets the code', async () => {
    proxy.captureStatus = 'Processing';
    const { session } = await showCode(true);
    proxy.complete(session.h5Link, 'Ada Lovelace', 'Studio portrait');
    clock.advance(POLL_MS);
    await settled('resolved');

    const state = flow.state as Extract<PortraitState, { kind: 'resolved' }>;
    const groupId = state.group.id;
    expect(proxy.callsOf('ResolvePartnerToken')).toHaveLength(1);
    expect(proxy.callsOf('ListAssets')[0]!.body).toMatchObject({ Filter: { GroupIds: [groupId], GroupType: 'LivenessFace' }, PageSize: 100 });

    const database = await db();
    expect(await database.get('groups', groupId)).toEqual({ id: groupId, name: 'Ada Lovelace', description: 'Studio portrait', type: 'LivenessFace', usedAt: clock.now() });
    const assets = await database.getAllFromIndex('assets', 'byGroup', groupId);
    expect(assets).toHaveLength(2);
    for (const asset of assets) {
      expect(asset).toMatchObject({ groupId, type: 'Image', status: 'Processing', idempotencyKey: '', notified: true });
      expect(asset.assetId).toMatch(/^asset-lf-/);
      expect(asset.localId).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(state.assets.map((a) => a.assetId).sort()).toEqual(assets.map((a) => a.assetId).sort());
    expect(await readSession()).toBeNull();

    flow.done();
    expect(flow.state.kind).toBe('rules');
  });

  it('updates an asset a Library refresh already stored instead of adding it twice', async () => {
    const { session } = await showCode();
    proxy.complete(session.h5Link);
    // The asset the resolution will create is already known locally (the byAssetId index is unique).
    const database = await db();
    await database.put('assets', assetRecord({ localId: 'known', assetId: 'asset-lf-3', groupId: 'group-lf-2', status: 'Processing' }));
    clock.advance(POLL_MS);
    await settled('resolved');
    const assets = await database.getAllFromIndex('assets', 'byGroup', 'group-lf-2');
    expect(assets.map((a) => [a.localId, a.status])).toEqual([['known', 'Active']]);
  });

  it('when the assets cannot be listed: the group is stored anyway, and retry lists again without resolving again', async () => {
    const { session } = await showCode();
    proxy.complete(session.h5Link, 'Grace');
    proxy.failNext('ListAssets', { kind: 'status', status: 500, code: 'internal', message: 'upstream down' });
    clock.advance(POLL_MS);
    await settled('error');
    expect(flow.state).toMatchObject({ problem: { message: expect.stringMatching(/“Grace” was created.*upstream down/) }, retry: { kind: 'store' } });
    const database = await db();
    expect((await database.getAll('groups')).map((g) => [g.name, g.type])).toEqual([['Grace', 'LivenessFace']]);

    flow.retry();
    await settled('resolved');
    expect(proxy.callsOf('ResolvePartnerToken')).toHaveLength(1);
    expect(proxy.callsOf('ListAssets')).toHaveLength(2);
    expect(await database.getAll('assets')).toHaveLength(1);
  });

  it('a resolution that arrives after the view closed is still stored', async () => {
    const { session } = await showCode();
    proxy.complete(session.h5Link, 'Late');
    const release = proxy.holdNext('ResolvePartnerToken');
    clock.advance(POLL_MS);
    await vi.waitFor(() => expect(proxy.callsOf('ResolvePartnerToken')).toHaveLength(1));
    flow.stop(); // the tab was switched while ResolvePartnerToken was on its way
    release();
    await vi.waitFor(async () => expect((await (await db()).getAll('assets')).length).toBe(1));
    expect((await (await db()).getAll('groups')).map((g) => g.name)).toEqual(['Late']);
    expect(await readSession()).toBeNull();
  });
});

describe('resuming', () => {
  it('a new popup shows the stored code again and keeps checking it, without a new consent or session', async () => {
    const { session } = await showCode();
    flow.stop();
    const next = newFlow();
    await next.start();
    expect(next.state).toEqual({ kind: 'showing', session });
    expect(next.snapshot.consent?.rulesVersion).toBe(RULES_VERSION);
    proxy.complete(session.h5Link);
    await vi.waitFor(() => expect(clock.sleepers.length).toBeGreaterThan(0));
    clock.advance(POLL_MS);
    await settled('resolved', next);
    expect(proxy.actions()).toEqual(['/proxy/consents', 'CreatePortraitSession', 'ResolvePartnerToken', 'ListAssets']);
  });

  it('an expired stored code is forgotten: the rules are shown', async () => {
    const stale: StoredSession = { h5Link: 'https://h5', handle: 'ph_old', expiresAt: clock.now() - 1, renewals: 0, continuous: false };
    await settingsStore.put('portrait.session', stale);
    await flow.start();
    expect(flow.state.kind).toBe('rules');
    expect(await readSession()).toBeNull();
    expect(proxy.calls).toHaveLength(0);
  });
});
