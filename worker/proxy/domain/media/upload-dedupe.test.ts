import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { sha256Hex } from '../../../../shared';
import { appFetch, call, mediaUrl, type Member } from '../../testing/proxy-test-client';
import { usage } from '../../testing/gateway-test-steps';
import { member } from '../../testing/proxy-test-steps';
import { uploadsPrefix } from './media-ids';

/** The same bytes uploaded again by the same member answer the upload already kept (docs/media-store.md#uploads). */

const fixture = async (name: string) => new Uint8Array(await (await fetch(`${mediaUrl}/media/${name}`)).arrayBuffer());

async function upload(m: Member, bytes: Uint8Array, type = 'image/png', query = '') {
  const r = await appFetch(`/proxy/uploads${query}`, { method: 'POST', headers: { Authorization: `Bearer ${m.token}`, 'Content-Type': type, 'Content-Length': String(bytes.length) }, body: bytes });
  return { status: r.status, body: (await r.json()) as any };
}

/** What R2 holds under the member's uploads. */
async function stored(m: Member): Promise<{ objects: number; bytes: number }> {
  const page = await (env as unknown as { MEDIA: R2Bucket }).MEDIA.list({ prefix: uploadsPrefix(m.id) });
  return { objects: page.objects.length, bytes: page.objects.reduce((n, o) => n + o.size, 0) };
}

describe('upload dedupe', () => {
  it('the same bytes again by the same member: 200 with the same upload, existing, a fresh address; nothing stored twice', async () => {
    const m = await member();
    const png = await fixture('sample.png');
    const first = await upload(m, png, 'image/png', '?name=kite.png');
    expect(first.status).toBe(201);
    expect(first.body.existing).toBe(false);
    const again = await upload(m, png, 'image/png', '?name=other.png');
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: first.body.id, existing: true, size: png.length, contentType: 'image/png', sha256: await sha256Hex(png), name: 'kite.png', expiresAt: first.body.expiresAt });
    expect(again.body.url).toMatch(new RegExp(`/media/${first.body.id}\\?expires=${first.body.expiresAt}&sig=[0-9a-f]{64}$`));
    const served = await appFetch(new URL(again.body.url).pathname + new URL(again.body.url).search);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(png);
    expect(await stored(m)).toEqual({ objects: 1, bytes: png.length });
    expect((await usage(m)).storage.uploads).toBe(png.length);
    expect((await call(m, 'GET', '/proxy/uploads')).body.uploads).toHaveLength(1);
  });

  it('other bytes by the same member are a new upload', async () => {
    const m = await member();
    const png = await fixture('sample.png');
    await upload(m, png);
    const other = png.slice();
    other[other.length - 1] = other[other.length - 1]! ^ 0xff;
    expect((await upload(m, other)).status).toBe(201);
    expect((await stored(m)).objects).toBe(2);
  });

  it('another member uploading the same bytes gets an upload of their own', async () => {
    const [a, b] = [await member('a'), await member('b')];
    const png = await fixture('sample.png');
    const mine = await upload(a, png);
    const theirs = await upload(b, png);
    expect(theirs.status).toBe(201);
    expect(theirs.body.existing).toBe(false);
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(theirs.body.id).toContain(b.id);
    expect(await stored(a)).toEqual({ objects: 1, bytes: png.length });
    expect(await stored(b)).toEqual({ objects: 1, bytes: png.length });
    expect((await usage(b)).storage.uploads).toBe(png.length);
  });

  it('a deleted upload is not answered again: the same bytes make a new one', async () => {
    const m = await member();
    const png = await fixture('sample.png');
    const first = await upload(m, png);
    expect((await call(m, 'DELETE', `/proxy/uploads/${first.body.id}`)).status).toBe(204);
    const again = await upload(m, png);
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(first.body.id);
    expect(await stored(m)).toEqual({ objects: 1, bytes: png.length });
    expect((await usage(m)).storage.uploads).toBe(png.length);
  });

  it('an expired upload is not answered again: the same bytes make a new one', async () => {
    const m = await member();
    const png = await fixture('sample.png');
    const first = await upload(m, png);
    // Past the first upload's expiry (Date faked; no wait), before the cleanup deleted it.
    vi.useFakeTimers({ toFake: ['Date'] });
    let again;
    try {
      vi.setSystemTime((first.body.expiresAt + 1) * 1000);
      again = await upload(m, png);
    } finally {
      vi.useRealTimers();
    }
    expect(again.status).toBe(201);
    expect(again.body.existing).toBe(false);
    expect(again.body.id).not.toBe(first.body.id);
    expect(again.body.expiresAt).toBeGreaterThan(first.body.expiresAt);
  });

  it('an upload gone from the store (a lifecycle rule) is not answered: the new one takes its place', async () => {
    const m = await member();
    const png = await fixture('sample.png');
    const first = await upload(m, png);
    await (env as unknown as { MEDIA: R2Bucket }).MEDIA.delete(`${uploadsPrefix(m.id)}${first.body.id}`);
    const again = await upload(m, png);
    expect(again.status).toBe(201);
    expect((await upload(m, png)).body).toMatchObject({ id: again.body.id, existing: true });
  });

  it('two identical uploads at once end with one stored: one 201, one 200 with the same id', async () => {
    const m = await member();
    const png = await fixture('sample.png');
    const both = await Promise.all([upload(m, png), upload(m, png)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 201]);
    expect(both[0]!.body.id).toBe(both[1]!.body.id);
    expect(await stored(m)).toEqual({ objects: 1, bytes: png.length });
    expect((await usage(m)).storage.uploads).toBe(png.length);
  });
});
