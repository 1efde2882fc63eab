import { beforeEach, describe, expect, it, vi } from 'vitest';
import { accessOf, beginPageRead, checkAccess, decodeDataUrl } from '@/lib/capture/page-reader';
import { FakePage } from '@/lib/testing/fake-page';
import { dataUrl, pngBytes } from '@/lib/testing/media-bytes';
import { type BrowserMocks, proxyTestbed } from '@/lib/testing/test-setup';

let page: FakePage;
let mocks: BrowserMocks;
const target = { tabId: 7, frameId: 2 };
const noSleep = async () => {};

beforeEach(async () => {
  const testbed = await proxyTestbed();
  mocks = testbed.mocks;
  page = new FakePage(testbed.proxy.fetch);
  vi.stubGlobal('fetch', page.fetch);
  mocks.executeScript.mockImplementation(page.executeScript);
});

/** A body the test releases chunk by chunk. */
function trickle(chunks: Uint8Array[]) {
  const gates: (() => void)[] = [];
  const stream = () =>
    new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = chunks.shift();
        if (!next) return controller.close();
        await new Promise<void>((release) => gates.push(release));
        controller.enqueue(next);
      },
    });
  const release = async () => {
    while (!gates.length) await new Promise((r) => setTimeout(r, 1));
    gates.shift()!();
    await new Promise((r) => setTimeout(r, 5));
  };
  return { stream, release };
}

describe('reading in the page', () => {
  it('reads with the page’s cookies in the clicked frame, reports progress, and copies the bytes out in chunks', async () => {
    const bytes = pngBytes(3000);
    const { stream, release } = trickle([bytes.slice(0, 1000), bytes.slice(1000, 2000), bytes.slice(2000)]);
    page.serve('https://site.example/a.png', { body: stream, type: 'image/png', noLength: true });
    const handle = await beginPageRead(target, 'https://site.example/a.png', 10_000);
    expect(handle).not.toBeNull();
    const progress: [number, number | null][] = [];
    const finishing = handle!.finish({ onProgress: (read, total) => void progress.push([read, total]), sleep: () => release(), chunkBytes: 1024 });
    const result = await finishing;
    expect(result).toEqual({ ok: true, bytes, contentType: 'image/png' });
    // The bytes read grew as the page downloaded them.
    const reads = progress.map(([read]) => read);
    expect(reads[0]).toBe(0);
    expect(reads).toContain(1000);
    expect(reads).toContain(2000);
    expect(reads.at(-1)).toBe(3000);
    expect(reads).toEqual([...reads].sort((a, b) => a - b));
    expect(mocks.executeScript).toHaveBeenCalledWith(expect.objectContaining({ target: { tabId: 7, frameIds: [2] } }));
    expect(page.requests).toEqual([{ url: 'https://site.example/a.png', method: 'GET', credentials: 'include' }]);
    expect(page.scripts.filter((s) => s === 'readPageChunk')).toHaveLength(3);
    expect(page.scripts.at(-1)).toBe('endPageRead');
  });

  it('stops at the limit: from Content-Length before reading, or while streaming one without it', async () => {
    page.serve('https://site.example/big.png', { body: pngBytes(5000), type: 'image/png' });
    const announced = await (await beginPageRead(target, 'https://site.example/big.png', 4000))!.finish({ sleep: noSleep });
    expect(announced).toEqual({ ok: false, reason: 'too-large', detail: '5000' });
    page.serve('https://site.example/stream.png', { body: () => new Response(pngBytes(5000)).body!, type: 'image/png', noLength: true });
    const streamed = await (await beginPageRead(target, 'https://site.example/stream.png', 4000))!.finish({ sleep: noSleep });
    expect(streamed).toMatchObject({ ok: false, reason: 'too-large' });
  });

  it('says what failed: the page’s HTTP answer, a page gone, a read taking too long', async () => {
    page.serve('https://site.example/404.png', { body: pngBytes(), type: 'image/png', status: 404 });
    expect(await (await beginPageRead(target, 'https://site.example/404.png', 4000))!.finish({ sleep: noSleep })).toEqual({ ok: false, reason: 'failed', detail: 'HTTP 404' });

    page.serve('https://site.example/a.png', { body: pngBytes(), type: 'image/png' });
    const handle = await beginPageRead(target, 'https://site.example/a.png', 4000);
    // The page navigated: its isolated world (and the read) is gone.
    delete (globalThis as { __arkbridgeReads?: unknown }).__arkbridgeReads;
    expect(await handle!.finish({ sleep: noSleep })).toEqual({ ok: false, reason: 'lost' });

    const { stream } = trickle([pngBytes()]);
    page.serve('https://site.example/slow.png', { body: stream, type: 'image/png', noLength: true });
    const slow = await beginPageRead(target, 'https://site.example/slow.png', 4000);
    expect(await slow!.finish({ sleep: noSleep, timeoutMs: -1 })).toEqual({ ok: false, reason: 'timeout' });
  });

  it('answers null when the page cannot be scripted (no activeTab grant), or there is no tab', async () => {
    mocks.executeScript.mockRejectedValue(new Error('Cannot access contents of the page.'));
    expect(await beginPageRead(target, 'blob:https://site.example/x', 100)).toBeNull();
    expect(await beginPageRead(undefined, 'blob:https://site.example/x', 100)).toBeNull();
    expect(await beginPageRead({ tabId: -1 }, 'blob:https://site.example/x', 100)).toBeNull();
  });
});

describe('checking without cookies', () => {
  it('calls refused or answered-with-a-page gated, an error unknown', () => {
    expect(accessOf({ status: 200, contentType: 'image/png' })).toBe('public');
    expect(accessOf({ status: 206, contentType: 'video/mp4' })).toBe('public');
    expect(accessOf({ status: 401, contentType: 'text/plain' })).toBe('gated');
    expect(accessOf({ status: 403, contentType: '' })).toBe('gated');
    expect(accessOf({ status: 200, contentType: 'text/html; charset=utf-8' })).toBe('gated');
    expect(accessOf({ status: 404, contentType: 'text/html' })).toBe('unknown');
    expect(accessOf({ error: 'Failed to fetch' })).toBe('unknown');
    expect(accessOf(null)).toBe('unknown');
  });

  it('asks with HEAD and no cookies from the page; falls back to a one-byte GET where HEAD is refused', async () => {
    page.serve('https://site.example/open.png', { body: pngBytes(), type: 'image/png' });
    expect(await checkAccess(target, 'https://site.example/open.png')).toBe('public');
    page.serve('https://site.example/members.png', { body: pngBytes(), type: 'image/png', needsCookies: true });
    expect(await checkAccess(target, 'https://site.example/members.png')).toBe('gated');
    expect(page.requests.every((r) => r.credentials === 'omit' && r.method === 'HEAD')).toBe(true);
    page.serve('https://site.example/nohead.png', { body: pngBytes(), type: 'image/png', status: 405 });
    expect(await checkAccess(target, 'https://site.example/nohead.png')).toBe('unknown');
    expect(page.requests.at(-1)).toEqual({ url: 'https://site.example/nohead.png', method: 'GET', credentials: 'omit' });
    mocks.executeScript.mockRejectedValue(new Error('no access'));
    expect(await checkAccess(target, 'https://site.example/members.png')).toBe('unknown');
  });
});

describe('decodeDataUrl', () => {
  it('decodes base64 and percent-encoded data, and refuses what is surely too large unread', () => {
    const png = pngBytes(100);
    expect(decodeDataUrl(dataUrl('image/png', png), 1000)).toEqual({ bytes: png, contentType: 'image/png' });
    expect(decodeDataUrl('data:image/gif,GIF89a%01%00', 1000)).toEqual({ bytes: new Uint8Array([71, 73, 70, 56, 57, 97, 1, 0]), contentType: 'image/gif' });
    expect(decodeDataUrl(`data:image/png;base64,${'A'.repeat(4000)}`, 1000)).toEqual({ tooLarge: 3000 });
    expect(decodeDataUrl('https://x', 10)).toBeNull();
    expect(decodeDataUrl('data:image/png;base64,@@@', 10)).toBeNull();
  });
});
