import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ProxyClient } from '@/lib/proxy/proxy-client';
import { backoffMs } from '@/lib/queue/queue-backoff';
import { drainQueue } from '@/lib/queue/queue-drain';
import { type AddRequest, addToLibrary } from '@/lib/saving/add-to-library';
import { closeDb, db } from '@/lib/storage/database';
import { FakeProxy, PROXY_URL, TOKEN } from '@/lib/testing/fake-proxy';
import { proxyTestbed } from '@/lib/testing/test-setup';

const T0 = 1_700_000_000_000;
let proxy: FakeProxy;
let client: ProxyClient;

const item = (name: string, over: Partial<AddRequest> = {}): AddRequest => ({
  groupId: 'group-1',
  url: `https://cdn.example.com/${name}.png`,
  name,
  type: 'Image',
  ...over,
});

async function queue(...names: string[]) {
  const records = [];
  for (const name of names) records.push((await addToLibrary(item(name), T0)).record);
  return records;
}

const asset = async (localId: string) => (await db()).get('assets', localId);
const queued = async () => (await db()).getAll('queue');

beforeEach(async () => {
  ({ proxy, client } = await proxyTestbed());
});

describe('backoffMs', () => {
  it('starts at 2 s, doubles, and stops growing at 5 minutes', () => {
    const mid = () => 0.5;
    expect([0, 1, 2, 3, 4].map((a) => backoffMs(a, mid))).toEqual([2_000, 4_000, 8_000, 16_000, 32_000]);
    expect(backoffMs(8, mid)).toBe(300_000);
    expect(backoffMs(50, mid)).toBe(300_000);
  });

  it('adds up to 20 % jitter either way', () => {
    expect(backoffMs(0, () => 0)).toBe(1_600);
    expect(backoffMs(0, () => 0.999999)).toBeCloseTo(2_400, -1);
  });
});

describe('drainQueue', () => {
  it('creates each queued asset with its stored Idempotency-Key and marks it Processing', async () => {
    const [cat, dog] = await queue('cat', 'dog');
    const result = await drainQueue(client, () => T0);
    expect(result).toEqual({ created: 2, failed: [], unauthorized: false, nextAt: null });
    expect(proxy.callsOf('CreateAsset').map((c) => c.idempotencyKey)).toEqual([cat!.idempotencyKey, dog!.idempotencyKey]);
    expect(proxy.calls[0]!.body).toEqual({ GroupId: 'group-1', AssetType: 'Image', Name: 'cat', URL: 'https://cdn.example.com/cat.png' });
    expect(proxy.calls[0]!.authorization).toBe(`Bearer ${TOKEN}`);
    expect(await asset(cat!.localId)).toMatchObject({ status: 'Processing', assetId: expect.stringMatching(/^asset-/) });
    expect(await asset(dog!.localId)).toMatchObject({ status: 'Processing', assetId: expect.stringMatching(/^asset-/) });
    expect(await queued()).toEqual([]);
    expect(proxy.assets.size).toBe(2);
  });

  it('sends the new asset\'s source to the proxy once it exists, for the teammates it is shared with', async () => {
    const [cat] = await queue('cat');
    await (await db()).put('assets', { ...(await asset(cat!.localId))!, source: { how: 'link', capturedAt: T0, pageUrl: 'https://example.com/cats', pageTitle: 'Cats' } });
    await drainQueue(client, () => T0);
    const { assetId } = (await asset(cat!.localId))!;
    expect(proxy.sources.get(assetId!)).toMatchObject({ how: 'link', pageUrl: 'https://example.com/cats', pageTitle: 'Cats', capturedAt: new Date(T0).toISOString() });
  });

  it('does nothing when the queue is empty or nothing is due yet', async () => {
    expect(await drainQueue(client, () => T0)).toEqual({ created: 0, failed: [], unauthorized: false, nextAt: null });
    await queue('cat');
    const result = await drainQueue(client, () => T0 - 1);
    expect(result).toMatchObject({ created: 0, nextAt: T0 });
    expect(proxy.calls).toEqual([]);
  });

  it('keeps the asset Queued when the proxy cannot be reached, and retries later with the same key', async () => {
    const [cat] = await queue('cat');
    proxy.failNext('CreateAsset', { kind: 'network' });
    const first = await drainQueue(client, () => T0);
    expect(first).toMatchObject({ created: 0, failed: [], unauthorized: false });
    expect(await asset(cat!.localId)).toMatchObject({ status: 'Queued' });
    const [op] = await queued();
    expect(op).toMatchObject({ localId: cat!.localId, attempts: 1 });
    expect(op!.notBefore).toBeGreaterThanOrEqual(T0 + 1_600);
    expect(op!.notBefore).toBeLessThanOrEqual(T0 + 2_400);
    expect(first.nextAt).toBe(op!.notBefore);

    // Not due yet: no request.
    await drainQueue(client, () => T0 + 1_000);
    expect(proxy.calls).toHaveLength(1);

    const second = await drainQueue(client, () => op!.notBefore);
    expect(second).toMatchObject({ created: 1, nextAt: null });
    expect(proxy.callsOf('CreateAsset').map((c) => c.idempotencyKey)).toEqual([cat!.idempotencyKey, cat!.idempotencyKey]);
    expect(await asset(cat!.localId)).toMatchObject({ status: 'Processing' });
  });

  it('backs off longer after each transient failure (5xx, in progress, timeout)', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    await queue('cat');
    proxy
      .failNext('CreateAsset', { kind: 'status', status: 503, code: 'ServiceUnavailable' })
      .failNext('CreateAsset', { kind: 'status', status: 409, code: 'IdempotencyInProgress' })
      .failNext('CreateAsset', { kind: 'status', status: 504, code: 'UpstreamTimeout' });
    let now = T0;
    const delays = [];
    for (let i = 0; i < 3; i++) {
      const { nextAt } = await drainQueue(client, () => now);
      delays.push(nextAt! - now);
      now = nextAt!;
    }
    expect(delays).toEqual([2_000, 4_000, 8_000]);
    expect((await queued())[0]!.attempts).toBe(3);
    expect(await drainQueue(client, () => now)).toMatchObject({ created: 1, nextAt: null });
    expect(new Set(proxy.callsOf('CreateAsset').map((c) => c.idempotencyKey)).size).toBe(1);
  });

  it('on 429 makes every queued create wait Retry-After', async () => {
    const [cat, dog, fox] = await queue('cat', 'dog', 'fox');
    // One operation already waits longer than Retry-After: it keeps its own time.
    const database = await db();
    const late = (await database.getFromIndex('queue', 'byLocalId', fox!.localId))!;
    await database.put('queue', { ...late, notBefore: T0 + 120_000 });
    proxy.failNext('CreateAsset', { kind: 'status', status: 429, code: 'RequestLimitExceeded', message: 'Too many requests.', retryAfter: '30' });

    const result = await drainQueue(client, () => T0);
    expect(result).toEqual({ created: 0, failed: [], unauthorized: false, nextAt: T0 + 30_000 });
    expect(proxy.actions()).toEqual(['CreateAsset']); // the others were not tried
    const ops = new Map((await queued()).map((o) => [o.localId, o]));
    expect(ops.get(cat!.localId)).toMatchObject({ attempts: 1, notBefore: T0 + 30_000 });
    expect(ops.get(dog!.localId)).toMatchObject({ attempts: 0, notBefore: T0 + 30_000 });
    expect(ops.get(fox!.localId)).toMatchObject({ attempts: 0, notBefore: T0 + 120_000 });

    expect(await drainQueue(client, () => T0 + 29_999)).toMatchObject({ created: 0 });
    expect(proxy.calls).toHaveLength(1);
    expect(await drainQueue(client, () => T0 + 30_000)).toMatchObject({ created: 2, nextAt: T0 + 120_000 });
    expect(proxy.callsOf('CreateAsset')[1]!.idempotencyKey).toBe(cat!.idempotencyKey);
  });

  it('stops on 401 and loses nothing', async () => {
    const records = await queue('cat', 'dog');
    proxy.tokens.clear();
    const result = await drainQueue(client, () => T0);
    expect(result).toEqual({ created: 0, failed: [], unauthorized: true, nextAt: T0 });
    expect(proxy.calls).toHaveLength(1);
    for (const record of records) expect(await asset(record.localId)).toMatchObject({ status: 'Queued', idempotencyKey: record.idempotencyKey });
    expect((await queued()).map((o) => [o.attempts, o.notBefore])).toEqual([
      [0, T0],
      [0, T0],
    ]);
  });

  it('ends a refused create Failed with the service message and goes on with the others', async () => {
    const [bad, good] = await queue('bad', 'good');
    proxy.failNext('CreateAsset', { kind: 'status', status: 400, code: 'ValidationError', message: 'Name: must not be empty' });
    const result = await drainQueue(client, () => T0);
    expect(result).toEqual({ created: 1, failed: [bad!.localId], unauthorized: false, nextAt: null });
    expect(await asset(bad!.localId)).toMatchObject({ status: 'Failed', error: 'Name: must not be empty', updatedAt: T0 });
    expect(await asset(good!.localId)).toMatchObject({ status: 'Processing' });
    expect(await queued()).toEqual([]);
  });

  it('drops the queue entry of a record deleted meanwhile without calling the proxy', async () => {
    const [cat] = await queue('cat');
    await (await db()).delete('assets', cat!.localId);
    expect(await drainQueue(client, () => T0)).toEqual({ created: 0, failed: [], unauthorized: false, nextAt: null });
    expect(proxy.calls).toEqual([]);
    expect(await queued()).toEqual([]);
  });
});

describe('restart recovery', () => {
  it('a create that timed out is retried after a restart with the same key: one asset only', async () => {
    const [cat] = await queue('cat');
    // The proxy creates the asset but answers 504 (the service was slow).
    proxy.failNext('CreateAsset', { kind: 'timeout-after-commit' });
    await drainQueue(client, () => T0);
    expect(proxy.assets.size).toBe(1);
    expect(await asset(cat!.localId)).toMatchObject({ status: 'Queued' });

    // The service worker is stopped: the connection goes, IndexedDB stays.
    await closeDb();
    const restarted = new ProxyClient({ proxyUrl: PROXY_URL, token: TOKEN }, proxy.fetch);
    const result = await drainQueue(restarted, () => T0 + 10 * 60_000);
    expect(result).toMatchObject({ created: 1, nextAt: null });
    const keys = proxy.callsOf('CreateAsset').map((c) => c.idempotencyKey);
    expect(keys).toEqual([cat!.idempotencyKey, cat!.idempotencyKey]);
    expect(proxy.assets.size).toBe(1);
    expect(await asset(cat!.localId)).toMatchObject({ status: 'Processing', assetId: [...proxy.assets.keys()][0] });
  });

  it('a create queued while offline is sent after a restart with the key stored before the first try', async () => {
    const [cat] = await queue('cat');
    proxy.failNext('CreateAsset', { kind: 'network' });
    await drainQueue(client, () => T0);
    await closeDb();
    await drainQueue(client, () => T0 + 60_000);
    expect(proxy.callsOf('CreateAsset').map((c) => c.idempotencyKey)).toEqual([cat!.idempotencyKey, cat!.idempotencyKey]);
    expect(proxy.assets.size).toBe(1);
  });

  it('a create answered after the record was marked Processing is not sent again', async () => {
    const [cat] = await queue('cat');
    // The service worker stopped between storing the answer and removing the queue entry.
    const database = await db();
    await database.put('assets', { ...(await asset(cat!.localId))!, status: 'Processing', assetId: 'asset-9' });
    await closeDb();
    expect(await drainQueue(client, () => T0)).toMatchObject({ created: 0, nextAt: null });
    expect(proxy.calls).toEqual([]);
    expect(await asset(cat!.localId)).toMatchObject({ status: 'Processing', assetId: 'asset-9' });
  });
});
