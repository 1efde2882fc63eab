import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MEDIA_URL_MAX } from '@@/shared';
import { savePageMedia } from '@/lib/background/save-page-media';
import { isExtensionMessage } from '@/lib/messaging/extension-messages';
import { DATA_URL_MAX, SAVE_CHARS_MAX, SAVE_ITEMS_MAX } from '@/lib/messaging/page-media-bounds';
import { syncSoon } from '@/lib/messaging/sync-soon';
import { db } from '@/lib/storage/database';
import { lastUsedGroup } from '@/lib/storage/last-used-group';
import type { FakeProxy } from '@/lib/testing/fake-proxy';
import { backgroundTestbed, type BrowserMocks, connect, putGroup, shown } from '@/lib/testing/test-setup';
// The sync engine registers its pass with syncSoon when loaded.
import '@/lib/background/background-sync';

let proxy: FakeProxy;
let mocks: BrowserMocks;
const assets = async () => (await db()).getAll('assets');
const message = (over: Record<string, unknown> = {}) => ({ type: 'arkbridge:save-page-media', groupId: 'g1', tabId: 7, items: [{ url: 'https://cdn.example.com/a.png', type: 'Image' }], ...over });

describe('arkbridge:save-page-media (the guard)', () => {
  it('accepts a well-formed message: items with an optional name and frame', () => {
    expect(isExtensionMessage(message())).toBe(true);
    expect(isExtensionMessage(message({ items: [{ url: 'https://cdn.example.com/a.png', type: 'Video', name: 'Clip', frameId: 3 }] }))).toBe(true);
    expect(isExtensionMessage(message({ items: [{ url: `data:image/png;base64,${'A'.repeat(MEDIA_URL_MAX * 2)}`, type: 'Image' }] }))).toBe(true);
  });

  it.each([
    ['no items', { items: [] }],
    ['too many items', { items: Array.from({ length: SAVE_ITEMS_MAX + 1 }, () => ({ url: 'https://cdn.example.com/a.png', type: 'Image' })) }],
    ['an address over the limit', { items: [{ url: `https://cdn.example.com/${'a'.repeat(MEDIA_URL_MAX)}`, type: 'Image' }] }],
    ['a data: address over its limit', { items: [{ url: `data:image/png;base64,${'A'.repeat(DATA_URL_MAX)}`, type: 'Image' }] }],
    ['addresses over the message limit together', { items: Array.from({ length: Math.ceil(SAVE_CHARS_MAX / (DATA_URL_MAX - 100)) + 1 }, () => ({ url: `data:image/png;base64,${'A'.repeat(DATA_URL_MAX - 100)}`, type: 'Image' })) }],
    ['an unknown asset type', { items: [{ url: 'https://cdn.example.com/a.png', type: 'Document' }] }],
    ['an empty name', { items: [{ url: 'https://cdn.example.com/a.png', type: 'Image', name: '' }] }],
    ['a name over the limit', { items: [{ url: 'https://cdn.example.com/a.png', type: 'Image', name: 'n'.repeat(256) }] }],
    ['a bad frame id', { items: [{ url: 'https://cdn.example.com/a.png', type: 'Image', frameId: -1 }] }],
    ['an unknown item field', { items: [{ url: 'https://cdn.example.com/a.png', type: 'Image', extra: 1 }] }],
    ['an item that is not an object', { items: ['https://cdn.example.com/a.png'] }],
    ['an unknown message field', { extra: true }],
    ['no group', { groupId: '' }],
    ['a bad tab id', { tabId: 1.5 }],
  ])('refuses %s', (_, over) => {
    expect(isExtensionMessage(message(over))).toBe(false);
  });
});

describe('savePageMedia', () => {
  beforeEach(async () => {
    ({ proxy, mocks } = await backgroundTestbed());
  });

  afterEach(async () => {
    await syncSoon();
    vi.clearAllTimers();
    vi.useRealTimers();
  });

  it('adds each item the context menu way, answering its record, in order', async () => {
    await connect();
    await putGroup({ id: 'g1', name: 'Moodboard' });
    const reply = await savePageMedia({
      groupId: 'g1',
      tabId: 7,
      items: [
        { url: 'https://cdn.example.com/red-fox.jpg', type: 'Image', name: 'A red fox' },
        { url: 'https://cdn.example.com/clip.mp4', type: 'Video', frameId: 2 },
      ],
    });
    const records = await assets();
    expect(reply.results).toEqual([
      { ok: true, localId: records.find((r) => r.type === 'Image')!.localId },
      { ok: true, localId: records.find((r) => r.type === 'Video')!.localId },
    ]);
    expect(records.map((r) => [r.url, r.name, r.groupId]).sort()).toEqual([
      ['https://cdn.example.com/clip.mp4', 'clip', 'g1'],
      ['https://cdn.example.com/red-fox.jpg', 'A red fox', 'g1'],
    ]);
    // As from the menu: the group is the last used one, and the queue sends the creates.
    expect(await lastUsedGroup.id()).toBe('g1');
    await syncSoon();
    expect(proxy.actions().filter((a) => a === 'CreateAsset')).toHaveLength(2);
  });

  it('reads a data: item in the extension and records an upload', async () => {
    await connect();
    await putGroup({ id: 'g1' });
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    const reply = await savePageMedia({ groupId: 'g1', tabId: 7, items: [{ url: `data:image/png;base64,${png}`, type: 'Image', name: 'Dot' }] });
    expect(reply.results).toEqual([{ ok: true, localId: expect.any(String) }]);
    expect(await assets()).toMatchObject([{ name: 'Dot', capture: { how: 'upload', reason: 'data' } }]);
  });

  it('answers why an address cannot be added, without a notification and without stopping the others', async () => {
    await connect();
    await putGroup({ id: 'g1' });
    const reply = await savePageMedia({
      groupId: 'g1',
      tabId: 7,
      items: [
        { url: 'file:///home/ada/fox.png', type: 'Image' },
        { url: 'https://cdn.example.com/fox.png', type: 'Image' },
      ],
    });
    expect(reply.results).toEqual([{ ok: false, message: expect.stringMatching(/a file on your computer/) }, { ok: true, localId: expect.any(String) }]);
    expect(shown(mocks.notify)).toEqual([]);
  });

  it.each([
    ['a linked address', 'https://cdn.example.com/fox.png'],
    // Known by its bytes' SHA-256 once decoded, not by its address.
    ['a data: image', 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='],
  ])('answers a duplicate of %s with the record already there, without a notification', async (_what, url) => {
    await connect();
    await putGroup({ id: 'g1' });
    const item = { url, type: 'Image' as const };
    const [first] = (await savePageMedia({ groupId: 'g1', tabId: 7, items: [item] })).results;
    const [again] = (await savePageMedia({ groupId: 'g1', tabId: 7, items: [item] })).results;
    expect(again).toEqual({ ok: false, duplicate: true, localId: (first as { localId: string }).localId, message: 'Already in the group' });
    expect(await assets()).toHaveLength(1);
    // The tile says so: no notification per item.
    expect(shown(mocks.notify)).toEqual([]);
  });

  it('refuses every item when not connected or when the group is gone', async () => {
    const items = [
      { url: 'https://cdn.example.com/a.png', type: 'Image' as const },
      { url: 'https://cdn.example.com/b.png', type: 'Image' as const },
    ];
    expect((await savePageMedia({ groupId: 'g1', tabId: 7, items })).results).toEqual([
      { ok: false, message: 'Arkbridge is not connected.' },
      { ok: false, message: 'Arkbridge is not connected.' },
    ]);
    await connect();
    expect((await savePageMedia({ groupId: 'gone', tabId: 7, items })).results.map((r) => r.ok)).toEqual([false, false]);
    expect(await assets()).toEqual([]);
    expect(proxy.calls).toEqual([]);
  });
});
