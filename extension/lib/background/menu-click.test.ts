import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Browser } from 'wxt/browser';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { ALARM } from '@/lib/background/background-sync';
import { addAsset, kindOf, onMenuClick } from '@/lib/background/menu-click';
import { NAME_TEXT_MAX } from '@/lib/capture/choose-name';
import { SRCSET_MAX } from '@/lib/capture/pick-source';
import { findMediaElement } from '@/lib/capture/probe-element';
import { fakeScreen, type ScreenFakes } from '@/lib/capture/testing/snapshot-fakes';
import { grabVideoFrame } from '@/lib/capture/video-frame';
import { syncSoon } from '@/lib/messaging/sync-soon';
import { db } from '@/lib/storage/database';
import { lastUsedGroup } from '@/lib/storage/last-used-group';
import { FakeProxy } from '@/lib/testing/fake-proxy';
import { backgroundTestbed, type BrowserMocks, connect, putGroup, shown } from '@/lib/testing/test-setup';

let proxy: FakeProxy;
let mocks: BrowserMocks;

const IMAGE = 'https://cdn.example.com/photos/red-fox.jpg';
const tab = { id: 7, title: 'Fox gallery', index: 0, pinned: false, highlighted: false, windowId: 1, active: true, incognito: false } as Browser.tabs.Tab;

/** A menu click, then the sync pass it started (the handler does not wait for it). */
async function click(menuItemId: string, over: Partial<Browser.contextMenus.OnClickData> = {}): Promise<void> {
  await onMenuClick({ menuItemId, editable: false, pageUrl: 'https://www.example.com/gallery/', mediaType: 'image', srcUrl: IMAGE, frameId: 0, ...over } as Browser.contextMenus.OnClickData, tab);
  await syncSoon();
}

const assets = async () => (await db()).getAll('assets');

beforeEach(async () => {
  ({ proxy, mocks } = await backgroundTestbed());
});

afterEach(async () => {
  await syncSoon(); // no pass may outlive its test
  vi.clearAllTimers();
  vi.useRealTimers();
});

describe('kindOf', () => {
  it('takes the menu media type', () => {
    expect(kindOf({ mediaType: 'image' })).toBe('Image');
    expect(kindOf({ mediaType: 'video' })).toBe('Video');
    expect(kindOf({ mediaType: 'audio' })).toBe('Audio');
  });

  it('recognizes media links by their file ending', () => {
    expect(kindOf({ linkUrl: 'https://cdn.example.com/a.JPG' })).toBe('Image');
    expect(kindOf({ linkUrl: 'https://cdn.example.com/a.webp?w=200' })).toBe('Image');
    expect(kindOf({ linkUrl: 'https://cdn.example.com/clip.mp4#t=10' })).toBe('Video');
    expect(kindOf({ linkUrl: 'https://cdn.example.com/song.mp3' })).toBe('Audio');
    expect(kindOf({ linkUrl: 'https://www.example.com/article.html' })).toBeNull();
    expect(kindOf({ linkUrl: 'https://www.example.com/jpg/about' })).toBeNull();
    expect(kindOf({})).toBeNull();
  });
});

describe('onMenuClick', () => {
  it('opens the side panel on the tab from "Save media from this page…", connected or not', async () => {
    const open = vi.fn(async (_options: { tabId?: number }) => {});
    Object.assign(fakeBrowser, { sidePanel: { open } });
    const connected = vi.spyOn(fakeBrowser.storage.local, 'get');
    try {
      // Not connected: the panel says how to connect, so it opens anyway.
      await onMenuClick({ menuItemId: 'arkbridge-page-media', editable: false, pageUrl: 'https://www.example.com/' } as Browser.contextMenus.OnClickData, tab);
      expect(open).toHaveBeenCalledWith({ tabId: 7 });
      expect(connected).not.toHaveBeenCalled();
      expect(mocks.openOptionsPage).not.toHaveBeenCalled();
      expect(await assets()).toEqual([]);
    } finally {
      Object.assign(fakeBrowser, { sidePanel: undefined });
    }
  });

  it('opens the options page when not connected', async () => {
    await click('arkbridge-media/group:g1');
    expect(mocks.openOptionsPage).toHaveBeenCalledTimes(1);
    expect(shown(mocks.notify)).toEqual([['arkbridge-connect', 'Connect Arkbridge first', expect.any(String)]]);
    expect(await assets()).toEqual([]);
  });

  it('opens the options page when the token must be reconnected, or from the connect item', async () => {
    await connect({ needsReconnect: true });
    await click('arkbridge-media/group:g1');
    await connect();
    await click('arkbridge-media/connect');
    expect(mocks.openOptionsPage).toHaveBeenCalledTimes(2);
    expect(await assets()).toEqual([]);
    expect(proxy.calls).toEqual([]);
  });

  // Such items are read in the page and uploaded (capture-upload.test.ts); here the page cannot be read.
  it.each([
    ['blob:https://www.example.com/8c9a-4f1e', /blob:/],
    ['http://cdn.example.com/fox.jpg', /http:\/\//],
  ])('tells why %s cannot be added when the page cannot be read, and records nothing', async (srcUrl, reason) => {
    await connect();
    await click('arkbridge-media/group:g1', { srcUrl });
    const [[id, title, message]] = shown(mocks.notify) as [[string, string, string]];
    expect([id, title]).toEqual(['arkbridge-url', 'This item cannot be added']);
    expect(message).toMatch(reason);
    expect(await assets()).toEqual([]);
    expect(proxy.calls).toEqual([]);
  });

  it('accepts http media when the proxy allows it', async () => {
    await connect({ allowHttpMedia: true });
    proxy.allowHttpMedia = true;
    await putGroup({ id: 'g1' });
    await click('arkbridge-media/group:g1', { srcUrl: 'http://127.0.0.1:8080/fox.jpg' });
    expect(await assets()).toMatchObject([{ url: 'http://127.0.0.1:8080/fox.jpg', status: 'Processing' }]);
  });

  it('refuses a link that is not a media file', async () => {
    await connect();
    await click('arkbridge-link/group:g1', { mediaType: undefined, srcUrl: undefined, linkUrl: 'https://www.example.com/page.html' });
    expect(shown(mocks.notify)).toEqual([['arkbridge-kind', 'Not a media file', expect.any(String)]]);
    expect(await assets()).toEqual([]);
  });

  it('records a valid image in the chosen group and syncs it', async () => {
    await connect();
    await putGroup({ id: 'g1', name: 'Moodboard', usedAt: 1 });
    await click('arkbridge-media/group:g1');

    const [first, ...then] = proxy.actions();
    expect(first).toBe('CreateAsset');
    expect(new Set(then)).toEqual(new Set(['ListAssets']));
    const [record] = await assets();
    expect(record).toMatchObject({ groupId: 'g1', url: IMAGE, name: 'red fox', type: 'Image', status: 'Processing', assetId: expect.any(String) });
    expect(proxy.calls[0]!.idempotencyKey).toBe(record!.idempotencyKey);
    expect(await fakeBrowser.alarms.get(ALARM)).toBeDefined();
    expect(await fakeBrowser.action.getBadgeText({})).toBe('1');
    // The group moved up in "recent groups": the menu was rebuilt.
    expect((await (await db()).get('groups', 'g1'))!.usedAt).toBeGreaterThan(1);
    expect(mocks.removeAll).toHaveBeenCalled();
  });

  it('keeps the record Queued when the proxy cannot be reached', async () => {
    await connect();
    await putGroup({ id: 'g1' });
    proxy.failNext('CreateAsset', { kind: 'network' });
    await click('arkbridge-media/group:g1');
    expect(await assets()).toMatchObject([{ url: IMAGE, status: 'Queued' }]);
    expect(await (await db()).count('queue')).toBe(1);
  });

  it('adds the largest srcset candidate, named from the element', async () => {
    await connect();
    await putGroup({ id: 'g1' });
    mocks.executeScript.mockResolvedValue([
      { result: { tag: 'img', currentSrc: IMAGE, srcset: 'fox-400.jpg 400w, fox-1600.jpg 1600w', alt: 'A red fox in the snow' } },
    ]);
    await click('arkbridge-media/group:g1', { frameId: 3, frameUrl: 'https://frames.example.com/embed/' });
    expect(mocks.executeScript).toHaveBeenCalledWith(expect.objectContaining({ target: { tabId: 7, frameIds: [3] }, args: [IMAGE, SRCSET_MAX, NAME_TEXT_MAX] }));
    expect(await assets()).toMatchObject([{ url: 'https://frames.example.com/embed/fox-1600.jpg', name: 'A red fox in the snow' }]);
  });

  it('falls back to the menu address when the page cannot be scripted', async () => {
    await connect();
    await putGroup({ id: 'g1' });
    mocks.executeScript.mockRejectedValue(new Error('Cannot access contents of the page'));
    await click('arkbridge-media/group:g1');
    expect(await assets()).toMatchObject([{ url: IMAGE, name: 'red fox' }]);
  });

  it('adds the link target from "Add linked media", even when the link wraps an image', async () => {
    await connect();
    await putGroup({ id: 'g1' });
    await click('arkbridge-link/group:g1', { srcUrl: 'https://cdn.example.com/thumb.jpg', linkUrl: 'https://cdn.example.com/full/fox.mp4' });
    // No element to probe (only the check without cookies, capture-plan).
    expect(mocks.executeScript).not.toHaveBeenCalledWith(expect.objectContaining({ func: findMediaElement }));
    expect(await assets()).toMatchObject([{ url: 'https://cdn.example.com/full/fox.mp4', type: 'Video', name: 'fox' }]);
  });

  it('tells about a duplicate instead of creating it again', async () => {
    await connect();
    await putGroup({ id: 'g1', name: 'Moodboard' });
    await click('arkbridge-media/group:g1');
    await click('arkbridge-media/group:g1');
    expect(proxy.callsOf('CreateAsset')).toHaveLength(1);
    const [record] = await assets();
    expect(shown(mocks.notify)).toEqual([[`dup-${record!.localId}`, 'Already in your library', 'red fox is already being added to Moodboard.']]);
  });

  it('creates the default group once, with a stored Idempotency-Key, and adds to it', async () => {
    await connect();
    proxy.failNext('CreateAssetGroup', { kind: 'network' });
    await click('arkbridge-media/create-default');
    expect(shown(mocks.notify)).toEqual([['arkbridge-group', 'Could not create the default group', expect.stringMatching(/Cannot reach the proxy/)]]);
    expect(await assets()).toEqual([]);

    await click('arkbridge-media/create-default');
    const groupCalls = proxy.callsOf('CreateAssetGroup');
    expect(groupCalls).toHaveLength(2);
    expect(groupCalls[1]!.idempotencyKey).toBe(groupCalls[0]!.idempotencyKey);
    expect(groupCalls[1]!.body).toEqual({ Name: 'Web captures', Description: expect.any(String) });
    const database = await db();
    const defaultGroupId = (await database.get('settings', 'defaultGroupId')) as string;
    expect(await database.get('groups', defaultGroupId)).toMatchObject({ name: 'Web captures', type: 'AIGC' });
    expect(await assets()).toMatchObject([{ groupId: defaultGroupId, url: IMAGE }]);

    // A second click before the menu was rebuilt reuses the group.
    await click('arkbridge-media/create-default', { srcUrl: 'https://cdn.example.com/owl.jpg' });
    expect(proxy.callsOf('CreateAssetGroup')).toHaveLength(2);
    expect((await assets()).map((a) => a.groupId)).toEqual([defaultGroupId, defaultGroupId]);

    // The default group deleted elsewhere: a new one is created with a new key, not a replay.
    await database.delete('groups', defaultGroupId);
    await click('arkbridge-media/create-default', { srcUrl: 'https://cdn.example.com/bat.jpg' });
    const [, , third] = proxy.callsOf('CreateAssetGroup');
    expect(third!.idempotencyKey).not.toBe(groupCalls[0]!.idempotencyKey);
    expect(await database.get('settings', 'defaultGroupId')).not.toBe(defaultGroupId);
  });

  it('opens the new-group page with the item to add', async () => {
    await connect();
    const create = vi.spyOn(fakeBrowser.windows, 'create').mockResolvedValue({} as never);
    await click('arkbridge-media/new-group');
    const url = new URL(create.mock.calls[0]![0]!.url as string);
    expect(url.pathname).toBe('/newgroup.html');
    expect(Object.fromEntries(url.searchParams)).toEqual({ url: IMAGE, name: 'red fox', type: 'Image', pageTitle: 'Fox gallery' });
    expect(await assets()).toEqual([]);
  });
});

describe('addAsset', () => {
  it('answers ok and syncs a new item (the new-group page)', async () => {
    await connect();
    await putGroup({ id: 'g1' });
    expect(await addAsset({ groupId: 'g1', url: IMAGE, name: 'Fox', type: 'Image' })).toEqual({ ok: true, localId: expect.any(String) });
    await syncSoon();
    expect(await assets()).toMatchObject([{ name: 'Fox', status: 'Processing' }]);
  });

  it('tells that an Active asset is already in the group', async () => {
    await connect();
    await putGroup({ id: 'g1', name: 'Moodboard' });
    await (await db()).put('assets', {
      localId: 'old',
      groupId: 'g1',
      name: 'Fox',
      url: IMAGE,
      type: 'Image',
      status: 'Active',
      idempotencyKey: 'k',
      notified: true,
      createdAt: 1,
      updatedAt: 1,
    });
    expect(await addAsset({ groupId: 'g1', url: IMAGE, name: 'Fox', type: 'Image' })).toEqual({ ok: false, message: 'Fox is already in Moodboard.', duplicateOf: 'old' });
    expect(shown(mocks.notify)).toEqual([['dup-old', 'Already in your library', 'Fox is already in Moodboard.']]);
    expect(proxy.calls).toEqual([]);
  });

  it('answers a duplicate without a notification when the caller shows it (the side panel)', async () => {
    await connect();
    await putGroup({ id: 'g1', name: 'Moodboard' });
    await (await db()).put('assets', { localId: 'old', groupId: 'g1', name: 'Fox', url: IMAGE, type: 'Image', status: 'Processing', idempotencyKey: 'k', notified: false, createdAt: 1, updatedAt: 1 });
    expect(await addAsset({ groupId: 'g1', url: IMAGE, name: 'Fox', type: 'Image' }, false)).toMatchObject({ ok: false, duplicateOf: 'old' });
    expect(shown(mocks.notify)).toEqual([]);
    expect(await assets()).toHaveLength(1);
  });
});

describe('onMenuClick: screenshots and frames', () => {
  let screen: ScreenFakes;
  const page = { editable: false, pageUrl: 'https://www.example.com/gallery/', frameId: 0 };

  beforeEach(() => {
    // Stubs createImageBitmap and OffscreenCanvas (not in happy-dom) for the rest of this file.
    screen = fakeScreen(1280, 720);
  });

  const capture = async (menuItemId: string, over: Partial<Browser.contextMenus.OnClickData> = {}) => {
    await onMenuClick({ menuItemId, ...page, ...over } as Browser.contextMenus.OnClickData, tab);
    await syncSoon();
  };

  it('says to connect first, and captures nothing, when not connected', async () => {
    await capture('arkbridge-capture-visible');
    expect(shown(mocks.notify)).toEqual([['arkbridge-connect', 'Connect Arkbridge first', expect.any(String)]]);
    expect(mocks.openOptionsPage).toHaveBeenCalledTimes(1);
    expect(screen.capture).not.toHaveBeenCalled();
  });

  it('adds the visible area to the last used group as a screenshot named by the page, and says where', async () => {
    await connect();
    await putGroup({ id: 'g1', name: 'Moodboard' });
    await lastUsedGroup.remember('g1');
    await capture('arkbridge-capture-visible');
    expect(screen.capture).toHaveBeenCalledWith(1, { format: 'png' });
    const [record] = await assets();
    expect(record).toMatchObject({ groupId: 'g1', type: 'Image', name: expect.stringMatching(/^Screenshot of Fox gallery \d{4}-\d\d-\d\d \d\d:\d\d$/), capture: { how: 'upload', reason: 'screenshot' } });
    expect(shown(mocks.notify)).toEqual([['arkbridge-snapshot', 'Saved to Moodboard', `${record!.name} is being added. Arkbridge tells you when it is ready.`]]);
  });

  it('adds to the default group (made once) when no group was used yet, or it is gone', async () => {
    await connect();
    await lastUsedGroup.remember('deleted');
    await capture('arkbridge-capture-visible');
    const defaultGroupId = (await (await db()).get('settings', 'defaultGroupId')) as string;
    expect(proxy.callsOf('CreateAssetGroup')).toHaveLength(1);
    expect(await assets()).toMatchObject([{ groupId: defaultGroupId }]);
    expect(shown(mocks.notify).at(-1)).toEqual(['arkbridge-snapshot', 'Saved to Web captures', expect.any(String)]);
  });

  it('crops a region the member dragged, and captures nothing when they cancel', async () => {
    await connect();
    await putGroup({ id: 'g1' });
    await lastUsedGroup.remember('g1');
    mocks.executeScript.mockResolvedValueOnce([{ result: null }]);
    await capture('arkbridge-capture-region');
    expect(screen.capture).not.toHaveBeenCalled();
    expect(shown(mocks.notify)).toEqual([]);

    mocks.executeScript.mockResolvedValueOnce([{ result: { x: 10, y: 20, width: 30, height: 40, dpr: 2, viewportWidth: 640 } }]);
    await capture('arkbridge-capture-region');
    // The crop first; then the picture scaled down for its perceptual hash (decode-pixels).
    expect(screen.crops[0]).toEqual({ sx: 20, sy: 40, sw: 60, sh: 80, canvas: [60, 80] });
    expect(await assets()).toMatchObject([{ groupId: 'g1', capture: { reason: 'screenshot' } }]);
  });

  it('adds the frame of the clicked video, named by the video and its time', async () => {
    await connect();
    await putGroup({ id: 'g1' });
    await lastUsedGroup.remember('g1');
    mocks.executeScript.mockResolvedValueOnce([{ result: { kind: 'tainted', name: 'Launch trailer', time: 72.3, rect: { x: 0, y: 0, width: 320, height: 180 }, dpr: 1, viewportWidth: 1280 } }]);
    await capture('arkbridge-capture-frame', { mediaType: 'video', srcUrl: 'https://cdn.example.com/trailer.mp4' });
    expect(mocks.executeScript).toHaveBeenCalledWith(expect.objectContaining({ func: grabVideoFrame, target: { tabId: 7, frameIds: [0] } }));
    expect(await assets()).toMatchObject([{ name: 'Frame of Launch trailer at 1:12', capture: { reason: 'frame' } }]);
  });

  it('says why nothing was captured', async () => {
    await connect();
    screen.capture.mockRejectedValueOnce(new Error('Cannot access contents of url "chrome://newtab/".'));
    await capture('arkbridge-capture-visible');
    expect(shown(mocks.notify)).toEqual([['arkbridge-snapshot', 'Nothing captured', expect.stringMatching(/^This page cannot be captured/)]]);
    expect(await assets()).toEqual([]);
    expect(proxy.callsOf('CreateAssetGroup')).toEqual([]);
  });
});
