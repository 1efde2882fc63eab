import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { click, mount, text, unmount } from '@/components/dom-testing';
import { LibraryView } from '@/entrypoints/popup/library/LibraryView';
import { setLocale } from '@/lib/i18n/translate';
import { LibraryFakeProxy } from '@/lib/library/testing/fake-library';
import { db } from '@/lib/storage/database';
import { assetRecord, connect, putGroup, resetState } from '@/lib/testing/test-setup';

/** The Library view says in each item how it reached the library (capture/capture-note). */

const realFetch = globalThis.fetch;
let proxy: LibraryFakeProxy;

beforeEach(async () => {
  await resetState();
  await connect();
  proxy = new LibraryFakeProxy();
  globalThis.fetch = proxy.fetch;
  proxy.seedGroup('g1', 'Cats');
  await putGroup({ id: 'g1', name: 'Cats' });
  const database = await db();
  await database.put('assets', assetRecord({ localId: 'l1', groupId: 'g1', name: 'linked cat', status: 'Queued', capture: { how: 'link' }, createdAt: 3 }));
  await database.put(
    'assets',
    assetRecord({
      localId: 'l2',
      groupId: 'g1',
      name: 'members cat',
      url: 'https://members.example.com/cat.png',
      status: 'Queued',
      capture: { how: 'upload', reason: 'signin', stage: 'reading', source: 'https://members.example.com/cat.png', bytesKey: 'l2', read: 12 * 1024 * 1024, size: 48.3 * 1024 * 1024 },
      createdAt: 2,
    }),
  );
});

afterEach(async () => {
  unmount();
  await setLocale('en');
  globalThis.fetch = realFetch;
});

const options = () => [...document.querySelectorAll<HTMLElement>('[role="option"]')];
const open = (name: string) => click(options().find((o) => o.querySelector('.row__name')?.textContent === name)!);

describe('Library view: how each item reached the library', () => {
  it('says it in the rows, and shows a read’s progress in the item', async () => {
    mount(<LibraryView />);
    await vi.waitFor(() => expect(options().length).toBeGreaterThan(0));
    open('Cats');
    await vi.waitFor(() => expect(text()).toContain('Saved by link'));
    expect(text()).toContain('Reading from the page: 12 MB of 48.3 MB');
    open('members cat');
    await vi.waitFor(() => expect(document.querySelector('.asset-detail__capture')).not.toBeNull());
    const progress = document.querySelector<HTMLProgressElement>('.asset-detail__progress')!;
    expect(Number(progress.getAttribute('value'))).toBeCloseTo(12 / 48.3, 3);
    expect(progress.getAttribute('aria-label')).toBe('Reading from the page: 12 MB of 48.3 MB');
  });

  it('in Simplified Chinese', async () => {
    await setLocale('zh-CN');
    mount(<LibraryView />);
    await vi.waitFor(() => expect(options().length).toBeGreaterThan(0));
    open('Cats');
    await vi.waitFor(() => expect(text()).toContain('已通过链接保存'));
    expect(text()).toContain('正在从页面读取：12 MB / 48.3 MB');
  });
});
