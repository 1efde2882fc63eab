import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { button, click, mount, text, unmount } from '@/components/dom-testing';
import { GRID_HEIGHT, GRID_ROW_HEIGHT } from '@/entrypoints/popup/library/LibraryAssets';
import { LibraryView } from '@/entrypoints/popup/library/LibraryView';
import { UNMEASURED_COLUMNS } from '@/entrypoints/popup/library/VirtualList';
import { setLocale } from '@/lib/i18n/translate';
import { readLibraryLayout } from '@/lib/library/library-layout';
import { LibraryFakeProxy } from '@/lib/library/testing/fake-library';
import { db } from '@/lib/storage/database';
import { assetRecord, connect, putGroup, resetState } from '@/lib/testing/test-setup';

/** The library's grid of thumbnails (the list's other layout). */

const COUNT = 10_000;
const realFetch = globalThis.fetch;

beforeEach(async () => {
  localStorage.clear();
  await resetState();
  await connect();
  const proxy = new LibraryFakeProxy();
  globalThis.fetch = proxy.fetch;
  proxy.seedGroup('g1', 'Cats');
  await putGroup({ id: 'g1', name: 'Cats' });
  const tx = (await db()).transaction('assets', 'readwrite');
  await tx.store.put(assetRecord({ localId: 'v', groupId: 'g1', name: 'cat video', url: 'https://cdn.example.com/cat.mp4', type: 'Video', status: 'Active', createdAt: COUNT + 3 }));
  await tx.store.put(assetRecord({ localId: 'f', groupId: 'g1', name: 'broken', status: 'Failed', error: 'HTTP 404 from cdn', createdAt: COUNT + 2 }));
  await tx.store.put(assetRecord({ localId: 'a', groupId: 'g1', name: 'purr', url: 'https://cdn.example.com/purr.mp3', type: 'Audio', status: 'Active', createdAt: COUNT + 1 }));
  for (let i = 0; i < COUNT; i++) void tx.store.put(assetRecord({ localId: `i${i}`, groupId: 'g1', name: `cat ${i}`, status: 'Active', createdAt: COUNT - i }));
  await tx.done;
});

afterEach(async () => {
  unmount();
  await setLocale('en');
  globalThis.fetch = realFetch;
});

const options = () => [...document.querySelectorAll<HTMLElement>('#library-assets [role="option"]')];

async function openGroup() {
  mount(<LibraryView />);
  await vi.waitFor(() => expect(text()).toContain('Cats'));
  click([...document.querySelectorAll<HTMLElement>('[role="option"]')].find((o) => o.textContent?.includes('Cats'))!);
  await vi.waitFor(() => expect(options().length).toBeGreaterThan(0));
  // The refresh on opening is done (nothing calls the proxy after the test).
  await vi.waitFor(() => expect(document.querySelector('.library__sync')!.textContent).toBe(''));
}

/** "Grid" chosen; its cells arrive with their chunk. */
async function showGrid() {
  click(button('Grid'));
  await vi.waitFor(() => expect(document.querySelector('#library-assets .tile')).not.toBeNull());
}

describe('Library view: grid', () => {
  it('shows thumbnails in a grid by default, the list when chosen, and remembers the choice for the next opening', async () => {
    await openGroup();
    await vi.waitFor(() => expect(document.querySelector('#library-assets .tile')).not.toBeNull());
    expect(button('Grid').getAttribute('aria-pressed')).toBe('true');
    expect(document.querySelector('.vlist--grid')).not.toBeNull();
    click(button('List'));
    expect(button('List').getAttribute('aria-pressed')).toBe('true');
    expect(document.querySelector('.vlist--grid')).toBeNull();
    expect(readLibraryLayout()).toBe('list');
    unmount();
    await openGroup();
    expect(document.querySelector('.vlist--grid')).toBeNull();
    await showGrid();
    expect(document.querySelector('.vlist--grid')).not.toBeNull();
    expect(readLibraryLayout()).toBe('grid');
  });

  it('keeps a bounded number of rows of 10,000 items in the page, loading media only for those in view', async () => {
    await openGroup();
    await showGrid();
    const rows = new Set(options().map((o) => o.dataset.row));
    expect(rows.size).toBeLessThan(20);
    expect(options().length).toBe(rows.size * UNMEASURED_COLUMNS);
    const inView = (GRID_HEIGHT / GRID_ROW_HEIGHT) * UNMEASURED_COLUMNS;
    // The first row: a video (its metadata only), a Failed image (none), audio (its metadata only).
    expect(document.querySelectorAll('#library-assets img').length).toBe(inView - 3);
    expect(document.querySelector<HTMLVideoElement>('#library-assets video')?.getAttribute('preload')).toBe('metadata');
    expect(document.querySelectorAll('#library-assets img[loading="lazy"][decoding="async"]').length).toBe(inView - 3);
    const lastWithMedia = options().filter((o) => o.querySelector('img')).at(-1)!;
    expect(Number(lastWithMedia.dataset.row)).toBe(GRID_HEIGHT / GRID_ROW_HEIGHT - 1);
  });

  it('marks video and audio with their type and non-Active items with their status', async () => {
    await openGroup();
    await showGrid();
    const tile = (name: string) => options().find((o) => o.querySelector('.tile__name')?.textContent === name)!;
    expect(tile('cat video').querySelector('.tile__type')?.textContent).toBe('▶');
    expect(tile('purr').querySelector('.tile__type')?.textContent).toBe('♪');
    expect(tile('broken').querySelector('.chip')?.textContent).toBe('Failed');
    expect(tile('broken').textContent).toContain('HTTP 404 from cdn');
    expect(tile('cat 0').querySelector('.chip')).toBeNull();
  });

  it('opens the same detail as a list row', async () => {
    await openGroup();
    await showGrid();
    click(options().find((o) => o.textContent?.includes('purr'))!);
    await vi.waitFor(() => expect(document.getElementById('library-asset-title')?.textContent).toContain('purr'));
  });
});
