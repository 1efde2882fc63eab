import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { sha256Hex } from '../../../../shared';
import worker from '../../index';
import { signedAddress } from './media-address';
import { ledgerObject } from '../../objects/handles';
import { cleanMediaStore, UPLOAD_GRACE_SECONDS } from './media-cleanup';
import { appFetch, call, mediaUrl, proxyEnv, type Member } from '../../testing/proxy-test-client';
import { create, usage } from '../../testing/gateway-test-steps';
import { advanceSandbox, member, memberRows, runTracking } from '../../testing/proxy-test-steps';

/** The media store (docs/media-store.md): uploads, signed addresses, kept outputs, cleanup, on the local R2. */

const fixture = async (name: string) => new Uint8Array(await (await fetch(`${mediaUrl}/media/${name}`)).arrayBuffer());

async function upload(m: Member, bytes: Uint8Array, type: string, query = '') {
  const r = await appFetch(`/proxy/uploads${query}`, { method: 'POST', headers: { Authorization: `Bearer ${m.token}`, 'Content-Type': type, 'Content-Length': String(bytes.length) }, body: bytes });
  return { status: r.status, body: (await r.json()) as any };
}

/** The path and query of a signed address, fetched from the proxy (its origin is the test's). */
const get = (url: string, init: RequestInit = {}) => {
  const u = new URL(url);
  return appFetch(`${u.pathname}${u.search}`, init);
};

describe('uploads', () => {
  it('an upload comes back byte for byte from its signed address, with its type, length, ETag and sha256', async () => {
    const m = await member();
    const png = await fixture('sample.png');
    const up = await upload(m, png, 'image/png', '?name=kite.png');
    expect(up.status).toBe(201);
    expect(up.body).toMatchObject({ id: expect.stringMatching(new RegExp(`^u-${m.id}-[0-9a-f]{24}$`)), size: png.length, contentType: 'image/png', sha256: await sha256Hex(png), name: 'kite.png' });
    expect(up.body.url).toMatch(/^https:\/\/proxy\.test\/media\/u-m[0-9a-f]{16}-[0-9a-f]{24}\?expires=\d+&sig=[0-9a-f]{64}$/);
    expect(up.body.expiresAt).toBeGreaterThan(Date.now() / 1000 + 86_000);
    const r = await get(up.body.url);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('image/png');
    expect(r.headers.get('content-length')).toBe(String(png.length));
    expect(r.headers.get('accept-ranges')).toBe('bytes');
    expect(r.headers.get('etag')).toMatch(/^".+"$/);
    expect(r.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    expect(new Uint8Array(await r.arrayBuffer())).toEqual(png);
    const head = await get(up.body.url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(png.length));
  });

  it('serves byte ranges with 206 and Content-Range', async () => {
    const m = await member();
    const mp4 = await fixture('sample.mp4');
    const up = await upload(m, mp4, 'video/mp4');
    const r = await get(up.body.url, { headers: { Range: 'bytes=10-29' } });
    expect(r.status).toBe(206);
    expect(r.headers.get('content-range')).toBe(`bytes 10-29/${mp4.length}`);
    expect(new Uint8Array(await r.arrayBuffer())).toEqual(mp4.subarray(10, 30));
    const tail = await get(up.body.url, { headers: { Range: 'bytes=-5' } });
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(mp4.subarray(mp4.length - 5));
  });

  it.each([
    ['unsatisfiable', (n: number) => `bytes=${n}-`],
    ['several ranges', () => 'bytes=0-9,20-29'],
    ['another unit', () => 'items=0-9'],
    ['malformed', () => 'bytes=abc'],
  ])('a Range it does not serve (%s) is ignored: 200 with the whole body (RFC 9110)', async (_what, range) => {
    const m = await member();
    const mp4 = await fixture('sample.mp4');
    const up = await upload(m, mp4, 'video/mp4');
    const r = await get(up.body.url, { headers: { Range: range(mp4.length) } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-range')).toBeNull();
    expect(r.headers.get('content-length')).toBe(String(mp4.length));
    expect(new Uint8Array(await r.arrayBuffer())).toEqual(mp4);
  });

  it('an upload name loses its bidirectional overrides and isolates, so it reads as it is', async () => {
    const m = await member();
    const name = 'photo\u202Egpj.exe \u202A\u202B\u202C\u202D\u2066\u2067\u2068\u2069end';
    const up = await upload(m, await fixture('sample.png'), 'image/png', `?name=${encodeURIComponent(name)}`);
    expect(up.status).toBe(201);
    expect(up.body.name).toBe('photogpj.exe end');
    const listed = await appFetch('/proxy/uploads', { headers: { Authorization: `Bearer ${m.token}` } });
    expect(((await listed.json()) as any).uploads.find((u: any) => u.id === up.body.id).name).toBe('photogpj.exe end');
  });

  it('a tampered or stretched signature is 403, an expired one 410, no listing', async () => {
    const m = await member();
    const up = await upload(m, await fixture('sample.png'), 'image/png');
    const url = new URL(up.body.url);
    const stretched = new URL(url);
    stretched.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    expect((await get(stretched.href)).status).toBe(403);
    const tampered = new URL(url);
    // The last character changed, always to another one (a fixed replacement is a no-op for 1 in 64 signatures).
    const sig = url.searchParams.get('sig')!;
    tampered.searchParams.set('sig', `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`);
    expect((await get(tampered.href)).status).toBe(403);
    expect((await get(`https://proxy.test${url.pathname}`)).status).toBe(403);
    const expired = signedAddress(proxyEnv.MEDIA_URL_SECRET!, 'https://proxy.test', up.body.id, Math.floor(Date.now() / 1000) - 10);
    const gone = await get(expired);
    expect(gone.status).toBe(410);
    expect(((await gone.json()) as any).error.code).toBe('expired');
    expect((await appFetch('/media/')).status).toBe(404);
    expect((await appFetch(`/media/${encodeURIComponent('uploads/')}`)).status).toBe(404);
  });

  it('bytes that are not the declared type are 415, naming both; nothing is kept', async () => {
    const m = await member();
    const r = await upload(m, await fixture('sample.jpg'), 'image/png');
    expect(r.status).toBe(415);
    expect(r.body.error).toMatchObject({ code: 'unsupported_media_type', message: 'The file is labelled image/png but its bytes are JPEG: send it with the matching Content-Type.' });
    const svg = await upload(m, await fixture('sample.svg'), 'image/svg+xml');
    expect(svg.status).toBe(415);
    expect((await call(m, 'GET', '/proxy/uploads')).body.uploads).toEqual([]);
    expect((await usage(m)).storage).toEqual({ uploads: 0, outputs: 0 });
  });

  it('over the kind limit is 413 from Content-Length, without reading the body', async () => {
    const m = await member();
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls++;
        controller.enqueue(new Uint8Array(1024 * 1024));
      },
    });
    const r = await appFetch('/proxy/uploads', {
      method: 'POST',
      headers: { Authorization: `Bearer ${m.token}`, 'Content-Type': 'audio/mpeg', 'Content-Length': String(16 * 1024 * 1024) },
      body,
      // @ts-expect-error: a streamed request body (fetch's duplex option)
      duplex: 'half',
    });
    expect(r.status).toBe(413);
    expect(((await r.json()) as any).error).toMatchObject({ code: 'request_too_large', message: 'body: the file is 16 MB; audio may be at most 15 MB.' });
    expect(pulls).toBeLessThanOrEqual(2);
  });

  it('without Content-Length is 411, an empty file 400', async () => {
    const m = await member();
    const r = await appFetch('/proxy/uploads', { method: 'POST', headers: { Authorization: `Bearer ${m.token}`, 'Content-Type': 'image/png', 'Content-Length': '0' }, body: '' });
    expect(r.status).toBe(400);
  });

  it("another member can neither delete nor list an upload; its owner can, and its storage is counted", async () => {
    const [owner, other] = [await member(), await member()];
    const png = await fixture('sample.png');
    const up = await upload(owner, png, 'image/png');
    expect((await usage(owner)).storage).toEqual({ uploads: png.length, outputs: 0 });
    expect((await call(other, 'GET', '/proxy/uploads')).body.uploads).toEqual([]);
    const denied = await call(other, 'DELETE', `/proxy/uploads/${up.body.id}`);
    expect(denied.status).toBe(404);
    expect(denied.body.error.code).toBe('upload_not_found');
    expect((await get(up.body.url)).status).toBe(200);
    const listed = await call(owner, 'GET', '/proxy/uploads');
    expect(listed.body.uploads).toEqual([expect.objectContaining({ id: up.body.id, size: png.length, contentType: 'image/png' })]);
    expect((await call(owner, 'DELETE', `/proxy/uploads/${up.body.id}`)).status).toBe(204);
    expect((await get(up.body.url)).status).toBe(404);
    expect((await usage(owner)).storage.uploads).toBe(0);
  });

  it('a body longer or shorter than its Content-Length is 400 naming the body; nothing is kept', async () => {
    const m = await member();
    const png = await fixture('sample.png');
    const send = (length: number, chunks: Uint8Array[]) =>
      appFetch('/proxy/uploads', {
        method: 'POST',
        headers: { Authorization: `Bearer ${m.token}`, 'Content-Type': 'image/png', 'Content-Length': String(length) },
        body: new ReadableStream<Uint8Array>({
          start(controller) {
            for (const chunk of chunks) controller.enqueue(chunk);
            controller.close();
          },
        }),
        // @ts-expect-error: a streamed request body (fetch's duplex option)
        duplex: 'half',
      });
    const halves = [png.subarray(0, 1000), png.subarray(1000)];
    const longer = await send(png.length - 10, halves);
    expect(longer.status).toBe(400);
    expect(((await longer.json()) as any).error).toMatchObject({ code: 'invalid_parameter', param: 'body', message: `body: longer than its Content-Length (${png.length - 10} bytes).` });
    const shorter = await send(png.length + 10, halves);
    expect(shorter.status).toBe(400);
    expect(((await shorter.json()) as any).error).toMatchObject({ code: 'invalid_parameter', param: 'body', message: `body: ${png.length} bytes arrived of the ${png.length + 10} its Content-Length announced.` });
    const tiny = await send(100, [png.subarray(0, 8)]);
    expect(tiny.status).toBe(400);
    expect(((await tiny.json()) as any).error.message).toBe('body: 8 bytes arrived of the 100 its Content-Length announced.');
    expect((await call(m, 'GET', '/proxy/uploads')).body.uploads).toEqual([]);
    expect((await usage(m)).storage).toEqual({ uploads: 0, outputs: 0 });
  });

  it('a large upload streamed in many chunks is stored byte for byte, with the SHA-256 of all its bytes', async () => {
    const m = await member();
    const mp4 = await fixture('sample.mp4');
    // 5 MB and a bit, no two blocks alike (a buffer written over too early would show), an MP4 at the front.
    const bytes = new Uint8Array(5 * 1024 * 1024 + 5).map((_, i) => (i * 31 + (i >>> 11)) & 255);
    bytes.set(mp4.subarray(0, 4096));
    // A byte stream like a request body from the network, fed 64 KB at a time.
    const { readable, writable } = new IdentityTransformStream();
    const writer = writable.getWriter();
    const feeding = (async () => {
      for (let at = 0; at < bytes.length; at += 65_536) await writer.write(bytes.slice(at, at + 65_536));
      await writer.close();
    })();
    const r = await appFetch('/proxy/uploads', {
      method: 'POST',
      headers: { Authorization: `Bearer ${m.token}`, 'Content-Type': 'video/mp4', 'Content-Length': String(bytes.length) },
      body: readable,
      // @ts-expect-error: a streamed request body (fetch's duplex option)
      duplex: 'half',
    });
    await feeding;
    const up = (await r.json()) as any;
    expect(r.status).toBe(201);
    expect(up).toMatchObject({ size: bytes.length, sha256: await sha256Hex(bytes) });
    const stored = new Uint8Array(await (await get(up.url)).arrayBuffer());
    expect(stored.length).toBe(bytes.length);
    expect(await sha256Hex(stored)).toBe(await sha256Hex(bytes));
  });

  it('the sha256 in the answer is the SHA-256 of the bytes (awaited: a promise would match any value)', async () => {
    const m = await member();
    for (const [file, type] of [['sample.png', 'image/png'], ['sample.mp4', 'video/mp4']] as const) {
      const bytes = await fixture(file);
      const up = await upload(m, bytes, type);
      expect(up.status).toBe(201);
      expect(up.body.sha256).toBe(await sha256Hex(bytes));
    }
  });

  it('needs a valid member token', async () => {
    const r = await appFetch('/proxy/uploads', { method: 'POST', headers: { 'Content-Type': 'image/png' }, body: 'x' });
    expect(r.status).toBe(401);
  });
});

describe('kept outputs', () => {
  it("a completed task's video is kept, answered with a fresh signed address, and still served after the service's link expired", async () => {
    const m = await member();
    const created = await create(m);
    await advanceSandbox(60);
    await runTracking(m);
    const task = await call(m, 'GET', `/v1/video/generations/${created.body.id}`);
    expect(task.body.status).toBe('completed');
    const { keptUrl, keptUntil } = task.body.arkbridge;
    expect(keptUrl).toMatch(new RegExp(`^https://proxy\\.test/media/o-${m.id}-${created.body.id}\\?expires=\\d+&sig=[0-9a-f]{64}$`));
    expect(keptUntil).toBeGreaterThan(Date.now() / 1000 + 29 * 86_400);
    const original = new Uint8Array(await (await fetch(task.body.metadata.url)).arrayBuffer());
    expect((await usage(m)).storage.outputs).toBe(original.length);
    await advanceSandbox(25 * 3600);
    expect((await fetch(task.body.metadata.url)).status).toBe(410);
    const kept = await get(keptUrl);
    expect(kept.status).toBe(200);
    expect(kept.headers.get('content-type')).toBe('video/mp4');
    expect(new Uint8Array(await kept.arrayBuffer())).toEqual(original);
  });

  it('a copy that cannot be made says so in the task, with the reason', async () => {
    const m = await member();
    const created = await create(m);
    await advanceSandbox(60);
    await runTracking(m);
    // As if the service's link had answered 404 when the copy was tried; due at once (1 ms after the
    // epoch: an alarm at 0 or before is refused by the runtime).
    await memberRows(m, "UPDATE tasks SET keep_state = 'pending', keep_next_at = 1, next_check_at = 1, body = json_set(body, '$.metadata.url', ?) WHERE id = ?", `${mediaUrl}/status/404`, created.body.id);
    await runTracking(m);
    const task = await call(m, 'GET', `/v1/video/generations/${created.body.id}`);
    expect(task.body.arkbridge).toMatchObject({ keep: 'failed', keepError: expect.stringContaining('HTTP 404') });
    expect(task.body.arkbridge.keptUrl).toBeUndefined();
  });

  it('DELETE /proxy/outputs/:taskId removes the copy; another member cannot', async () => {
    const [m, other] = [await member(), await member()];
    const created = await create(m);
    await advanceSandbox(60);
    await runTracking(m);
    const { keptUrl } = (await call(m, 'GET', `/v1/video/generations/${created.body.id}`)).body.arkbridge;
    expect((await call(other, 'DELETE', `/proxy/outputs/${created.body.id}`)).status).toBe(404);
    expect((await call(m, 'DELETE', `/proxy/outputs/${created.body.id}`)).status).toBe(204);
    expect((await get(keptUrl)).status).toBe(404);
    expect((await call(m, 'GET', `/v1/video/generations/${created.body.id}`)).body.arkbridge).toMatchObject({ keep: 'deleted' });
    expect((await usage(m)).storage.outputs).toBe(0);
    expect((await call(m, 'DELETE', `/proxy/outputs/${created.body.id}`)).status).toBe(404);
  });
});

describe('cleanup', () => {
  it('deletes expired uploads (after an hour of grace) and outputs past their keep date, and frees their storage', async () => {
    const m = await member();
    const png = await fixture('sample.png');
    const up = await upload(m, png, 'image/png');
    const created = await create(m);
    await advanceSandbox(60);
    await runTracking(m);
    const { keptUntil } = (await call(m, 'GET', `/v1/video/generations/${created.body.id}`)).body.arkbridge;
    // Just expired: within the grace hour, kept.
    await cleanMediaStore(proxyEnv, ledgerObject(proxyEnv), up.body.expiresAt + 60);
    expect((await call(m, 'GET', '/proxy/uploads')).body.uploads).toHaveLength(1);
    const report = await cleanMediaStore(proxyEnv, ledgerObject(proxyEnv), keptUntil + 1);
    expect(report.uploads).toBeGreaterThanOrEqual(1);
    expect(report.outputs).toBeGreaterThanOrEqual(1);
    expect((await call(m, 'GET', '/proxy/uploads')).body.uploads).toEqual([]);
    expect(await usage(m).then((u) => u.storage)).toEqual({ uploads: 0, outputs: 0 });
  });

  it('runs from the Worker’s scheduled handler: an upload past its grace is deleted and its bytes freed', async () => {
    const m = await member();
    const png = await fixture('sample.png');
    const up = await upload(m, png, 'image/png');
    expect((await usage(m)).storage.uploads).toBe(png.length);
    // The cron runs at a time past the address's expiry and the grace hour (Date faked; no wait).
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime((up.body.expiresAt + UPLOAD_GRACE_SECONDS + 60) * 1000);
      const ctx = createExecutionContext();
      await worker.scheduled!(createScheduledController({ scheduledTime: Date.now(), cron: '17 * * * *' }), env as never, ctx);
      await waitOnExecutionContext(ctx);
    } finally {
      vi.useRealTimers();
    }
    expect((await call(m, 'GET', '/proxy/uploads')).body.uploads).toEqual([]);
    expect((await get(up.body.url)).status).toBe(404);
    expect((await usage(m)).storage.uploads).toBe(0);
  });
});
