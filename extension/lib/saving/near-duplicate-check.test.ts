import { beforeEach, describe, expect, it, vi } from 'vitest';
import { GRADIENT } from '@/lib/library/testing/gradient-pixels';
import { db } from '@/lib/storage/database';
import { assetRecord, putGroup, resetState } from '@/lib/testing/test-setup';

// Every decoded image is GRADIENT (happy-dom decodes none): its hash is the library's.
const decode = vi.hoisted(() => ({ can: true, calls: 0 }));
vi.mock('@/lib/library/decode-pixels', () => ({
  canDecodePixels: () => decode.can,
  decodePixels: async () => (decode.calls++, (await import('@/lib/library/testing/gradient-pixels')).GRADIENT),
}));

const { pixelHash } = await import('@/lib/library/image-hash');
const { cachedHashOfAddress, hashAddresses, hashOfAddress, LINK_HASH_MAX_BYTES, pageItemsNearDuplicates } = await import('@/lib/saving/near-duplicate-check');
const HASH = pixelHash(GRADIENT)!;

/** A fetch answering `body` with these headers (a stream, as the network gives it). */
function answering(body: Uint8Array, headers: Record<string, string> = { 'content-type': 'image/png' }, status = 200) {
  return vi.fn(async (_url: string | URL | Request, _init?: RequestInit) => new Response(new Blob([body as Uint8Array<ArrayBuffer>]).stream(), { status, headers }));
}

beforeEach(async () => {
  decode.can = true;
  decode.calls = 0;
  await resetState();
});

describe('hashOfAddress: a linked image hashed when the extension may read its pixels', () => {
  it('fetches it without cookies, from the cache when there, and hashes its pixels', async () => {
    const fetcher = answering(new Uint8Array(100));
    expect(await hashOfAddress('https://cdn.example.com/a.png', fetcher)).toBe(HASH);
    expect(fetcher).toHaveBeenCalledWith('https://cdn.example.com/a.png', expect.objectContaining({ credentials: 'omit', cache: 'force-cache', signal: expect.any(AbortSignal) }));
  });

  it('reads data: images too, and nothing else that is not http(s)', async () => {
    const fetcher = answering(new Uint8Array(10));
    expect(await hashOfAddress('data:image/png;base64,AAAA', fetcher)).toBe(HASH);
    for (const url of ['blob:https://x/1', 'ftp://x/a.png', 'data:text/plain,hi', 'chrome://favicon']) expect(await hashOfAddress(url, fetcher)).toBeUndefined();
    expect(fetcher).toHaveBeenCalledTimes(1);
  });

  it('fetches nothing where no pixels can be decoded', async () => {
    decode.can = false;
    const fetcher = answering(new Uint8Array(10));
    expect(await hashOfAddress('https://cdn.example.com/a.png', fetcher)).toBeUndefined();
    expect(fetcher).not.toHaveBeenCalled();
  });

  it('is bounded: a declared or actual size over the limit, a non-image, a failure or a refusal (CORS) give no hash', async () => {
    expect(await hashOfAddress('https://x/a.png', answering(new Uint8Array(10), { 'content-type': 'image/png', 'content-length': String(LINK_HASH_MAX_BYTES + 1) }))).toBeUndefined();
    expect(await hashOfAddress('https://x/a.png', answering(new Uint8Array(LINK_HASH_MAX_BYTES + 1)))).toBeUndefined();
    expect(await hashOfAddress('https://x/a.png', answering(new Uint8Array(10), { 'content-type': 'text/html' }))).toBeUndefined();
    expect(await hashOfAddress('https://x/a.png', answering(new Uint8Array(10), undefined, 404))).toBeUndefined();
    expect(await hashOfAddress('https://x/a.png', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))))).toBeUndefined();
    expect(decode.calls).toBe(0);
    // Exactly at the limit is read.
    expect(await hashOfAddress('https://x/a.png', answering(new Uint8Array(LINK_HASH_MAX_BYTES)))).toBe(HASH);
  });
});

describe('hashAddresses', () => {
  it('hashes a few at a time, each told as it comes', async () => {
    let running = 0;
    let most = 0;
    const hash = async (url: string) => {
      most = Math.max(most, ++running);
      await new Promise((done) => setTimeout(done, 5));
      running--;
      return url.endsWith('.png') ? `h-${url}` : undefined;
    };
    const told: string[] = [];
    const urls = ['1.png', '2.png', '3.mp4', '4.png', '5.png', '6.png'];
    expect(await hashAddresses(urls, hash, 10_000, (url) => told.push(url))).toEqual(['h-1.png', 'h-2.png', undefined, 'h-4.png', 'h-5.png', 'h-6.png']);
    expect(most).toBe(3);
    expect(told.sort()).toEqual([...urls].sort());
  });

  it('stops waiting at the budget: what is not hashed by then is compared by address', async () => {
    const hash = (url: string) => (url === 'slow' ? new Promise<string>(() => {}) : Promise.resolve('fast-hash'));
    expect(await hashAddresses(['fast', 'slow'], hash, 20)).toEqual(['fast-hash', undefined]);
  });

  it('asks the network once per address for the page’s life', async () => {
    const fetcher = vi.spyOn(globalThis, 'fetch').mockImplementation(answering(new Uint8Array(10)));
    try {
      expect(await cachedHashOfAddress('https://x/once.png')).toBe(HASH);
      expect(await cachedHashOfAddress('https://x/once.png')).toBe(HASH);
      expect(fetcher).toHaveBeenCalledTimes(1);
    } finally {
      fetcher.mockRestore();
    }
  });
});

describe('pageItemsNearDuplicates: the side panel’s check before a save', () => {
  beforeEach(async () => {
    await putGroup({ id: 'g1', name: 'Moodboard' });
    await putGroup({ id: 'g2', name: 'Shared refs', role: 'editor', owner: { id: 'm2', name: 'Ada' } });
    const database = await db();
    await database.put('assets', assetRecord({ localId: 'pic', groupId: 'g2', name: 'sunset', url: 'https://cdn.example.com/sunset.png', status: 'Active', pixelHash: HASH }));
    await database.put('assets', assetRecord({ localId: 'clip', groupId: 'g1', name: 'clip', url: 'https://cdn.example.com/clip.mp4', type: 'Video', status: 'Active' }));
  });

  it('finds the same picture at another address by its pixels, named with its group and owner', async () => {
    const hash = vi.fn(async () => HASH);
    const [near] = await pageItemsNearDuplicates([{ url: 'https://elsewhere.example.org/copy.png?w=800', type: 'Image' }], 'g1', hash);
    expect(near).toMatchObject({ groupName: 'Shared refs', owner: 'Ada', match: { by: 'pixels', distance: 0, asset: { localId: 'pic' } } });
  });

  it('compares by normalized address what cannot be read (a video; an unreadable image)', async () => {
    const hash = vi.fn(async (_url: string): Promise<string | undefined> => undefined);
    const nears = await pageItemsNearDuplicates(
      [
        { url: 'https://CDN.example.com:443/clip.mp4#t=3', type: 'Video' },
        { url: 'https://cdn.example.com/sunset.png', type: 'Image' },
        { url: 'https://cdn.example.com/other.png', type: 'Image' },
      ],
      'g3',
      hash,
    );
    expect(nears.map((n) => n && { id: n.match.asset.localId, by: n.match.by, group: n.groupName, owner: n.owner })).toEqual([
      { id: 'clip', by: 'address', group: 'Moodboard', owner: null },
      { id: 'pic', by: 'address', group: 'Shared refs', owner: 'Ada' },
      null,
    ]);
    // Only images are hashed.
    expect(hash.mock.calls.map(([url]) => url)).toEqual(['https://cdn.example.com/sunset.png', 'https://cdn.example.com/other.png']);
  });

  it('leaves the same address in the very group it is saved to to the duplicate guard (no warning)', async () => {
    const nears = await pageItemsNearDuplicates([{ url: 'https://cdn.example.com/sunset.png', type: 'Image' }], 'g2', async () => HASH);
    expect(nears).toEqual([null]);
    // So too when another record of that group holds the same picture at another address.
    await (await db()).put('assets', assetRecord({ localId: 'pic2', groupId: 'g1', name: 'sunset again', url: 'https://cdn.example.com/sunset-2.png', status: 'Active', pixelHash: HASH }));
    expect(await pageItemsNearDuplicates([{ url: 'https://cdn.example.com/sunset-2.png', type: 'Image' }], 'g1', async () => HASH)).toEqual([null]);
    // Another address of the same picture in that group is still asked about.
    const [other] = await pageItemsNearDuplicates([{ url: 'https://cdn.example.com/sunset-copy.png', type: 'Image' }], 'g2', async () => HASH);
    expect(other?.match.asset.localId).toBe('pic');
  });
});
