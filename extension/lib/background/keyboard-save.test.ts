import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Browser } from 'wxt/browser';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import background from '@/entrypoints/background';
import { syncSoon } from '@/lib/messaging/sync-soon';
import { onCommand } from '@/lib/background/keyboard-save';
import { addAsset, onMenuClick } from '@/lib/background/menu-click';
import { type PageSurvey, surveyPage } from '@/lib/background/pointed-media';
import { findMediaElement } from '@/lib/capture/probe-element';
import { db } from '@/lib/storage/database';
import { groupStore } from '@/lib/storage/group-store';
import { lastUsedGroup } from '@/lib/storage/last-used-group';
import { FakeProxy } from '@/lib/testing/fake-proxy';
import { backgroundTestbed, type BrowserMocks, connect, putGroup, shown } from '@/lib/testing/test-setup';

let proxy: FakeProxy;
let mocks: BrowserMocks;

const PAGE = 'https://www.example.com/gallery/';
const IMAGE = 'https://cdn.example.com/photos/red-fox.jpg';
const tab = { id: 7, title: 'Fox gallery', index: 0, pinned: false, highlighted: false, windowId: 1, active: true, incognito: false } as Browser.tabs.Tab;

const survey = (over: Partial<PageSurvey> = {}): PageSurvey => ({ pointed: null, largest: null, ogImage: null, documentUrl: PAGE, ...over });

/**
 * What the page answers: `frames` to the survey (one result per frame, as with allFrames), `probe`
 * to the context menu's element probe. Answers the calls made, to check where they ran.
 */
function page(frames: { frameId: number; result: PageSurvey }[] | Error, probe: object | null = null, { allFrames = true } = {}) {
  mocks.executeScript.mockImplementation(async (injection: { func: unknown; target: { allFrames?: boolean } }) => {
    if (injection.func === surveyPage) {
      if (frames instanceof Error) throw frames;
      if (injection.target.allFrames && !allFrames) throw new Error('Cannot access contents of url "https://ads.example.com/frame". Extension manifest must request permission to access this host.');
      return frames;
    }
    if (injection.func === findMediaElement) return [{ frameId: 0, result: probe }];
    throw new Error('unexpected script');
  });
}

/** The command fired in `tab`, then the sync pass it started (the handler does not wait for it). */
async function press(command = 'save-to-last-group'): Promise<void> {
  await onCommand(command, tab);
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

describe('the last used group', () => {
  it('is the group of the last save, from the context menu or the new-group window, duplicate or not', async () => {
    await connect();
    await putGroup({ id: 'g1', name: 'Moodboard' });
    await putGroup({ id: 'g2', name: 'Foxes' });
    expect(await lastUsedGroup.id()).toBeNull();
    await onMenuClick({ menuItemId: 'arkbridge-media/group:g1', editable: false, pageUrl: PAGE, mediaType: 'image', srcUrl: IMAGE, frameId: 0 } as Browser.contextMenus.OnClickData, tab);
    expect(await lastUsedGroup.id()).toBe('g1');
    // The new-group window adds through the background's addAsset (arkbridge:add).
    await addAsset({ groupId: 'g2', url: IMAGE, name: 'fox', type: 'Image' });
    expect(await lastUsedGroup.id()).toBe('g2');
    await addAsset({ groupId: 'g1', url: IMAGE, name: 'fox', type: 'Image' });
    expect(shown(mocks.notify).at(-1)?.[1]).toBe('Already in your library');
    expect(await lastUsedGroup.id()).toBe('g1');
    await syncSoon();
  });
});

describe('the keyboard save', () => {
  it('says to connect first, and reads nothing from the page', async () => {
    await press();
    expect(shown(mocks.notify)).toEqual([['arkbridge-connect', 'Connect Arkbridge first', expect.any(String)]]);
    await connect({ needsReconnect: true });
    await press();
    expect(shown(mocks.notify)[1]).toEqual(['arkbridge-reconnect', 'Arkbridge needs you to reconnect', expect.any(String)]);
    expect(mocks.executeScript).not.toHaveBeenCalled();
    expect(await assets()).toEqual([]);
  });

  it('saves to the default group when no group was used yet, or the last one is gone; makes none for nothing', async () => {
    await connect();
    await putGroup({ id: 'g1', name: 'Moodboard' });
    // Nothing to save: no group is made.
    page([{ frameId: 0, result: survey({ largest: { src: 'https://cdn.example.com/favicon.png', area: 32 * 32 } }) }]);
    await press();
    expect(shown(mocks.notify).map(([, title]) => title)).toEqual(['Nothing to save here']);
    expect(proxy.callsOf('CreateAssetGroup')).toEqual([]);

    // No group used yet: "Web captures" is made, becomes the default, and the item goes there.
    page([{ frameId: 0, result: survey({ pointed: { tag: 'img', src: IMAGE } }) }]);
    await press();
    expect(proxy.callsOf('CreateAssetGroup').map((c) => c.body)).toEqual([{ Name: 'Web captures', Description: expect.any(String) }]);
    const made = await groupStore.defaultId();
    expect(await groupStore.get(made!)).toMatchObject({ name: 'Web captures' });
    expect(await assets()).toMatchObject([{ url: IMAGE, groupId: made }]);
    expect(shown(mocks.notify).at(-1)?.[1]).toBe('Saved to Web captures');
    expect(await lastUsedGroup.id()).toBe(made);

    // The last used group is gone: the default group again (not made twice).
    await lastUsedGroup.remember('g1');
    await groupStore.removeWithAssets('g1');
    page([{ frameId: 0, result: survey({ pointed: { tag: 'audio', src: 'https://cdn.example.com/song.mp3' } }) }]);
    await press();
    expect(proxy.callsOf('CreateAssetGroup')).toHaveLength(1);
    expect((await assets()).map((a) => a.groupId)).toEqual([made, made]);
    expect(shown(mocks.notify).at(-1)?.[1]).toBe('Saved to Web captures');
  });

  it('says why when the default group cannot be made, and saves nothing', async () => {
    await connect();
    proxy.failNext('CreateAssetGroup', { kind: 'status', status: 400, code: 'ValidationError', message: 'Name: must be 1 to 64 characters' });
    page([{ frameId: 0, result: survey({ pointed: { tag: 'img', src: IMAGE } }) }]);
    await press();
    expect(shown(mocks.notify)).toEqual([['arkbridge-group', 'Could not create the default group', 'Group name: must be 1 to 64 characters']]);
    expect(await assets()).toEqual([]);
  });

  it('saves the media under the pointer to the last used group, through the context menu’s path', async () => {
    await connect();
    await putGroup({ id: 'g1', name: 'Moodboard' });
    await putGroup({ id: 'g2', name: 'Foxes' });
    await lastUsedGroup.remember('g2');
    page(
      [
        { frameId: 0, result: survey({ largest: { src: 'https://cdn.example.com/hero.jpg', area: 500_000 } }) },
        { frameId: 3, result: survey({ pointed: { tag: 'img', src: IMAGE }, documentUrl: 'https://frames.example.com/embed/' }) },
      ],
      { tag: 'img', currentSrc: IMAGE, srcset: 'fox-400.jpg 400w, fox-1600.jpg 1600w', alt: 'A red fox in the snow' },
    );
    await press();

    expect(mocks.executeScript).toHaveBeenCalledWith(expect.objectContaining({ target: { tabId: 7, allFrames: true }, func: surveyPage }));
    // The element is read again as the menu reads it, in its frame: its largest srcset candidate, its alt.
    expect(mocks.executeScript).toHaveBeenCalledWith(expect.objectContaining({ target: { tabId: 7, frameIds: [3] }, func: findMediaElement }));
    const [record] = await assets();
    expect(record).toMatchObject({ groupId: 'g2', url: 'https://frames.example.com/embed/fox-1600.jpg', name: 'A red fox in the snow', type: 'Image', status: 'Processing' });
    expect(proxy.callsOf('CreateAsset').map((c) => c.idempotencyKey)).toEqual([record!.idempotencyKey]);
    expect(shown(mocks.notify)).toEqual([['arkbridge-keyboard', 'Saved to Foxes', 'A red fox in the snow (image) is being added. Arkbridge tells you when it is ready.']]);
    expect(await lastUsedGroup.id()).toBe('g2');

    // Again: the same item is not added twice (the queue's duplicate guard).
    await press();
    expect(await assets()).toHaveLength(1);
    expect(shown(mocks.notify).at(-1)).toEqual([expect.stringMatching(/^dup-/), 'Already in your library', 'A red fox in the snow is already being added to Foxes.']);
  });

  it('saves the page’s main image when nothing is under the pointer: the largest in view, else og:image', async () => {
    await connect();
    await putGroup({ id: 'g1', name: 'Moodboard' });
    await lastUsedGroup.remember('g1');
    page([{ frameId: 0, result: survey({ largest: { src: 'https://cdn.example.com/hero.jpg', area: 640 * 480 }, ogImage: 'https://cdn.example.com/og.jpg' }) }]);
    await press();
    page([{ frameId: 0, result: survey({ largest: { src: 'https://cdn.example.com/favicon.png', area: 32 * 32 }, ogImage: 'https://cdn.example.com/share/og-cover.jpg' }) }]);
    await press();
    expect((await assets()).map((a) => [a.url, a.name, a.groupId]).sort()).toEqual([
      ['https://cdn.example.com/hero.jpg', 'hero', 'g1'],
      ['https://cdn.example.com/share/og-cover.jpg', 'og cover', 'g1'],
    ]);
    expect(shown(mocks.notify).map(([, title]) => title)).toEqual(['Saved to Moodboard', 'Saved to Moodboard']);
  });

  it('says so when nothing is found, or the page cannot be read', async () => {
    await connect();
    await putGroup({ id: 'g1', name: 'Moodboard' });
    await lastUsedGroup.remember('g1');
    page([{ frameId: 0, result: survey({ largest: { src: 'https://cdn.example.com/favicon.png', area: 32 * 32 } }) }]);
    await press();
    expect(shown(mocks.notify)).toEqual([['arkbridge-keyboard', 'Nothing to save here', expect.stringContaining('No image, video or audio under the pointer')]]);
    page(new Error('Cannot access contents of the page'));
    await press();
    expect(shown(mocks.notify)[1]).toEqual(['arkbridge-keyboard', 'Nothing to save here', expect.stringContaining('cannot read this page')]);
    expect(await assets()).toEqual([]);
    expect(proxy.calls).toEqual([]);
  });

  it('reads the top frame alone when a frame out of reach fails the reading of all frames', async () => {
    await connect();
    await putGroup({ id: 'g1', name: 'Moodboard' });
    await lastUsedGroup.remember('g1');
    page([{ frameId: 0, result: survey({ pointed: { tag: 'img', src: IMAGE } }) }], null, { allFrames: false });
    await press();
    expect(mocks.executeScript).toHaveBeenCalledWith(expect.objectContaining({ target: { tabId: 7 }, func: surveyPage }));
    expect(await assets()).toMatchObject([{ url: IMAGE, name: 'red fox', groupId: 'g1' }]);
  });

  it('explains an address that cannot be added, as the context menu does', async () => {
    await connect();
    await putGroup({ id: 'g1' });
    await lastUsedGroup.remember('g1');
    page([{ frameId: 0, result: survey({ pointed: { tag: 'video', src: 'blob:https://www.example.com/8c9a-4f1e' } }) }]);
    await press();
    const [[id, title, message]] = shown(mocks.notify) as [[string, string, string]];
    expect([id, title]).toEqual(['arkbridge-url', 'This item cannot be added']);
    expect(message).toMatch(/blob:/);
    expect(await assets()).toEqual([]);
  });

  it('uses the active tab when the command comes without one, and ignores other commands', async () => {
    await connect();
    await putGroup({ id: 'g1', name: 'Moodboard' });
    await lastUsedGroup.remember('g1');
    const win = await fakeBrowser.windows.create({ focused: true });
    await fakeBrowser.tabs.create({ url: 'https://www.example.com/other/', windowId: win!.id });
    const active = await fakeBrowser.tabs.create({ url: PAGE, active: true, windowId: win!.id });
    page([{ frameId: 0, result: survey({ pointed: { tag: 'audio', src: 'https://cdn.example.com/song.mp3' } }) }]);
    await press('some-other-command');
    expect(mocks.executeScript).not.toHaveBeenCalled();
    await onCommand('save-to-last-group');
    await syncSoon();
    expect(mocks.executeScript).toHaveBeenCalledWith(expect.objectContaining({ target: { tabId: active.id, allFrames: true } }));
    expect(await assets()).toMatchObject([{ url: 'https://cdn.example.com/song.mp3', type: 'Audio', groupId: 'g1' }]);
  });

  it('is wired to the browser’s command event', async () => {
    await connect();
    background.main();
    await (fakeBrowser.commands.onCommand as unknown as { trigger: (command: string, tab?: Browser.tabs.Tab) => Promise<unknown> }).trigger('save-to-last-group', tab);
    // The page is read: no script can run in the fake browser, so it says the page cannot be read.
    await vi.waitFor(() => expect(shown(mocks.notify)).toEqual([['arkbridge-keyboard', 'Nothing to save here', expect.any(String)]]));
  });
});
