import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkPendingPortrait } from '@/lib/background/pending-portrait-check';
import { PortraitFlow } from '@/lib/portrait/portrait-flow';
import { checkHandle, holdLock, RESOLVE_LOCK, VIEW_LOCK, withLock } from '@/lib/portrait/portrait-resolve';
import { readSession, saveSession } from '@/lib/portrait/portrait-store';
import { FakePortraitProxy, ManualClock, PROXY_URL, TOKEN } from '@/lib/portrait/testing/fake-portrait';
import { ApiError } from '@/lib/proxy/api-failure';
import { ProxyClient } from '@/lib/proxy/proxy-client';
import { db } from '@/lib/storage/database';
import type { StoredSession } from '@/lib/storage/records/setting-values';
import { type BrowserMocks, connect, resetState, shown } from '@/lib/testing/test-setup';
import { installWebLocks } from '@/lib/testing/web-locks';

let clock: ManualClock;
let proxy: FakePortraitProxy;
let client: ProxyClient;
let mocks: BrowserMocks;
let uninstallLocks: () => void;

beforeEach(async () => {
  mocks = await resetState();
  await connect();
  uninstallLocks = installWebLocks();
  clock = new ManualClock();
  proxy = new FakePortraitProxy(clock.now);
  client = new ProxyClient({ proxyUrl: PROXY_URL, token: TOKEN }, proxy.fetch);
});

afterEach(() => uninstallLocks());

/** A code made through the proxy and stored, as the popup leaves it when it closes. */
async function leaveCode(continuous = false): Promise<StoredSession> {
  await client.recordConsent('test-rules');
  const made = await client.library('CreatePortraitSession', { ContinuousCreate: continuous });
  const session: StoredSession = { h5Link: made.H5Link, handle: made.PartnerToken, expiresAt: clock.now() + made.ExpiresIn * 1000, renewals: 0, continuous };
  await saveSession(session);
  proxy.calls.length = 0;
  return session;
}

describe('checkPendingPortrait (the background, popup closed)', () => {
  it('does nothing without a stored code', async () => {
    expect(await checkPendingPortrait(client, clock.now())).toBe('none');
    expect(proxy.calls).toEqual([]);
  });

  it('checks once and keeps the code while the person is still on the phone', async () => {
    const session = await leaveCode();
    expect(await checkPendingPortrait(client, clock.now())).toBe('pending');
    expect(proxy.actions()).toEqual(['ResolvePartnerToken']);
    expect(proxy.calls[0]!.body).toEqual({ PartnerToken: session.handle });
    expect(await readSession()).toEqual(session);
  });

  it('stores the group and its assets, tells the member, and forgets the code once the person finished', async () => {
    const session = await leaveCode(true);
    proxy.complete(session.h5Link, 'Grace Hopper', 'Keynote speaker');

    expect(await checkPendingPortrait(client, clock.now())).toBe('resolved');

    const database = await db();
    const [group] = await database.getAll('groups');
    expect(group).toMatchObject({ name: 'Grace Hopper', description: 'Keynote speaker', type: 'LivenessFace' });
    const assets = await database.getAllFromIndex('assets', 'byGroup', group!.id);
    expect(assets.map((a) => [a.name, a.status]).sort()).toEqual([
      ['Grace Hopper capture 1', 'Active'],
      ['Grace Hopper capture 2', 'Active'],
    ]);
    expect(await readSession()).toBeNull();
    expect(shown(mocks.notify)).toEqual([[`portrait-${group!.id}`, 'Real-person group created: Grace Hopper', '2 captured assets. Only Active ones can be used for video.']]);
    expect(proxy.actions()).toEqual(['ResolvePartnerToken', 'ListAssets']);
  });

  it('forgets an expired code without a call', async () => {
    const session = await leaveCode();
    clock.advance(session.expiresAt - clock.now());
    expect(await checkPendingPortrait(client, clock.now())).toBe('ended');
    expect(proxy.calls).toEqual([]);
    expect(await readSession()).toBeNull();
  });

  it('forgets a code the proxy refuses (another member, gone), and keeps one that could not be checked', async () => {
    await leaveCode();
    proxy.failNext('ResolvePartnerToken', { kind: 'network' });
    expect(await checkPendingPortrait(client, clock.now())).toBe('pending');
    expect(await readSession()).not.toBeNull();

    proxy.failNext('ResolvePartnerToken', { kind: 'status', status: 403, code: 'AccessDenied', message: 'PartnerToken: not yours.' });
    expect(await checkPendingPortrait(client, clock.now())).toBe('ended');
    expect(await readSession()).toBeNull();
  });

  it('passes a refused member token on, so the sync asks the member to reconnect', async () => {
    await leaveCode();
    proxy.failNext('ResolvePartnerToken', { kind: 'status', status: 401, code: 'AuthenticationFailed', message: 'A valid member token is required.' });
    await expect(checkPendingPortrait(client, clock.now())).rejects.toBeInstanceOf(ApiError);
    expect(await readSession()).not.toBeNull();
  });

  it('leaves the checking to a popup that shows the Real person tab, or that is checking right now', async () => {
    await leaveCode();
    const release = holdLock(VIEW_LOCK);
    await Promise.resolve();
    expect(await checkPendingPortrait(client, clock.now())).toBe('pending');
    release();

    let checked!: Promise<unknown>;
    await withLock(RESOLVE_LOCK, async () => {
      checked = checkPendingPortrait(client, clock.now());
      expect(await checked).toBe('pending');
    });
    expect(proxy.calls).toEqual([]);
  });
});

describe('checkHandle', () => {
  it('resolves a handle once: a second check (the other context) reads the kept group without a call', async () => {
    const session = await leaveCode();
    proxy.complete(session.h5Link, 'Ada Lovelace');
    const first = await checkHandle(client, session.handle);
    const second = await checkHandle(client, session.handle);
    expect(first).toEqual({ kind: 'resolved', resolved: expect.objectContaining({ GroupName: 'Ada Lovelace' }) });
    expect(second).toEqual(first);
    expect(proxy.actions()).toEqual(['ResolvePartnerToken']);
  });

  it('clears only the code it resolved, never a newer one', async () => {
    const old = await leaveCode();
    proxy.complete(old.h5Link);
    const newer = await leaveCode();
    await checkHandle(client, old.handle);
    expect(await readSession()).toEqual(newer);
  });
});

describe('popup and background on one code', () => {
  it('a popup opened after the background resolved the code shows the rules, and the group is in IndexedDB', async () => {
    const session = await leaveCode();
    proxy.complete(session.h5Link, 'Alan Turing');
    expect(await checkPendingPortrait(client, clock.now())).toBe('resolved');

    const flow = new PortraitFlow({ client: async () => client, now: clock.now, sleep: clock.sleep });
    await flow.start();
    expect(flow.state.kind).toBe('rules');
    flow.stop();
    expect((await (await db()).getAll('groups')).map((g) => g.name)).toEqual(['Alan Turing']);
  });

  it('a popup showing the code holds the view lock until it closes', async () => {
    await leaveCode();
    const flow = new PortraitFlow({ client: async () => client, now: clock.now, sleep: clock.sleep });
    await flow.start();
    expect((await navigator.locks.query()).held?.map((l) => l.name)).toContain(VIEW_LOCK);
    expect(await checkPendingPortrait(client, clock.now())).toBe('pending');
    flow.stop();
    await Promise.resolve();
    expect((await navigator.locks.query()).held?.map((l) => l.name)).not.toContain(VIEW_LOCK);
  });
});
