import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { ALARM, PASS_GUARD_MS, PORTRAIT_CHECK_MS } from '@/lib/background/background-sync';
import { resetBackoff, syncSoon } from '@/lib/messaging/sync-soon';
import { KEPT_READ_MIN_MS } from '@/lib/poll/task-polling';
import { saveSession } from '@/lib/portrait/portrait-store';
import { FakePortraitProxy, PROXY_URL, TOKEN } from '@/lib/portrait/testing/fake-portrait';
import { ProxyClient } from '@/lib/proxy/proxy-client';
import { addToLibrary } from '@/lib/saving/add-to-library';
import { closeDb, db } from '@/lib/storage/database';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import { getConnection } from '@/lib/storage/stored-connection';
import { submitTask } from '@/lib/tasks/task-submit';
import { VideoFakeProxy } from '@/lib/tasks/testing/fake-video';
import { FakeProxy } from '@/lib/testing/fake-proxy';
import { backgroundTestbed, type BrowserMocks, connect, putGroup, shown } from '@/lib/testing/test-setup';

const T0 = 1_700_000_000_000;
let proxy: FakeProxy;
let mocks: BrowserMocks;

/** Milliseconds until the sync alarm fires, or null when there is none. */
async function alarmDelay(): Promise<number | null> {
  const alarm = await fakeBrowser.alarms.get(ALARM);
  return alarm ? alarm.scheduledTime - Date.now() : null;
}

const badge = () => fakeBrowser.action.getBadgeText({});

/** What the alarm does when it fires: time passes, then a pass runs. */
async function alarmFires(): Promise<void> {
  const delay = await alarmDelay();
  if (delay === null) throw new Error('no alarm set');
  vi.setSystemTime(Date.now() + delay);
  await syncSoon();
}

async function add(name: string, groupId = 'g1') {
  const outcome = await addToLibrary({ groupId, url: `https://cdn.example.com/${name}.png`, name, type: 'Image' }, Date.now());
  await resetBackoff();
  return outcome.record;
}

const assetIdOf = async (localId: string) => (await (await db()).get('assets', localId))!.assetId!;

beforeEach(async () => {
  // Only the clock and sync's own timer are faked: fake-indexeddb runs on setImmediate.
  ({ proxy, mocks } = await backgroundTestbed(['Date']));
  vi.setSystemTime(T0);
  await connect();
  await putGroup({ id: 'g1', name: 'Moodboard' });
});

afterEach(() => {
  vi.clearAllTimers();
  vi.useRealTimers();
});

describe('syncSoon', () => {
  it('sends queued creates, then polls with ListAssets only, backing off while nothing changes', async () => {
    const cat = await add('cat');
    const dog = await add('dog');
    await syncSoon();
    expect(proxy.actions()).toEqual(['CreateAsset', 'CreateAsset', 'ListAssets']);
    expect(await alarmDelay()).toBe(2_000); // something changed: poll again soon
    expect(await badge()).toBe('2');

    const delays = [];
    for (let i = 0; i < 7; i++) {
      await alarmFires();
      delays.push(await alarmDelay());
    }
    expect(delays).toEqual([4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000]);
    expect(new Set(proxy.actions().slice(2))).toEqual(new Set(['ListAssets']));
    expect(proxy.callsOf('GetAsset')).toEqual([]);

    // One finishes: the pace comes back to 2 s, the member is told once.
    proxy.setStatus(await assetIdOf(cat.localId), 'Active');
    await alarmFires();
    expect(await alarmDelay()).toBe(2_000);
    expect(await badge()).toBe('1');
    await alarmFires();
    expect(await alarmDelay()).toBe(4_000);
    expect(shown(mocks.notify)).toEqual([[`asset-${cat.localId}`, 'Ready: cat', 'Added to Moodboard and ready for video generation.']]);

    // The last one fails: nothing is pending, the alarm goes and the badge is cleared.
    proxy.setStatus(await assetIdOf(dog.localId), 'Failed', 'The URL could not be downloaded (HTTP 404).');
    await alarmFires();
    expect(await alarmDelay()).toBeNull();
    expect(await badge()).toBe('');
    expect(shown(mocks.notify).slice(1)).toEqual([[`asset-${dog.localId}`, 'Could not add: dog', 'The URL could not be downloaded (HTTP 404).']]);
    expect(await (await db()).get('assets', dog.localId)).toMatchObject({ status: 'Failed', notified: true });

    // Later passes (the browser starting, a message) call nothing and tell nothing again.
    const calls = proxy.calls.length;
    await syncSoon();
    expect(proxy.calls).toHaveLength(calls);
    expect(mocks.notify).toHaveBeenCalledTimes(2);
    expect(await alarmDelay()).toBeNull();
  });

  it('does nothing and sets no alarm when nothing is pending', async () => {
    await syncSoon();
    expect(proxy.calls).toEqual([]);
    expect(await alarmDelay()).toBeNull();
    expect(await badge()).toBe('');
  });

  it('tells once about a create the service refused', async () => {
    const cat = await add('cat');
    proxy.failNext('CreateAsset', { kind: 'status', status: 400, code: 'ValidationError', message: 'URL: the file is not a supported image' });
    await syncSoon();
    await syncSoon();
    expect(shown(mocks.notify)).toEqual([[`asset-${cat.localId}`, 'Could not add: cat', 'URL: the file is not a supported image']]);
    expect(await alarmDelay()).toBeNull();
    expect(await badge()).toBe('');
  });

  it('keeps items queued while the network is down and resumes when it is back', async () => {
    const cat = await add('cat');
    proxy.failNext('CreateAsset', { kind: 'network' }, 2);
    await syncSoon();
    expect(await (await db()).get('assets', cat.localId)).toMatchObject({ status: 'Queued' });
    expect(await badge()).toBe('1');
    const first = (await alarmDelay())!;
    expect(first).toBeGreaterThanOrEqual(1_600); // 2 s with ±20 % jitter
    await alarmFires();
    expect(await (await db()).get('assets', cat.localId)).toMatchObject({ status: 'Queued' });
    expect(await alarmDelay()).toBeGreaterThan(first);

    await alarmFires();
    expect(await (await db()).get('assets', cat.localId)).toMatchObject({ status: 'Processing' });
    expect(new Set(proxy.callsOf('CreateAsset').map((c) => c.idempotencyKey))).toEqual(new Set([cat.idempotencyKey]));
    expect(proxy.assets.size).toBe(1);
  });

  it('keeps syncing when something other than the proxy answers (a captive portal page)', async () => {
    const cat = await add('cat');
    vi.stubGlobal('fetch', async () => new Response('<html>Sign in to the Wi-Fi</html>', { status: 200, headers: { 'Content-Type': 'text/html' } }));
    await syncSoon();
    expect(await (await db()).get('assets', cat.localId)).toMatchObject({ status: 'Queued' });
    expect(await alarmDelay()).toBeGreaterThan(0);
    vi.stubGlobal('fetch', proxy.fetch);
    await alarmFires();
    expect(await (await db()).get('assets', cat.localId)).toMatchObject({ status: 'Processing' });
  });

  it('waits Retry-After when the proxy answers 429 to a poll', async () => {
    await add('cat');
    await syncSoon();
    proxy.failNext('ListAssets', { kind: 'status', status: 429, code: 'RequestLimitExceeded', retryAfter: '45' });
    await alarmFires();
    expect(await alarmDelay()).toBe(45_000);
  });

  it('waits Retry-After when the proxy answers 429 to a create', async () => {
    await add('cat');
    proxy.failNext('CreateAsset', { kind: 'status', status: 429, code: 'RequestLimitExceeded', retryAfter: '30' });
    await syncSoon();
    expect(await alarmDelay()).toBe(30_000);
    expect(await badge()).toBe('1');
  });

  it('on 401 asks the member to reconnect, stops, and keeps everything', async () => {
    const cat = await add('cat');
    proxy.tokens.clear();
    await syncSoon();
    expect(await getConnection()).toMatchObject({ needsReconnect: true });
    expect(shown(mocks.notify)).toEqual([['arkbridge-reconnect', 'Arkbridge needs you to reconnect', expect.stringMatching(/options.*nothing you added is lost/i)]]);
    expect(await alarmDelay()).toBeNull();
    expect(await badge()).toBe('1');
    expect(await (await db()).get('assets', cat.localId)).toMatchObject({ status: 'Queued' });
    expect(await (await db()).count('queue')).toBe(1);

    // Until the member reconnects, passes call nothing.
    const calls = proxy.calls.length;
    await syncSoon();
    expect(proxy.calls).toHaveLength(calls);
  });

  it('on 401 while polling asks to reconnect too', async () => {
    await add('cat');
    await syncSoon();
    proxy.tokens.clear();
    await alarmFires();
    expect(await getConnection()).toMatchObject({ needsReconnect: true });
    expect(shown(mocks.notify).map(([id]) => id)).toEqual(['arkbridge-reconnect']);
    expect(await alarmDelay()).toBeNull();
  });

  it('does not sync without a connection', async () => {
    await (await db()).delete('settings', 'connection');
    await add('cat');
    await syncSoon();
    expect(proxy.calls).toEqual([]);
    expect(await alarmDelay()).toBeNull();
  });

  it('runs one pass at a time: two concurrent calls send a create once', async () => {
    await add('cat');
    await Promise.all([syncSoon(), syncSoon(), syncSoon()]);
    expect(proxy.callsOf('CreateAsset')).toHaveLength(1);
  });

  it('has an alarm set while a pass runs, so a worker stopped in the middle of it is woken again', async () => {
    await add('cat');
    await fakeBrowser.alarms.clearAll();
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let reached = () => {};
    const atCreate = new Promise<void>((resolve) => (reached = resolve));
    const fetchOfProxy = globalThis.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input instanceof Request ? input.url : input).includes('Action=CreateAsset&')) {
        reached();
        await held;
      }
      return fetchOfProxy(input, init);
    });
    const pass = syncSoon();
    try {
      await atCreate;
      // The worker could end here: the alarm already set wakes it for another pass.
      expect(await alarmDelay()).toBe(PASS_GUARD_MS);
    } finally {
      release();
      await pass;
    }
    expect(proxy.callsOf('CreateAsset')).toHaveLength(1);
    expect(await alarmDelay()).toBe(2_000);
  });

  it('picks up after a service worker restart from what IndexedDB holds', async () => {
    const cat = await add('cat');
    await syncSoon();
    await alarmFires();
    await alarmFires();
    expect(await alarmDelay()).toBe(8_000);
    // The worker stops: its timer and connection are gone; the pace is kept in IndexedDB.
    await closeDb();
    vi.clearAllTimers();
    await alarmFires();
    expect(await alarmDelay()).toBe(16_000);
    await closeDb();
    proxy.setStatus(await assetIdOf(cat.localId), 'Active');
    await alarmFires();
    expect(await (await db()).get('assets', cat.localId)).toMatchObject({ status: 'Active', notified: true });
    expect(await alarmDelay()).toBeNull();
  });

  it('tells when a video task completes or fails', async () => {
    const task = (localId: string): TaskRecord => ({
      localId,
      taskId: `task-${localId}`,
      model: 'm',
      body: {} as TaskRecord['body'],
      status: 'in_progress',
      progress: 50,
      idempotencyKey: localId,
      notified: false,
      createdAt: 1,
    });
    await (await db()).put('tasks', task('ok'));
    await (await db()).put('tasks', task('bad'));
    proxy.setTask('task-ok', { status: 'completed', progress: 100 });
    proxy.setTask('task-bad', { status: 'failed', progress: 50, error: { code: 'internal_error', message: 'The model failed.' } });
    await syncSoon();
    expect(shown(mocks.notify).sort()).toEqual([
      ['task-bad', 'Video generation failed', 'The model failed.'],
      ['task-ok', 'Your video is ready', expect.stringMatching(/24 hours/)],
    ]);
    expect(await alarmDelay()).toBeNull();
    await syncSoon();
    expect(mocks.notify).toHaveBeenCalledTimes(2);
  });

  it('reads again on its alarm, with nothing else to follow, a kept copy still being made when its task completed, until it is kept', async () => {
    const cost = { cost: 1, currency: 'CNY', priced: true };
    const done = { status: 'completed' as const, progress: 100, metadata: { url: 'https://cdn.example.com/v.mp4' } };
    await (await db()).put('tasks', { localId: 'last', taskId: 'task-last', model: 'm', body: {} as TaskRecord['body'], status: 'in_progress', progress: 50, idempotencyKey: 'last', notified: false, createdAt: T0 });
    proxy.setTask('task-last', { ...done, arkbridge: { ...cost, keep: 'pending' } });
    await syncSoon();
    expect(await (await db()).get('tasks', 'last')).toMatchObject({ status: 'completed', keep: 'pending' });
    // No task open: the alarm is kept for the copy's next read, once it is due.
    expect(await alarmDelay()).toBe(KEPT_READ_MIN_MS);

    const keptUrl = 'https://proxy.example.com/media/o-last?expires=1&sig=00';
    proxy.setTask('task-last', { ...done, arkbridge: { ...cost, keptUrl, keptUntil: T0 / 1000 + 30 * 86_400 } });
    await alarmFires();
    const kept = await (await db()).get('tasks', 'last');
    expect(kept).toMatchObject({ status: 'completed', keptUrl });
    expect(kept!.keep).toBeUndefined();
    expect(await alarmDelay()).toBeNull();
  });

  it('follows a create waiting for the service on its alarm until it launches, then as the ordinary task to its end', async () => {
    const video = new VideoFakeProxy();
    vi.stubGlobal('fetch', video.fetch);
    video.maxRunning = 1;
    const client = new ProxyClient({ proxyUrl: PROXY_URL, token: TOKEN }, video.fetch);
    const body = { model: 'doubao-seedance-2-0-260128', content: [{ type: 'text' as const, text: 'x' }] };
    const running = (await submitTask(client, body)).record;
    await submitTask(client, body, Date.now, { localId: 'w1' });
    expect((await (await db()).get('tasks', 'w1'))!.status).toBe('waiting');

    await syncSoon();
    expect(await alarmDelay()).not.toBeNull();
    expect(await badge()).toBe('2');
    expect(video.calls.filter((c) => c.path.startsWith('/proxy/queue'))).toHaveLength(1);

    video.setTask(running.taskId!, { status: 'completed', progress: 100 });
    const taskId = video.launchQueued();
    video.setTask(taskId, { status: 'completed', progress: 100 });
    await alarmFires();
    expect(await (await db()).get('tasks', 'w1')).toMatchObject({ status: 'completed', taskId });
    expect(shown(mocks.notify).map(([id]) => id).sort()).toEqual([`task-${running.localId}`, 'task-w1'].sort());
    expect(await alarmDelay()).toBeNull();
  });

  it('checks a QR code left by a closed popup every few seconds until the person finished, then stops', async () => {
    const portrait = new FakePortraitProxy(() => Date.now());
    vi.stubGlobal('fetch', portrait.fetch);
    const client = new ProxyClient({ proxyUrl: PROXY_URL, token: TOKEN }, portrait.fetch);
    await client.recordConsent('test-rules');
    const made = await client.library('CreatePortraitSession', {});
    await saveSession({ h5Link: made.H5Link, handle: made.PartnerToken, expiresAt: Date.now() + made.ExpiresIn * 1000, renewals: 0, continuous: false });

    await syncSoon();
    expect(portrait.actions().at(-1)).toBe('ResolvePartnerToken');
    expect(await alarmDelay()).toBe(PORTRAIT_CHECK_MS);
    expect(await badge()).toBe('');

    portrait.complete(made.H5Link, 'Grace Hopper');
    await alarmFires();
    expect((await (await db()).getAll('groups')).find((g) => g.type === 'LivenessFace')).toMatchObject({ name: 'Grace Hopper' });
    expect(shown(mocks.notify)).toEqual([[expect.stringMatching(/^portrait-/), 'Real-person group created: Grace Hopper', '1 captured asset. Only Active ones can be used for video.']]);
    expect(await alarmDelay()).toBeNull();
  });
});
