import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { button, byLabel, click, mount, select, text, unmount } from '@/components/dom-testing';
import { LibraryView } from '@/entrypoints/popup/library/LibraryView';
import { setLocale } from '@/lib/i18n/translate';
import { LibraryFakeProxy } from '@/lib/library/testing/fake-library';
import { db } from '@/lib/storage/database';
import { lastUsedGroup } from '@/lib/storage/last-used-group';
import type { AssetRecord } from '@/lib/storage/records/asset-record';
import { pngBytes, svgBytes } from '@/lib/testing/media-bytes';
import { connect, putGroup, resetState } from '@/lib/testing/test-setup';

/** Files dropped or picked onto the Library view become its items. */

const realFetch = globalThis.fetch;

beforeEach(async () => {
  localStorage.clear();
  await resetState();
  await connect();
  const proxy = new LibraryFakeProxy();
  globalThis.fetch = proxy.fetch;
  proxy.seedGroup('g1', 'Cats');
  proxy.seedGroup('g2', 'Dogs');
  await putGroup({ id: 'g1', name: 'Cats' });
  await putGroup({ id: 'g2', name: 'Dogs' });
});

afterEach(async () => {
  unmount();
  await setLocale('en');
  globalThis.fetch = realFetch;
});

const assets = async (): Promise<AssetRecord[]> => (await db()).getAll('assets');
const png = (name: string) => new File([pngBytes()], name, { type: 'image/png' });
const options = () => [...document.querySelectorAll<HTMLElement>('[role="option"]')];
const row = (name: string) => options().find((o) => o.textContent?.includes(name))!;

function drop(target: Element, files: File[]) {
  for (const type of ['dragenter', 'dragover', 'drop']) {
    const event = new Event(type, { bubbles: true, cancelable: true });
    Object.defineProperty(event, 'dataTransfer', { value: { types: ['Files'], files, dropEffect: 'none' } });
    act(() => void target.dispatchEvent(event));
  }
}

/** "Add files…" clicked (its picker arrives with the files chunk and opens), then files chosen. */
async function pick(files: File[]) {
  const opened = vi.spyOn(HTMLInputElement.prototype, 'click').mockImplementation(() => {});
  click(button('Add files…'));
  await vi.waitFor(() => expect(opened).toHaveBeenCalled());
  opened.mockRestore();
  const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
  Object.defineProperty(input, 'files', { value: files, configurable: true });
  act(() => void input.dispatchEvent(new Event('change', { bubbles: true })));
}

async function mountGroups() {
  mount(<LibraryView />);
  await vi.waitFor(() => expect(row('Dogs')).toBeDefined());
}

describe('Library view: local files', () => {
  it('adds files dropped on a group row to that group, opens it and shows each as its item', async () => {
    await mountGroups();
    drop(row('Dogs'), [png('one.png'), png('two.png')].map((f, i) => (i ? new File([pngBytes(2048)], f.name, { type: f.type }) : f)));
    await vi.waitFor(async () => expect((await assets()).map((a) => a.name).sort()).toEqual(['one.png', 'two.png']));
    expect((await assets()).every((a) => a.groupId === 'g2')).toBe(true);
    await vi.waitFor(() => expect(document.getElementById('library-group-title')?.textContent).toContain('Dogs'));
    await vi.waitFor(() => expect(text()).toContain('two.png'));
    expect(text()).toContain('one.png');
    expect(await lastUsedGroup.id()).toBe('g2');
  });

  it('shows a refused file as a Failed item with the reason', async () => {
    await mountGroups();
    click(row('Cats'));
    await vi.waitFor(() => expect(button('Add files…')).toBeDefined());
    await pick([new File([svgBytes()], 'logo.svg', { type: 'image/svg+xml' })]);
    await vi.waitFor(() => expect(row('logo.svg')?.textContent).toContain('Failed'));
    expect(row('logo.svg').textContent).toMatch(/not a type the library takes/);
    expect((await assets())[0]).toMatchObject({ groupId: 'g1', status: 'Failed' });
  });

  it('asks which group when none is open and none was used yet, then adds there', async () => {
    await mountGroups();
    await pick([png('picked.png')]);
    await vi.waitFor(() => expect(text()).toContain('Add 1 file to'));
    expect(await assets()).toEqual([]);
    select(byLabel<HTMLSelectElement>('Add 1 file to'), 'g2');
    click(button('Add'));
    await vi.waitFor(async () => expect(await assets()).toEqual([expect.objectContaining({ name: 'picked.png', groupId: 'g2' })]));
  });

  it('without a group open, goes to the last used group, named while dragging', async () => {
    await lastUsedGroup.remember('g1');
    await mountGroups();
    const target = document.getElementById('library-title')!;
    const enter = new Event('dragenter', { bubbles: true, cancelable: true });
    Object.defineProperty(enter, 'dataTransfer', { value: { types: ['Files'], files: [], dropEffect: 'none' } });
    await vi.waitFor(() => {
      act(() => void target.dispatchEvent(enter));
      expect(document.querySelector('.drop__target')?.textContent).toBe('Drop files to add to Cats');
    });
    drop(target, [png('dropped.png')]);
    await vi.waitFor(async () => expect(await assets()).toEqual([expect.objectContaining({ name: 'dropped.png', groupId: 'g1' })]));
  });
});
