import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Browser } from 'wxt/browser';
import { GRADIENT } from '@/lib/library/testing/gradient-pixels';
import { syncSoon } from '@/lib/messaging/sync-soon';
import { db } from '@/lib/storage/database';
import type { FakeProxy } from '@/lib/testing/fake-proxy';
import { assetRecord, backgroundTestbed, type BrowserMocks, connect, putGroup, shown } from '@/lib/testing/test-setup';

// Every image decodes to one gradient (happy-dom decodes none).
vi.mock('@/lib/library/decode-pixels', async () => (await import('@/lib/library/testing/gradient-pixels')).decodesAsGradient);

const { pixelHash } = await import('@/lib/library/image-hash');
const { onMenuClick } = await import('@/lib/background/menu-click');
const HASH = pixelHash(GRADIENT)!;

const IMAGE = 'https://cdn.example.com/photos/red-fox.jpg';
const tab = { id: 7, title: 'Fox gallery', index: 0, pinned: false, highlighted: false, windowId: 1, active: true, incognito: false } as Browser.tabs.Tab;

let proxy: FakeProxy;
let mocks: BrowserMocks;
/** Whether the image host lets the background read its bytes (host access, or CORS). */
let readable: boolean;
const imageFetches: string[] = [];

beforeEach(async () => {
  ({ proxy, mocks } = await backgroundTestbed());
  readable = true;
  imageFetches.length = 0;
  // The proxy behind fetch, and the image host beside it.
  vi.stubGlobal('fetch', async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith('https://cdn.example.com/')) return proxy.fetch(input as RequestInfo, init);
    imageFetches.push(url);
    if (!readable) throw new TypeError('Failed to fetch');
    return new Response(new Uint8Array(64), { headers: { 'content-type': 'image/jpeg' } });
  });
  await connect();
  await putGroup({ id: 'g1', name: 'Moodboard', usedAt: 1 });
  await putGroup({ id: 'g2', name: 'Shared refs', role: 'editor', owner: { id: 'm2', name: 'Ada' } });
  await (await db()).put('assets', assetRecord({ localId: 'old', groupId: 'g2', name: 'sunset', url: 'https://elsewhere.example.org/sunset.png', status: 'Active', pixelHash: HASH }));
});

afterEach(async () => {
  await syncSoon();
  vi.clearAllTimers();
  vi.useRealTimers();
});

const click = async () => {
  await onMenuClick({ menuItemId: 'arkbridge-media/group:g1', editable: false, pageUrl: 'https://www.example.com/gallery/', mediaType: 'image', srcUrl: IMAGE, frameId: 0 } as Browser.contextMenus.OnClickData, tab);
  await syncSoon();
};
const added = async () => (await (await db()).getAll('assets')).find((a) => a.url === IMAGE);

describe('a linked image the background may read is hashed too', () => {
  it('keeps its hash, and tells that the same picture is already elsewhere (another address)', async () => {
    await click();
    expect(imageFetches).toEqual([IMAGE]);
    expect(await added()).toMatchObject({ groupId: 'g1', capture: { how: 'link' }, pixelHash: HASH });
    expect(shown(mocks.notify)).toContainEqual([expect.stringMatching(/^near-/), 'Saved, but it may be a duplicate', '“red fox” looks like “sunset” in Shared refs.']);
  });

  it('is linked without a hash, compared by address only, when its bytes cannot be read', async () => {
    readable = false;
    await click();
    const record = await added();
    expect(record).toMatchObject({ groupId: 'g1', capture: { how: 'link' } });
    expect(record?.pixelHash).toBeUndefined();
    expect(shown(mocks.notify).filter(([id]) => id.startsWith('near-'))).toEqual([]);
  });
});
