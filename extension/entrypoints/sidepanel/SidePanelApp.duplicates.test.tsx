import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { button, click, mount, unmount } from '@/components/dom-testing';
import { GRADIENT } from '@/lib/library/testing/gradient-pixels';
import { setLocale } from '@/lib/i18n/translate';
import type { SavePageMediaMessage } from '@/lib/messaging/extension-messages';
import type { PageMediaScan, RawMedia } from '@/lib/page-media/collect-page-media';
import { db } from '@/lib/storage/database';
import { assetRecord, type BrowserMocks, connect, putGroup, resetState } from '@/lib/testing/test-setup';

// Every image decodes to one gradient (happy-dom decodes none): the library's "sunset" is the same picture.
vi.mock('@/lib/library/decode-pixels', async () => (await import('@/lib/library/testing/gradient-pixels')).decodesAsGradient);

const { pixelHash } = await import('@/lib/library/image-hash');
const { SidePanelApp } = await import('@/entrypoints/sidepanel/SidePanelApp');
const HASH = pixelHash(GRADIENT)!;

const PAGE = 'https://www.example.com/gallery/';
const RAW: RawMedia[] = [
  { kind: 'img', type: 'image', src: `${PAGE}hero.jpg`, width: 1600, height: 900, alt: 'Hero' },
  { kind: 'img', type: 'image', src: `${PAGE}other.png`, width: 800, height: 600, alt: 'Other' },
  { kind: 'video', type: 'video', src: `${PAGE}clip.mp4`, width: 640, height: 360 },
];
const scan = (): PageMediaScan => ({ documentUrl: PAGE, title: 'Gallery', items: RAW, truncated: false });

let mocks: BrowserMocks;
let saves: SavePageMediaMessage[];
/** Addresses whose pixels the panel may read (the rest fail as a CORS refusal does). */
let readable: Set<string>;
const fetched: string[] = [];

beforeEach(async () => {
  mocks = await resetState();
  mocks.executeScript.mockResolvedValue([{ frameId: 0, result: scan() }]);
  saves = [];
  fetched.length = 0;
  readable = new Set([`${PAGE}hero.jpg`]);
  vi.stubGlobal('fetch', async (url: string) => {
    fetched.push(url);
    if (!readable.has(url)) throw new TypeError('Failed to fetch');
    return new Response(new Uint8Array(32), { headers: { 'content-type': 'image/jpeg' } });
  });
  fakeBrowser.runtime.onMessage.addListener((message: any, _sender, sendResponse) => {
    if (message.type !== 'arkbridge:save-page-media') return;
    saves.push(message);
    sendResponse({ results: message.items.map((_: unknown, i: number) => ({ ok: true, localId: `l${saves.length}-${i}` })) });
    return true;
  });
  await connect();
  await putGroup({ id: 'g1', name: 'Moodboard' });
  await putGroup({ id: 'g2', name: 'Shared refs', role: 'editor', owner: { id: 'm2', name: 'Ada' } });
  const database = await db();
  // The same picture as hero.jpg, at another address, in a teammate's group; and the clip, linked.
  await database.put('assets', assetRecord({ localId: 'sunset', groupId: 'g2', name: 'sunset', url: 'https://cdn.example.org/sunset.jpg', status: 'Active', pixelHash: HASH }));
  await database.put('assets', assetRecord({ localId: 'clip', groupId: 'g1', name: 'clip there', url: `${PAGE}clip.mp4`, type: 'Video', status: 'Active' }));
});

afterEach(() => {
  unmount();
  vi.unstubAllGlobals();
  void setLocale('en');
});

const tiles = () => [...document.querySelectorAll<HTMLElement>('.pm-tile')];
const tileOf = (url: string) => tiles().find((t) => t.dataset.url === url)!;
const checkbox = (name: string) => document.querySelector<HTMLInputElement>(`input[aria-label="Select ${name}"]`)!;
const warning = () => document.querySelector<HTMLElement>('[data-testid="duplicate-warning"]');

async function mountPanel() {
  mount(<SidePanelApp fixedTabId={7} />);
  await vi.waitFor(() => expect(tiles()).toHaveLength(3));
  await vi.waitFor(() => expect(document.getElementById('pm-group')).not.toBeNull());
}

describe('Side panel: near duplicates before a save', () => {
  it('warns about an image whose pixels match one in the library (another address), naming it, its group and owner; "Add anyway" saves it', async () => {
    await mountPanel();
    click(checkbox('Hero'));
    await act(async () => click(button('Save 1 to Moodboard')));
    await vi.waitFor(() => expect(warning()).not.toBeNull());
    expect(warning()!.getAttribute('role')).toBe('alertdialog');
    expect(warning()!.textContent).toContain('Hero');
    expect(warning()!.textContent).toContain('“sunset” in Shared refs (added by Ada) looks the same.');
    expect(saves).toEqual([]);
    await act(async () => click(button('Add anyway')));
    await vi.waitFor(() => expect(saves).toHaveLength(1));
    expect(saves[0]!.items.map((i) => i.url)).toEqual([`${PAGE}hero.jpg`]);
    expect(warning()).toBeNull();
  });

  it('"Open the existing one" saves nothing of it and opens that asset in the Library tab', async () => {
    await mountPanel();
    click(checkbox('Hero'));
    click(checkbox('Other'));
    await act(async () => click(button('Save 2 to Moodboard')));
    await vi.waitFor(() => expect(warning()).not.toBeNull());
    await act(async () => click(button('Open the existing one')));
    // Other is like nothing in the library: it is saved without asking.
    await vi.waitFor(() => expect(saves).toHaveLength(1));
    expect(saves[0]!.items.map((i) => i.url)).toEqual([`${PAGE}other.png`]);
    await vi.waitFor(() => expect(document.getElementById('library-asset-title')?.textContent).toContain('sunset'));
    expect(document.getElementById('ptab-library')!.getAttribute('aria-selected')).toBe('true');
    // Once: back on the page's media and to the Library again, it shows the groups.
    click(document.getElementById('ptab-page')!);
    await vi.waitFor(() => expect(tiles()).toHaveLength(3));
    click(document.getElementById('ptab-library')!);
    await vi.waitFor(() => expect(document.querySelector('[role="listbox"]')).not.toBeNull());
    expect(document.getElementById('library-asset-title')).toBeNull();
  });

  it('compares what it cannot read by normalized address, and leaves the same address in the same group to the duplicate guard', async () => {
    await mountPanel();
    click(checkbox('clip'));
    // Into the group that holds it: no question (the tile says "Already in the group").
    await act(async () => click(button('Save 1 to Moodboard')));
    await vi.waitFor(() => expect(saves).toHaveLength(1));
    expect(warning()).toBeNull();
    // Into another group: asked.
    (document.getElementById('pm-group') as HTMLSelectElement).value = 'g2';
    document.getElementById('pm-group')!.dispatchEvent(new Event('change', { bubbles: true }));
    click(checkbox('clip'));
    await act(async () => click(button('Save 1 to Shared refs')));
    await vi.waitFor(() => expect(warning()?.textContent).toContain('“clip there” in Moodboard (added by you) looks the same.'));
    await act(async () => click(button('Open the existing one')));
    await vi.waitFor(() => expect(document.getElementById('library-asset-title')?.textContent).toContain('clip there'));
    expect(saves).toHaveLength(1);
    // Videos are not fetched to be hashed.
    expect(fetched).not.toContain(`${PAGE}clip.mp4`);
  });

  it('says it is checking while the selection is compared with the library, before anything is sent', async () => {
    let release!: () => void;
    const held = new Promise<void>((done) => (release = done));
    vi.stubGlobal('fetch', async (url: string) => {
      await held;
      if (!readable.has(url)) throw new TypeError('Failed to fetch');
      return new Response(new Uint8Array(32), { headers: { 'content-type': 'image/jpeg' } });
    });
    await mountPanel();
    click(checkbox('Other'));
    await act(async () => click(button('Save 1 to Moodboard')));
    await vi.waitFor(() => expect(document.querySelector('.pm-hint[role="status"]')?.textContent).toBe('Checking the library for duplicates…'));
    expect(saves).toEqual([]);
    release();
    await vi.waitFor(() => expect(saves).toHaveLength(1));
    expect(document.querySelector('.pm-hint[role="status"]')).toBeNull();
  });

  it('marks an image already in the library by its pixels, at another address', async () => {
    await mountPanel();
    await vi.waitFor(() => expect(tileOf(`${PAGE}hero.jpg`).querySelector('[data-testid="pm-in-library"]')?.getAttribute('aria-label')).toBe('Already in the library (Shared refs)'));
    // Unreadable, and at no address in the library: not marked.
    expect(tileOf(`${PAGE}other.png`).querySelector('[data-testid="pm-in-library"]')).toBeNull();
    // The clip by its address.
    expect(tileOf(`${PAGE}clip.mp4`).querySelector('[data-testid="pm-in-library"]')).not.toBeNull();
  });

  it('asks in Simplified Chinese', async () => {
    await setLocale('zh-CN');
    await mountPanel();
    click(tileOf(`${PAGE}hero.jpg`).querySelector('input')!);
    await act(async () => click(document.querySelector<HTMLButtonElement>('.pm-save button')!));
    await vi.waitFor(() => expect(warning()).not.toBeNull());
    expect(warning()!.textContent).toContain('“Shared refs”中的“sunset”（由Ada添加）看起来相同。');
    expect(button('仍然添加')).toBeDefined();
    expect(button('打开已有的素材')).toBeDefined();
  });
});
