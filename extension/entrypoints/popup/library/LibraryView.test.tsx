import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { button, byLabel, click, description, mount, select, text, type, unmount } from '@/components/dom-testing';
import { LibraryView } from '@/entrypoints/popup/library/LibraryView';
import { loadDraft } from '@/lib/generate/generate-draft';
import { setLocale } from '@/lib/i18n/translate';
import { LibraryFakeProxy } from '@/lib/library/testing/fake-library';
import { db } from '@/lib/storage/database';
import { assetRecord, connect, putGroup, resetState } from '@/lib/testing/test-setup';

const realFetch = globalThis.fetch;
let proxy: LibraryFakeProxy;
let messages: unknown[];

beforeEach(async () => {
  await resetState();
  await connect();
  // The list view's tests (the grid, the default, has its own: LibraryView.grid.test).
  localStorage.setItem('arkbridge.library.layout', 'list');
  proxy = new LibraryFakeProxy();
  globalThis.fetch = proxy.fetch;
  messages = [];
  fakeBrowser.runtime.onMessage.addListener((message) => void messages.push(message));
});

afterEach(() => {
  unmount();
  localStorage.clear();
  setLocale('en');
  globalThis.fetch = realFetch;
});

const options = () => [...document.querySelectorAll<HTMLElement>('[role="option"]')];
const rowNames = () => options().map((o) => o.querySelector('.row__name')?.textContent);
const waitText = (s: string) => vi.waitFor(() => expect(text()).toContain(s));
const open = (name: string) => click(options().find((o) => o.querySelector('.row__name')?.textContent === name)!);

/** The same library in IndexedDB and behind the fake proxy. */
async function seedBoth() {
  proxy.seedGroup('g1', 'Cats');
  proxy.seedGroup('g2', 'Faces', 'LivenessFace', 'From the phone');
  proxy.seedAsset({ Id: 'a1', GroupId: 'g1', Name: 'orange cat', URL: 'https://cdn.example.com/orange.png', Status: 'Active' });
  proxy.seedAsset({ Id: 'a2', GroupId: 'g1', Name: 'cat video', URL: 'https://cdn.example.com/cat.mp4', AssetType: 'Video', Status: 'Failed', Error: { Code: 'ResourceDownloadFailed', Message: 'HTTP 404 from cdn' } });
  proxy.seedAsset({ Id: 'a3', GroupId: 'g2', Name: 'face', Status: 'Active' });
  await putGroup({ id: 'g1', name: 'Cats' });
  await putGroup({ id: 'g2', name: 'Faces', type: 'LivenessFace', description: 'From the phone' });
  const database = await db();
  await database.put('assets', assetRecord({ localId: 'l1', assetId: 'a1', groupId: 'g1', name: 'orange cat', url: 'https://cdn.example.com/orange.png', status: 'Active', createdAt: 3 }));
  await database.put('assets', assetRecord({ localId: 'l2', assetId: 'a2', groupId: 'g1', name: 'cat video', url: 'https://cdn.example.com/cat.mp4', type: 'Video', status: 'Failed', error: 'HTTP 404 from cdn', createdAt: 2 }));
  await database.put('assets', assetRecord({ localId: 'l3', assetId: 'a3', groupId: 'g2', name: 'face', status: 'Active', createdAt: 1 }));
}

async function mountSettled() {
  mount(<LibraryView />);
  await vi.waitFor(() => expect(proxy.callsOf('ListAssets').length).toBeGreaterThan(0));
  await vi.waitFor(() => expect(document.querySelector('.library__sync')!.textContent).toBe(''));
}

describe('Library view: first paint and refresh', () => {
  it('paints what IndexedDB holds before the proxy answers, and says it is refreshing', async () => {
    await putGroup({ id: 'g1', name: 'Stored group' });
    await (await db()).put('assets', assetRecord({ localId: 'l1', groupId: 'g1', name: 'stored cat' }));
    globalThis.fetch = vi.fn(() => new Promise<Response>(() => {}));
    mount(<LibraryView />);
    await waitText('Stored group');
    expect(text()).toContain('1 asset');
    await waitText('Refreshing…');
    // The refresh reads when the library was last refreshed (IndexedDB) before it calls.
    await vi.waitFor(() => expect(globalThis.fetch).toHaveBeenCalled());
  });

  it('refreshes from the proxy with list calls only and shows the result', async () => {
    await seedBoth();
    proxy.seedGroup('g3', 'New from elsewhere');
    await mountSettled();
    await waitText('New from elsewhere');
    expect(proxy.callsOf('GetAsset')).toHaveLength(0);
    expect(rowNames()).toEqual(['Cats', 'Faces', 'New from elsewhere']);
    expect(text()).toContain('Real person');
  });

  it('keeps the stored list and says so when the proxy cannot be reached', async () => {
    await seedBoth();
    proxy.failNext('ListAssetGroups', { kind: 'network' });
    mount(<LibraryView />);
    await waitText('Cannot reach the proxy; showing what was saved.');
    expect(rowNames()).toEqual(['Cats', 'Faces']);
  });
});

describe('Library view: groups', () => {
  it('opens a group with the keyboard and lists its assets with status, error and thumbnails', async () => {
    await seedBoth();
    await mountSettled();
    const list = document.querySelector<HTMLElement>('#library-groups')!;
    const press = (key: string) => act(() => void list.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true })));
    act(() => list.focus());
    press('ArrowDown');
    press('Enter');
    await waitText('Assets of a real-person group come only');
    expect(document.activeElement?.id).toBe('library-group-title');
    // Back, then the other group.
    click(button('← All groups'));
    open('Cats');
    await vi.waitFor(() => expect(rowNames()).toEqual(['orange cat', 'cat video']));
    expect(document.querySelector('#library-assets')!.getAttribute('aria-label')).toBe('Assets of Cats');
    expect(text()).toContain('HTTP 404 from cdn');
    const thumb = document.querySelector<HTMLImageElement>('#library-assets img')!;
    expect(thumb.getAttribute('loading')).toBe('lazy');
    expect(thumb.getAttribute('src')).toBe('https://cdn.example.com/orange.png');
  });

  it('checks the new group form with the spec limits, naming the field, before any request', async () => {
    await seedBoth();
    await mountSettled();
    const before = proxy.calls.length;
    click(button('New group'));
    type(byLabel('Group name'), 'x'.repeat(65));
    click(button('Create group'));
    expect(byLabel('Group name').getAttribute('aria-invalid')).toBe('true');
    expect(description(byLabel('Group name'))).toContain('Group name: must be 1 to 64 characters');
    expect(document.activeElement).toBe(byLabel('Group name'));

    type(byLabel('Group name'), 'Dogs');
    type(byLabel<HTMLTextAreaElement>('Description'), 'd'.repeat(301));
    click(button('Create group'));
    expect(description(byLabel('Description'))).toContain('Description: must be at most 300 characters');
    expect(proxy.calls.length).toBe(before);

    type(byLabel<HTMLTextAreaElement>('Description'), 'Good dogs');
    click(button('Create group'));
    await waitText('To add to this group, right-click');
    expect(proxy.callsOf('CreateAssetGroup')[0]!.idempotencyKey).toBeTruthy();
    expect(document.querySelector('#library-group-title')!.textContent).toContain('Dogs');
    expect(messages).toContainEqual({ type: 'arkbridge:groups-changed' });
  });

  it('renames and describes a real-person group', async () => {
    await seedBoth();
    await mountSettled();
    open('Faces');
    await waitText('From the phone');
    click(button('Rename / describe'));
    type(byLabel('Group name'), 'Team faces');
    type(byLabel<HTMLTextAreaElement>('Description'), '');
    click(button('Save'));
    await vi.waitFor(() => expect(document.querySelector('#library-group-title')!.textContent).toContain('Team faces'));
    expect(proxy.callsOf('UpdateAssetGroup')[0]!.body).toEqual({ Id: 'g2', Name: 'Team faces', Description: '' });
    expect(text()).not.toContain('From the phone');
  });

  it('deletes a group only after confirmation', async () => {
    await seedBoth();
    await mountSettled();
    open('Cats');
    await waitText('orange cat');
    click(button('Delete group'));
    expect(proxy.callsOf('DeleteAssetGroup')).toHaveLength(0);
    expect(document.querySelector('[role="alertdialog"]')!.textContent).toContain('Delete “Cats”? This cannot be undone.');
    expect(document.activeElement?.textContent).toBe('Cancel');
    click(button('Cancel'));
    expect(proxy.callsOf('DeleteAssetGroup')).toHaveLength(0);

    click(button('Delete group'));
    click(button('Delete'));
    await waitText('Deleted “Cats”.');
    expect(proxy.callsOf('DeleteAssetGroup')[0]!.body).toEqual({ Id: 'g1' });
    // The notice comes with the service's answer; the rows and the store follow from the store's
    // next read, which a loaded machine can put after the notice's render.
    await vi.waitFor(() => expect(rowNames()).toEqual(['Faces']));
    await vi.waitFor(async () => expect((await (await db()).getAll('assets')).map((a) => a.localId)).toEqual(['l3']));
  });

  it('shows a failed delete in a banner and keeps the group', async () => {
    await seedBoth();
    await mountSettled();
    open('Cats');
    await waitText('orange cat');
    proxy.failNext('DeleteAssetGroup', { kind: 'status', status: 500, code: 'InternalError', message: 'Upstream failed.' });
    click(button('Delete group'));
    click(button('Delete'));
    await vi.waitFor(() => expect(document.querySelector('[role="alert"]')?.textContent).toContain('Upstream failed.'));
    expect(document.querySelector('#library-group-title')!.textContent).toContain('Cats');
  });
});

describe('Library view: search and filter', () => {
  beforeEach(async () => {
    await seedBoth();
    globalThis.fetch = vi.fn(() => new Promise<Response>(() => {}));
  });

  it('searches every group by name from the group list', async () => {
    mount(<LibraryView />);
    await waitText('Cats');
    type(byLabel('Search all assets by name'), 'CAT');
    await vi.waitFor(() => expect(rowNames()).toEqual(['orange cat', 'cat video']));
    expect(text()).toContain('2 assets');
    // Not "fa": the search reads the status too, and "Failed" begins so.
    type(byLabel('Search all assets by name'), 'fac');
    await vi.waitFor(() => expect(rowNames()).toEqual(['face']));
    type(byLabel('Search all assets by name'), 'zebra');
    await waitText('No assets match the search and filter.');
    type(byLabel('Search all assets by name'), '');
    await vi.waitFor(() => expect(rowNames()).toEqual(['Cats', 'Faces']));
  });

  it('filters by status, within a group', async () => {
    await (await db()).put('assets', assetRecord({ localId: 'l4', groupId: 'g1', name: 'queued cat', status: 'Queued', createdAt: 4 }));
    mount(<LibraryView />);
    await waitText('Cats');
    open('Cats');
    await vi.waitFor(() => expect(rowNames()).toEqual(['queued cat', 'orange cat', 'cat video']));
    expect(text()).toContain('Sending');
    select(byLabel<HTMLSelectElement>('Status'), 'Failed');
    await vi.waitFor(() => expect(rowNames()).toEqual(['cat video']));
    select(byLabel<HTMLSelectElement>('Status'), 'Processing');
    await vi.waitFor(() => expect(rowNames()).toEqual(['queued cat']));
    type(byLabel('Search this group by name'), 'orange');
    await waitText('No assets match');
    select(byLabel<HTMLSelectElement>('Status'), 'Active');
    await vi.waitFor(() => expect(rowNames()).toEqual(['orange cat']));
  });
});

describe('Library view: one asset', () => {
  it('shows the preview and per-model readiness (one GetAsset), renames and deletes after confirmation', async () => {
    await seedBoth();
    proxy.readiness.set('a2', [
      { Models: ['doubao-seedance-2-0-260128', 'doubao-seedance-2-0-fast-260128'], Status: 'Failed', Error: { Message: 'Download failed' } },
      { Models: ['doubao-seedance-1-0-pro-250528'], Status: 'Unavailable', Error: { Message: 'No library references.' } },
    ]);
    await mountSettled();
    open('Cats');
    await waitText('orange cat');
    open('cat video');
    await waitText('Seedance 2.0, Seedance 2.0 Fast');
    expect(proxy.callsOf('GetAsset').map((c) => c.body)).toEqual([{ Id: 'a2' }]);
    expect(text()).toContain('No library references.');
    expect(text()).toContain('Unavailable');
    const video = document.querySelector('video')!;
    expect(video.hasAttribute('controls')).toBe(true);
    expect(video.getAttribute('preload')).toBe('metadata');
    expect(video.getAttribute('src')).toBe('https://cdn.example.com/cat.mp4');
    expect(document.activeElement?.id).toBe('library-asset-title');

    click(button('Rename'));
    type(byLabel('Asset name'), '   ');
    click(button('Save'));
    expect(description(byLabel('Asset name'))).toContain('Asset name: must be 1 to 255 characters');
    type(byLabel('Asset name'), 'cat clip');
    click(button('Save'));
    await vi.waitFor(() => expect(document.querySelector('#library-asset-title')!.textContent).toBe('cat clip'));
    expect(proxy.callsOf('UpdateAsset')[0]!.body).toEqual({ Id: 'a2', Name: 'cat clip' });

    click(button('Delete asset'));
    expect(proxy.callsOf('DeleteAsset')).toHaveLength(0);
    click(button('Delete'));
    await vi.waitFor(() => expect(rowNames()).toEqual(['orange cat']));
    expect(proxy.callsOf('DeleteAsset')[0]!.body).toEqual({ Id: 'a2' });
  });

  it('"Use in Generate" adds an Active asset to the Generate form and hands over; a failed one cannot be used', async () => {
    await seedBoth();
    const onUse = vi.fn();
    mount(<LibraryView onUseInGenerate={onUse} />);
    await waitText('Cats');
    open('Cats');
    await waitText('orange cat');
    open('cat video');
    await waitText('Delete asset');
    expect(() => button('Use in Generate')).toThrow();
    click(button('← Back'));
    open('orange cat');
    click(button('Use in Generate'));
    expect(onUse).toHaveBeenCalledTimes(1);
    expect(loadDraft()?.references).toEqual([expect.objectContaining({ source: 'library', role: 'reference_image', url: 'asset://a1', label: 'orange cat' })]);
  });

  it('plays audio and shows images', async () => {
    await putGroup({ id: 'g1', name: 'Sounds' });
    await (await db()).put('assets', assetRecord({ localId: 'l1', assetId: 'a1', groupId: 'g1', name: 'bark', type: 'Audio', url: 'https://cdn.example.com/bark.mp3', status: 'Active' }));
    globalThis.fetch = vi.fn(() => new Promise<Response>(() => {}));
    mount(<LibraryView />);
    await waitText('Sounds');
    open('Sounds');
    await waitText('bark');
    expect(document.querySelector('#library-assets img')).toBeNull();
    open('bark');
    await waitText('Checking readiness…');
    expect(document.querySelector('audio')!.hasAttribute('controls')).toBe(true);
  });
});

describe('Library view: Simplified Chinese', () => {
  it('labels its controls in Chinese', async () => {
    await setLocale('zh-CN');
    await seedBoth();
    globalThis.fetch = vi.fn(() => new Promise<Response>(() => {}));
    mount(<LibraryView />);
    await waitText('分组');
    expect(byLabel('按名称搜索全部素材')).toBeTruthy();
    expect(byLabel<HTMLSelectElement>('状态').textContent).toContain('失败');
    // The refresh starts once the stored library is shown: wait for it rather than read at once.
    await waitText('真人');
    await waitText('正在刷新…');
  });
});
