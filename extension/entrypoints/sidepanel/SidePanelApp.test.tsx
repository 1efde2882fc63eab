import { act } from 'preact/test-utils';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { button, byLabel, click, mount, select, text, type, unmount } from '@/components/dom-testing';
import { SidePanelApp } from '@/entrypoints/sidepanel/SidePanelApp';
import { setLocale } from '@/lib/i18n/translate';
import type { SavePageMediaMessage, SavePageMediaReply } from '@/lib/messaging/extension-messages';
import type { PageMediaScan, RawMedia } from '@/lib/page-media/collect-page-media';
import { db } from '@/lib/storage/database';
import { lastUsedGroup } from '@/lib/storage/last-used-group';
import { announceChange } from '@/lib/storage/store-changes';
import { assetRecord, type BrowserMocks, connect, putGroup, resetState } from '@/lib/testing/test-setup';

let mocks: BrowserMocks;
let saves: SavePageMediaMessage[];
let answer: (message: SavePageMediaMessage) => SavePageMediaReply;

const PAGE = 'https://www.example.com/gallery/';
const RAW: RawMedia[] = [
  { kind: 'img', type: 'image', src: `${PAGE}hero.jpg`, width: 1600, height: 900, alt: 'Hero' },
  { kind: 'img', type: 'image', src: `${PAGE}icon.png`, width: 16, height: 16 },
  { kind: 'background', type: 'image', src: `${PAGE}texture.webp` },
  { kind: 'video', type: 'video', src: `${PAGE}clip.mp4`, width: 640, height: 360 },
  { kind: 'audio', type: 'audio', src: `${PAGE}song.mp3` },
];
const scan = (items: RawMedia[] = RAW): PageMediaScan => ({ documentUrl: PAGE, title: 'Gallery', items, truncated: false });

beforeAll(async () => {
  // A save loads its duplicate check with the first save (PageMediaView): loaded here, so that the
  // waits after a click on Save do not include compiling it and what it imports, which takes over the
  // one second of vi.waitFor on a loaded machine.
  await import('@/lib/saving/near-duplicate-check');
});

beforeEach(async () => {
  mocks = await resetState();
  mocks.executeScript.mockResolvedValue([{ frameId: 0, result: scan() }]);
  saves = [];
  answer = (m) => ({ results: m.items.map((_, i) => ({ ok: true, localId: `l${saves.length}-${i}` })) });
  // The background's way: answered through sendResponse.
  fakeBrowser.runtime.onMessage.addListener((message: any, _sender, sendResponse) => {
    if (message.type !== 'arkbridge:save-page-media') return;
    saves.push(message);
    sendResponse(answer(message));
    return true;
  });
});

afterEach(() => {
  unmount();
  void setLocale('en');
});

const tiles = () => [...document.querySelectorAll<HTMLElement>('.pm-tile')];
const names = () => tiles().map((t) => t.querySelector('input')!.getAttribute('aria-label'));
const count = () => document.getElementById('pm-count')!.textContent;
const checkbox = (name: string) => document.querySelector<HTMLInputElement>(`input[aria-label="Select ${name}"]`)!;
const check = (name: string) => click(checkbox(name));
const statusOf = (name: string) => checkbox(name).closest('li')!.querySelector('.pm-status')?.textContent;

async function mountConnected(props: { fixedTabId?: number } = { fixedTabId: 7 }) {
  await connect();
  await putGroup({ id: 'g1', name: 'Moodboard' });
  await putGroup({ id: 'g2', name: 'Zebra' });
  await putGroup({ id: 'g3', name: 'Faces', type: 'LivenessFace' });
  mount(<SidePanelApp {...props} />);
  await vi.waitFor(() => expect(tiles().length).toBeGreaterThan(0));
  await vi.waitFor(() => expect(document.getElementById('pm-group')).not.toBeNull());
}

describe('Side panel: connection', () => {
  it('says it is not connected, with a way to the options page', async () => {
    mount(<SidePanelApp fixedTabId={7} />);
    await vi.waitFor(() => expect(text()).toContain("Connect Arkbridge to your team's proxy"));
    click(button('Open options'));
    expect(mocks.openOptionsPage).toHaveBeenCalled();
    expect(mocks.executeScript).not.toHaveBeenCalled();
  });
});

describe('Side panel: media on this page', () => {
  it('reads every frame of the tab and lists what it found, with type, format and size', async () => {
    await mountConnected();
    expect(mocks.executeScript).toHaveBeenCalledWith(expect.objectContaining({ target: { tabId: 7, allFrames: true } }));
    expect(names()).toEqual(['Select Hero', 'Select icon', 'Select texture', 'Select clip', 'Select song']);
    expect(count()).toBe('5 of 5 shown');
    expect(tiles()[0]!.textContent).toContain('Image · JPG · 1600 × 900');
    expect(tiles()[3]!.textContent).toContain('Video · MP4 · 640 × 360');
  });

  it('marks media already in the library by its normalized address, naming the group', async () => {
    await (await db()).put('assets', assetRecord({ localId: 'had', groupId: 'g2', url: 'https://WWW.example.com:443/gallery/hero.jpg#top', status: 'Active' }));
    await mountConnected();
    await vi.waitFor(() => expect(document.querySelectorAll('[data-testid="pm-in-library"]')).toHaveLength(1));
    const mark = tiles()[0]!.querySelector('[data-testid="pm-in-library"]')!;
    expect(mark.getAttribute('aria-label')).toBe('Already in the library (Zebra)');
  });

  it('filters by type, minimum size and format, counting what is shown', async () => {
    await mountConnected();
    click(byLabel('Images'));
    expect(names()).toEqual(['Select clip', 'Select song']);
    expect(count()).toBe('2 of 5 shown');
    click(byLabel('Images'));
    select(byLabel<HTMLSelectElement>('Min. width'), '100');
    expect(names()).toEqual(['Select Hero', 'Select texture', 'Select clip', 'Select song']);
    type(byLabel('Format or text'), 'webp');
    expect(names()).toEqual(['Select texture']);
    expect(count()).toBe('1 of 5 shown');
  });

  it('learns the size of an item from its preview', async () => {
    await mountConnected();
    const preview = checkbox('texture').closest('li')!.querySelector('img')!;
    Object.defineProperties(preview, { naturalWidth: { value: 40 }, naturalHeight: { value: 30 } });
    act(() => void preview.dispatchEvent(new Event('load')));
    expect(checkbox('texture').closest('li')!.textContent).toContain('40 × 30');
    select(byLabel<HTMLSelectElement>('Min. height'), '100');
    expect(names()).not.toContain('Select texture');
  });

  it('selects all shown and clears', async () => {
    await mountConnected();
    click(byLabel('Images'));
    click(button('Select all shown'));
    expect(text()).toContain('2 selected');
    expect(button(/^Save 2 to/).disabled).toBe(false);
    click(button('Clear'));
    expect(text()).toContain('0 selected');
    expect(button(/^Save 0 to/).disabled).toBe(true);
  });

  it('saves the selection to the last used group through the background and follows each item to Active', async () => {
    await lastUsedGroup.remember('g2');
    await mountConnected();
    // Real-person groups take no web media: not offered.
    expect([...byLabel<HTMLSelectElement>('Group').options].map((o) => o.textContent)).toEqual(['Moodboard', 'Zebra']);
    check('Hero');
    check('clip');
    await act(async () => click(button('Save 2 to Zebra')));
    await vi.waitFor(() => expect(saves).toHaveLength(1));
    expect(saves[0]).toEqual({
      type: 'arkbridge:save-page-media',
      groupId: 'g2',
      tabId: 7,
      items: [
        { url: `${PAGE}hero.jpg`, type: 'Image', name: 'Hero', frameId: 0 },
        { url: `${PAGE}clip.mp4`, type: 'Video', name: 'clip', frameId: 0 },
      ],
    });
    await vi.waitFor(() => expect(statusOf('Hero')).toBe('Queued'));
    expect(text()).toContain('2 items sent to Zebra.');

    const database = await db();
    await database.put('assets', assetRecord({ localId: 'l1-0', groupId: 'g2', status: 'Active' }));
    await database.put('assets', assetRecord({ localId: 'l1-1', groupId: 'g2', status: 'Failed', error: 'The video is too long.' }));
    announceChange('assets');
    // Both at once: the panel's read of the two records that began when the background answered may
    // still be running, and land between the two writes (Hero Active, clip not yet written: Queued)
    // before the read the announcement starts shows both.
    await vi.waitFor(() => expect({ hero: statusOf('Hero'), clip: statusOf('clip') }).toEqual({ hero: 'Active', clip: 'Failed: The video is too long.' }));
  });

  it('shows a duplicate and a refusal per item', async () => {
    await mountConnected();
    answer = () => ({ results: [{ ok: false, duplicate: true, localId: 'old', message: 'Already there' }, { ok: false, message: 'Not added: no.' }] });
    select(byLabel<HTMLSelectElement>('Group'), 'g1');
    check('Hero');
    check('song');
    await act(async () => click(button('Save 2 to Moodboard')));
    await vi.waitFor(() => expect(statusOf('Hero')).toBe('Already in the group'));
    expect(statusOf('song')).toBe('Failed: Not added: no.');
    expect(saves[0]!.groupId).toBe('g1');
  });
});

describe('Side panel: bounds, refresh and language', () => {
  it('lists a data: image too large to carry, but does not let it be selected', async () => {
    mocks.executeScript.mockResolvedValue([{ frameId: 0, result: scan([...RAW.slice(0, 1), { kind: 'img', type: 'image', src: 'data:image/png;base64,iVBOR', cut: 4 * 1024 * 1024 }]) }]);
    await mountConnected();
    const big = tiles()[1]!;
    expect(big.textContent).toContain('Embedded, 3 MB: too large to save from here; right-click it on the page.');
    expect(big.querySelector('input')!.disabled).toBe(true);
    click(button('Select all shown'));
    expect(text()).toContain('1 selected');
  });

  it('says when the page holds more than it lists', async () => {
    mocks.executeScript.mockResolvedValue([{ frameId: 0, result: { ...scan(), truncated: true } }]);
    await mountConnected();
    expect(text()).toContain('The page holds more: only the first 5 are listed.');
  });

  it('reads the page again on Refresh', async () => {
    await mountConnected();
    mocks.executeScript.mockResolvedValue([{ frameId: 0, result: scan(RAW.slice(4)) }]);
    click(button('Refresh'));
    await vi.waitFor(() => expect(names()).toEqual(['Select song']));
  });

  it('speaks Simplified Chinese', async () => {
    await setLocale('zh-CN');
    await mountConnected();
    expect(text()).toContain('此页面上的媒体');
    expect(count()).toBe('显示 5 / 5 项');
    expect(button('全选显示的项')).toBeDefined();
  });
});

describe('Side panel: access and the followed tab', () => {
  it('asks for access to the tab origin when the page cannot be read, then reads it', async () => {
    mocks.executeScript.mockRejectedValue(new Error('Cannot access contents of the page.'));
    vi.spyOn(fakeBrowser.tabs, 'get').mockResolvedValue({ id: 7, url: 'https://www.example.com/gallery/' } as any);
    const request = vi.fn(async () => true);
    Object.assign(fakeBrowser, { permissions: { ...fakeBrowser.permissions, request } });
    await connect();
    mount(<SidePanelApp fixedTabId={7} />);
    await vi.waitFor(() => expect(text()).toContain('Arkbridge may not read this page yet.'));
    expect(text()).toContain('Right-click the page and choose “Save media from this page…”.');
    mocks.executeScript.mockResolvedValue([{ frameId: 0, result: scan() }]);
    click(button('Allow access to https://www.example.com'));
    expect(request).toHaveBeenCalledWith({ origins: ['https://www.example.com/*'] });
    await vi.waitFor(() => expect(tiles()).toHaveLength(5));
  });

  it('says so for a page no extension may read', async () => {
    mocks.executeScript.mockRejectedValue(new Error('Cannot access a chrome:// URL'));
    vi.spyOn(fakeBrowser.tabs, 'get').mockResolvedValue({ id: 7, url: 'chrome://settings/' } as any);
    await connect();
    mount(<SidePanelApp fixedTabId={7} />);
    await vi.waitFor(() => expect(text()).toContain('Arkbridge cannot read this page'));
    // Nothing to do in the page's view (the header's "Open studio" aside).
    expect(document.querySelector('[role="tabpanel"] button[type="button"]')).toBeNull();
  });

  it('opens the studio in a tab from its header', async () => {
    vi.spyOn(fakeBrowser.tabs, 'get').mockResolvedValue({ id: 7, url: 'chrome://settings/' } as any);
    const create = vi.spyOn(fakeBrowser.tabs, 'create').mockResolvedValue({ id: 9 } as any);
    await connect();
    mount(<SidePanelApp fixedTabId={7} />);
    await vi.waitFor(() => document.querySelector<HTMLButtonElement>('[data-testid="open-studio"]')!.click());
    expect(create).toHaveBeenCalledWith({ url: fakeBrowser.runtime.getURL('/studio.html') });
  });

  it('follows the active tab of its window and reads a page again when it has loaded', async () => {
    const query = vi.spyOn(fakeBrowser.tabs, 'query').mockResolvedValue([{ id: 11 }] as any);
    vi.spyOn(fakeBrowser.windows, 'getCurrent').mockResolvedValue({ id: 3 } as any);
    mocks.executeScript.mockImplementation(async ({ target }: { target: { tabId: number } }) => [{ frameId: 0, result: scan(target.tabId === 11 ? RAW.slice(0, 1) : RAW.slice(3)) }]);
    await mountConnected({});
    expect(query).toHaveBeenCalledWith({ active: true, windowId: 3 });
    expect(names()).toEqual(['Select Hero']);
    await act(async () => void (await fakeBrowser.tabs.onActivated.trigger({ tabId: 12, windowId: 3 })));
    await vi.waitFor(() => expect(names()).toEqual(['Select clip', 'Select song']));
    const reads = mocks.executeScript.mock.calls.length;
    await act(async () => void (await fakeBrowser.tabs.onUpdated.trigger(12, { status: 'complete' }, { id: 12 } as any)));
    await vi.waitFor(() => expect(mocks.executeScript.mock.calls.length).toBeGreaterThan(reads));
    // A tab no longer followed is not read when it loads.
    const later = mocks.executeScript.mock.calls.length;
    await act(async () => void (await fakeBrowser.tabs.onUpdated.trigger(11, { status: 'complete' }, { id: 11 } as any)));
    expect(mocks.executeScript.mock.calls.length).toBe(later);
    // Another window's tab is not followed.
    await act(async () => void (await fakeBrowser.tabs.onActivated.trigger({ tabId: 11, windowId: 4 })));
    expect(names()).toEqual(['Select clip', 'Select song']);
  });
});
