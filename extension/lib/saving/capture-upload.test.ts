import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Browser } from 'wxt/browser';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { addAsset, addHeld, onMenuClick } from '@/lib/background/menu-click';
import { captureNote } from '@/lib/capture/capture-note';
import { setLocale } from '@/lib/i18n/translate';
import { syncSoon } from '@/lib/messaging/sync-soon';
import { READ_GRACE_MS } from '@/lib/saving/capture-upload';
import { db } from '@/lib/storage/database';
import type { AssetRecord } from '@/lib/storage/records/asset-record';
import { stagedKey, uploadBytes } from '@/lib/storage/upload-bytes';
import { FakePage } from '@/lib/testing/fake-page';
import { FakeProxy } from '@/lib/testing/fake-proxy';
import { dataUrl, jpegBytes, mp3Bytes, mp4Bytes, pngBytes, svgBytes } from '@/lib/testing/media-bytes';
import { backgroundTestbed, type BrowserMocks, connect, putGroup, shown } from '@/lib/testing/test-setup';
// The sync engine registers its pass with syncSoon when loaded.
import '@/lib/background/background-sync';

let proxy: FakeProxy;
let mocks: BrowserMocks;
let page: FakePage;

const PAGE = 'https://www.example.com/gallery/';
const tab = { id: 7, title: 'Fox gallery', index: 0, pinned: false, highlighted: false, windowId: 1, active: true, incognito: false } as Browser.tabs.Tab;

/** Lets a promise settle while advancing the faked timers (the page is polled every 200 ms). */
async function settle<T>(promise: Promise<T>): Promise<T> {
  let done = false;
  const watched = promise.finally(() => (done = true));
  for (let i = 0; i < 400 && !done; i++) await vi.advanceTimersByTimeAsync(50);
  return watched;
}

/** A menu click, then the sync pass it started. */
async function click(over: Partial<Browser.contextMenus.OnClickData>, menuItemId = 'arkbridge-media/group:g1'): Promise<void> {
  await settle(onMenuClick({ menuItemId, editable: false, pageUrl: PAGE, mediaType: 'image', frameId: 0, ...over } as Browser.contextMenus.OnClickData, tab));
  await settle(syncSoon());
}

const assets = async (): Promise<AssetRecord[]> => (await db()).getAll('assets');
const only = async (): Promise<AssetRecord> => {
  const all = await assets();
  expect(all).toHaveLength(1);
  return all[0]!;
};
const bytesOfUpload = (index = 0) => [...proxy.uploads.values()][index]!;
/** Whether two byte arrays hold the same bytes (toEqual walks megabytes element by element). */
const sameBytes = (a: Uint8Array, b: Uint8Array) => a.byteLength === b.byteLength && Buffer.compare(a, b) === 0;

beforeEach(async () => {
  ({ proxy, mocks } = await backgroundTestbed());
  page = new FakePage(proxy.fetch);
  vi.stubGlobal('fetch', page.fetch);
  mocks.executeScript.mockImplementation(page.executeScript);
  await connect();
  await putGroup({ id: 'g1', name: 'Moodboard' });
});

afterEach(async () => {
  await settle(syncSoon());
  vi.clearAllTimers();
  vi.useRealTimers();
  await setLocale('en');
});

describe('what is uploaded and what is linked', () => {
  it('links a public https:// image that answers without cookies, as before', async () => {
    const url = 'https://cdn.example.com/red-fox.png';
    page.serve(url, { body: pngBytes(), type: 'image/png' });
    await click({ srcUrl: url });
    const record = await only();
    expect(record).toMatchObject({ url, status: 'Processing', capture: { how: 'link' }, name: 'red fox' });
    expect(proxy.callsOf('CreateAsset')[0]!.body.URL).toBe(url);
    expect(proxy.uploads.size).toBe(0);
    // Checked from the page without its cookies; nothing read.
    expect(page.requests).toEqual([{ url, method: 'HEAD', credentials: 'omit' }]);
    expect(captureNote(record)).toBe('Saved by link');
  });

  it('links an address the page cannot check (cross-origin without CORS), as before', async () => {
    await click({ srcUrl: 'https://elsewhere.example.net/owl.jpg' });
    expect(await only()).toMatchObject({ url: 'https://elsewhere.example.net/owl.jpg', capture: { how: 'link' } });
    expect(proxy.uploads.size).toBe(0);
  });

  it('uploads a data: image, decoded in the extension, and creates the asset from the signed address', async () => {
    const png = pngBytes(3000);
    await click({ srcUrl: dataUrl('image/png', png) });
    const record = await only();
    const upload = bytesOfUpload();
    expect(sameBytes(upload.bytes, png)).toBe(true);
    expect(upload).toMatchObject({ contentType: 'image/png', name: 'Fox gallery' });
    const [create] = proxy.callsOf('CreateAsset');
    expect(create!.body).toEqual({ GroupId: 'g1', AssetType: 'Image', Name: 'Fox gallery', URL: upload.url });
    expect(create!.idempotencyKey).toBe(record.idempotencyKey);
    expect(record).toMatchObject({ url: upload.url, status: 'Processing', capture: { how: 'upload', reason: 'data', stage: 'uploaded', size: 3000, uploadId: upload.id, expiresAt: upload.expiresAt } });
    expect((record.capture as { source: string }).source).toMatch(/^data:image\/png;sha256,[0-9a-f]{64}$/);
    expect(captureNote(record)).toBe('Uploaded 2.9 KB (embedded in the page)');
    // No page script but the element probe: the bytes were in the address.
    expect(page.scripts).toEqual(['findMediaElement']);
    // The bytes are dropped once the asset is created.
    expect(await uploadBytes.keys()).toEqual([]);
  });

  it('uploads a blob: image read in the page, in chunks', async () => {
    const jpeg = jpegBytes(5 * 1024 * 1024 + 17);
    const url = 'blob:https://www.example.com/8c9a-4f1e';
    page.serve(url, { body: jpeg, type: 'image/jpeg' });
    await click({ srcUrl: url });
    const record = await only();
    expect(sameBytes(bytesOfUpload().bytes, jpeg)).toBe(true);
    expect(record).toMatchObject({ status: 'Processing', url: bytesOfUpload().url, capture: { how: 'upload', reason: 'blob', source: url, stage: 'uploaded' } });
    expect(page.requests).toEqual([{ url, method: 'GET', credentials: 'include' }]);
    // Three chunks of at most 2 MB, then the page forgets it.
    expect(page.scripts.filter((s) => s === 'readPageChunk')).toHaveLength(3);
    expect(page.scripts.at(-1)).toBe('endPageRead');
    expect(captureNote(record)).toBe('Uploaded 5 MB (only the page can read it)');
  });

  it('uploads what the site serves only with its cookies (a check without them was refused)', async () => {
    const url = 'https://members.example.com/private/kite.png';
    page.serve(url, { body: pngBytes(2 * 1024 * 1024 + 100 * 1024), type: 'image/png', needsCookies: true });
    await click({ srcUrl: url });
    const record = await only();
    expect(page.requests.map((r) => [r.method, r.credentials])).toEqual([
      ['HEAD', 'omit'],
      ['GET', 'include'],
    ]);
    expect(record).toMatchObject({ name: 'kite', capture: { how: 'upload', reason: 'signin', stage: 'uploaded' }, url: bytesOfUpload().url });
    expect(captureNote(record)).toBe('Uploaded 2.1 MB (the site needs sign-in)');
    await setLocale('zh-CN');
    expect(captureNote(record)).toBe('已上传 2.1 MB（该网站需要登录）');
  });

  it('uploads plain http:// media when the proxy takes no http, and links it when it does', async () => {
    const url = 'http://cdn.example.com/fox.jpg';
    page.serve(url, { body: jpegBytes(), type: 'image/jpeg' });
    await click({ srcUrl: url });
    expect(await only()).toMatchObject({ capture: { how: 'upload', reason: 'http' }, url: bytesOfUpload().url });
    expect(page.requests.map((r) => r.method)).toEqual(['GET']); // no check: http goes up anyway

    await (await db()).clear('assets');
    await connect({ allowHttpMedia: true });
    proxy.allowHttpMedia = true;
    await click({ srcUrl: url });
    expect(await only()).toMatchObject({ url, capture: { how: 'link' } });
  });

  it('sends a file with the type its bytes are, whatever the server labelled it', async () => {
    const url = 'blob:https://www.example.com/labelled-wrong';
    page.serve(url, { body: jpegBytes(), type: 'application/octet-stream' });
    await click({ srcUrl: url });
    expect(bytesOfUpload().contentType).toBe('image/jpeg');
    expect(await only()).toMatchObject({ capture: { contentType: 'image/jpeg' } });
  });

  it('takes the asset type from the bytes (a video behind an image menu)', async () => {
    const url = 'blob:https://www.example.com/clip';
    page.serve(url, { body: mp4Bytes(), type: 'video/mp4' });
    await click({ srcUrl: url, mediaType: 'video' });
    expect(proxy.callsOf('CreateAsset')[0]!.body.AssetType).toBe('Video');
  });

  it('tells when the page cannot be read, and records nothing', async () => {
    mocks.executeScript.mockRejectedValue(new Error('Cannot access contents of the page.'));
    await click({ srcUrl: 'blob:https://www.example.com/x' });
    expect(shown(mocks.notify)).toEqual([['arkbridge-url', 'This item cannot be added', expect.stringContaining('could not read this blob: media')]]);
    expect(await assets()).toEqual([]);
    expect(proxy.calls).toEqual([]);
  });
});

describe('limits before uploading', () => {
  it('refuses a file over its kind’s limit from its Content-Length, before reading it: Failed in the item, told', async () => {
    const url = 'blob:https://www.example.com/long-song';
    page.serve(url, { body: mp3Bytes(15 * 1024 * 1024 + 1), type: 'audio/mpeg' });
    await click({ srcUrl: url, mediaType: 'audio' });
    const record = await only();
    expect(record).toMatchObject({ status: 'Failed', error: 'Not added: this audio is over 15 MB, the most the library takes.', notified: true });
    expect(shown(mocks.notify)).toEqual([[`asset-${record.localId}`, `Could not add: ${record.name}`, record.error]]);
    expect(page.scripts).not.toContain('readPageChunk');
    expect(proxy.calls).toEqual([]);
    expect(await (await db()).count('queue')).toBe(0);
    expect(captureNote({ capture: record.capture })).not.toBeNull();
  });

  it('refuses a type the library does not take (SVG), naming what it takes', async () => {
    const url = 'blob:https://www.example.com/logo';
    page.serve(url, { body: svgBytes(), type: 'image/svg+xml' });
    await click({ srcUrl: url });
    expect(await only()).toMatchObject({
      status: 'Failed',
      error: 'Not added: image/svg+xml files are not a type the library takes (PNG, JPEG, WEBP, GIF, BMP, TIFF, HEIC, MP4, MOV, MP3, WAV).',
    });
    expect(proxy.calls).toEqual([]);
  });

  it('refuses a data: image over 30 MB from the address’s length, without decoding it', async () => {
    const huge = `data:image/png;base64,${'A'.repeat(41 * 1024 * 1024)}`;
    await click({ srcUrl: huge });
    expect(await only()).toMatchObject({ status: 'Failed', error: 'Not added: this image is over 30 MB, the most the library takes.', url: huge.slice(0, 64) });
    expect(proxy.calls).toEqual([]);
  });

  it('fails the item with the page’s answer when the page cannot fetch it either', async () => {
    const url = 'https://members.example.com/private/gone.png';
    // Refused without cookies (403), and not found with them (404).
    page.serve(url, { body: pngBytes(), type: 'image/png', needsCookies: true, status: 404 });
    await click({ srcUrl: url });
    expect(await only()).toMatchObject({ status: 'Failed', error: 'The page could not read this media (HTTP 404).', notified: true });
    expect(await (await db()).count('queue')).toBe(0);
    expect(proxy.calls).toEqual([]);
  });
});

describe('the queue sends uploads', () => {
  it('keeps the item waiting when the proxy cannot be reached, then uploads and creates with the same key', async () => {
    const url = 'blob:https://www.example.com/retry';
    page.serve(url, { body: pngBytes(), type: 'image/png' });
    proxy.failNext('/proxy/uploads', { kind: 'network' });
    await click({ srcUrl: url });
    let record = await only();
    expect(record).toMatchObject({ status: 'Queued', url, capture: { stage: 'waiting', size: 1024 } });
    expect(captureNote(record)).toBe('Waiting to upload 1 KB (only the page can read it)');
    expect(await uploadBytes.get(record.localId)).toBeDefined();

    await (await db()).put('queue', { ...(await (await db()).getAll('queue'))[0]!, notBefore: 0 });
    await settle(syncSoon());
    record = await only();
    expect(record).toMatchObject({ status: 'Processing', capture: { stage: 'uploaded' } });
    expect(proxy.callsOf('/proxy/uploads')).toHaveLength(2);
    expect(proxy.callsOf('CreateAsset')[0]!.idempotencyKey).toBe(record.idempotencyKey);
  });

  it('sends the create again with the same address and key after a lost answer', async () => {
    page.serve('blob:https://www.example.com/a', { body: pngBytes(), type: 'image/png' });
    proxy.failNext('CreateAsset', { kind: 'timeout-after-commit' });
    await click({ srcUrl: 'blob:https://www.example.com/a' });
    expect(await only()).toMatchObject({ status: 'Queued', capture: { stage: 'uploaded' } });
    await (await db()).put('queue', { ...(await (await db()).getAll('queue'))[0]!, notBefore: 0 });
    await settle(syncSoon());
    const [first, second] = proxy.callsOf('CreateAsset');
    expect(second!.body).toEqual(first!.body);
    expect(second!.idempotencyKey).toBe(first!.idempotencyKey);
    expect(proxy.callsOf('/proxy/uploads')).toHaveLength(1); // the address still lives: not uploaded again
    expect(await only()).toMatchObject({ status: 'Processing' });
  });

  it('uploads again when the address expired before the create went out', async () => {
    page.serve('blob:https://www.example.com/b', { body: pngBytes(), type: 'image/png' });
    proxy.uploadTtlSeconds = 60; // within the margin: never used for a create
    proxy.failNext('CreateAsset', { kind: 'network' });
    await click({ srcUrl: 'blob:https://www.example.com/b' });
    await (await db()).put('queue', { ...(await (await db()).getAll('queue'))[0]!, notBefore: 0 });
    await settle(syncSoon());
    expect(proxy.callsOf('/proxy/uploads')).toHaveLength(2);
    const [, second] = proxy.callsOf('CreateAsset');
    expect(second!.body.URL).toBe(bytesOfUpload(1).url);
  });

  it('ends the item Failed, told once, when the proxy has no uploads (an older proxy)', async () => {
    proxy.uploadsSupported = false;
    await click({ srcUrl: dataUrl('image/png', pngBytes()) });
    const record = await only();
    expect(record).toMatchObject({ status: 'Failed', error: 'This proxy cannot take uploads; ask its admin to update it.', notified: true });
    expect(shown(mocks.notify)).toEqual([[`asset-${record.localId}`, `Could not add: ${record.name}`, record.error]]);
    expect(proxy.callsOf('CreateAsset')).toEqual([]);
    expect(await uploadBytes.keys()).toEqual([]);
  });

  it('ends an item whose read was interrupted (the worker stopped) Failed once its wait is over', async () => {
    const now = Date.now();
    const database = await db();
    await database.put('assets', {
      localId: 'cut',
      groupId: 'g1',
      name: 'cut',
      url: 'blob:https://www.example.com/cut',
      type: 'Image',
      status: 'Queued',
      idempotencyKey: 'k-cut',
      notified: false,
      capture: { how: 'upload', reason: 'blob', stage: 'reading', source: 'blob:https://www.example.com/cut', bytesKey: 'cut', read: 10 },
      createdAt: now - READ_GRACE_MS - 1,
      updatedAt: now - READ_GRACE_MS - 1,
    });
    await database.add('queue', { kind: 'createAsset', localId: 'cut', attempts: 0, notBefore: now - 1 });
    await settle(syncSoon());
    expect(await only()).toMatchObject({ status: 'Failed', error: 'Reading from the page was interrupted. Add the item again.' });
    expect(proxy.calls).toEqual([]);
  });

  it('does not upload the same page media twice into a group', async () => {
    const url = 'blob:https://www.example.com/twice';
    page.serve(url, { body: pngBytes(), type: 'image/png' });
    await click({ srcUrl: url });
    await click({ srcUrl: url });
    expect(proxy.uploads.size).toBe(1);
    const record = await only();
    expect(shown(mocks.notify)).toContainEqual([`dup-${record.localId}`, 'Already in your library', expect.stringContaining('Moodboard')]);
    // Nothing read the second time, nothing kept.
    expect(page.requests).toHaveLength(1);
    expect(await uploadBytes.keys()).toEqual([]);
  });
});

describe('"New group…" and other ways in', () => {
  it('reads the item before the new-group page opens; the page adds it by its address', async () => {
    const create = vi.spyOn(fakeBrowser.windows, 'create').mockResolvedValue({} as never);
    const url = 'blob:https://www.example.com/new';
    page.serve(url, { body: pngBytes(), type: 'image/png' });
    await click({ srcUrl: url }, 'arkbridge-media/new-group');
    const params = Object.fromEntries(new URL(create.mock.calls[0]![0]!.url as string).searchParams);
    expect(params).toEqual({ url, name: 'Fox gallery', type: 'Image', pageTitle: 'Fox gallery' });
    expect(await uploadBytes.keys()).toEqual([stagedKey(url)]);
    expect(await assets()).toEqual([]);

    // The new-group page's `arkbridge:add`, once the group is created.
    await putGroup({ id: 'g2' });
    expect(await addAsset({ groupId: 'g2', url, name: 'Fox gallery', type: 'Image' })).toEqual({ ok: true, localId: expect.any(String) });
    await settle(syncSoon());
    expect(await only()).toMatchObject({ groupId: 'g2', status: 'Processing', capture: { how: 'upload', reason: 'blob', stage: 'uploaded' } });
    expect(sameBytes(bytesOfUpload().bytes, pngBytes())).toBe(true);
    expect(await uploadBytes.keys()).toEqual([]);
  });

  it('uploads through addAsset with an upload item (the keyboard save’s path)', async () => {
    const url = 'blob:https://www.example.com/key';
    page.serve(url, { body: pngBytes(), type: 'image/png' });
    const reply = await settle(addAsset({ groupId: 'g1', url, name: 'key', type: 'Image', upload: { url, reason: 'blob', name: 'key', type: 'Image', target: { tabId: 7 } } }));
    expect(reply).toEqual({ ok: true, localId: expect.any(String) });
    await settle(syncSoon());
    expect(await only()).toMatchObject({ status: 'Processing', capture: { how: 'upload' } });
  });

  it('deletes staged items never added after an hour', async () => {
    await uploadBytes.put({ key: stagedKey('blob:x'), bytes: pngBytes(), contentType: 'image/png', storedAt: Date.now() - 2 * 3600_000 });
    await uploadBytes.put({ key: stagedKey('blob:y'), bytes: pngBytes(), contentType: 'image/png', storedAt: Date.now() });
    await settle(syncSoon());
    expect(await uploadBytes.keys()).toEqual([stagedKey('blob:y')]);
  });
});

describe('bytes the extension holds (files, screenshots, frames)', () => {
  it('checks, keeps and uploads them, then creates the asset from the signed address', async () => {
    const bytes = pngBytes();
    const reply = await settle(addHeld('g1', { bytes, declaredType: '', name: 'board.png', reason: 'file', type: 'Image' }));
    expect(reply).toEqual({ ok: true, localId: expect.any(String) });
    await settle(syncSoon());
    const record = await only();
    expect(record).toMatchObject({ name: 'board.png', type: 'Image', status: 'Processing', capture: { how: 'upload', reason: 'file', stage: 'uploaded', contentType: 'image/png' } });
    expect(sameBytes(bytesOfUpload().bytes, bytes)).toBe(true);
    expect(proxy.callsOf('CreateAsset')[0]!.body.URL).toBe(record.url);
    expect(await uploadBytes.keys()).toEqual([]);
    expect(captureNote(record)).toMatch(/a file from this computer/);
  });

  it('adds the same bytes to a group once', async () => {
    const held = { bytes: jpegBytes(), declaredType: 'image/jpeg', name: 'shot', reason: 'screenshot', type: 'Image' } as const;
    expect(await settle(addHeld('g1', held))).toMatchObject({ ok: true });
    expect(await settle(addHeld('g1', { ...held, name: 'shot again' }))).toMatchObject({ ok: false });
    expect(await assets()).toHaveLength(1);
  });

  it('records a refusal Failed with the reason, nothing kept or sent', async () => {
    const reply = await settle(addHeld('g1', { bytes: svgBytes(), declaredType: 'image/svg+xml', name: 'logo.svg', reason: 'file', type: 'Image' }));
    expect(reply).toMatchObject({ ok: false, message: expect.stringMatching(/PNG, JPEG/) });
    await settle(syncSoon());
    expect(await only()).toMatchObject({ status: 'Failed', name: 'logo.svg' });
    expect(proxy.uploads.size).toBe(0);
    expect(await uploadBytes.keys()).toEqual([]);
  });
});
