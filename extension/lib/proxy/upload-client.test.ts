import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/proxy/api-failure';
import { ProxyClient } from '@/lib/proxy/proxy-client';
import { UPLOAD_ANSWER_MAX_BYTES, uploadMedia } from '@/lib/proxy/upload-client';
import { FakeProxy, PROXY_URL, TOKEN } from '@/lib/testing/fake-proxy';
import { jpegBytes, pngBytes } from '@/lib/testing/media-bytes';

const connection = { proxyUrl: PROXY_URL, token: TOKEN };

/** The failure an upload answered with `status` and `body` throws. */
async function failureOf(status: number, body: unknown, headers: Record<string, string> = {}) {
  const fetchImpl = (async () => new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers })) as typeof fetch;
  const error = await uploadMedia(new ProxyClient(connection, fetchImpl), pngBytes(), { contentType: 'image/png' }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  return (error as ApiError).failure;
}

describe('uploadMedia', () => {
  it('sends the bytes with the member token, the type and the name, and answers the stored upload', async () => {
    const proxy = new FakeProxy();
    const client = new ProxyClient(connection, proxy.fetch);
    const answer = await uploadMedia(client, pngBytes(), { contentType: 'image/png', name: 'red fox.png' });
    const [call] = proxy.calls;
    expect(call).toMatchObject({ method: 'POST', path: '/proxy/uploads?name=red%20fox.png', authorization: `Bearer ${TOKEN}`, contentType: 'image/png' });
    expect(call!.body).toEqual(pngBytes());
    expect(answer).toMatchObject({ id: expect.stringMatching(/^u-/), size: 1024, contentType: 'image/png', name: 'red fox.png' });
    expect(answer.url).toMatch(/^https:\/\/proxy\.test\/media\/u-.*\?expires=\d+&sig=/);
  });

  it('turns the proxy’s refusals into readable failures', async () => {
    const proxy = new FakeProxy();
    const client = new ProxyClient(connection, proxy.fetch);
    // The fake proxy checks the bytes as the proxy does: a JPEG labelled PNG is 415.
    const mislabelled = await uploadMedia(client, jpegBytes(), { contentType: 'image/png' }).catch((e: ApiError) => e.failure);
    expect(mislabelled).toMatchObject({ kind: 'rejected', status: 415, message: expect.stringMatching(/^The proxy did not take this file: The file is labelled image\/png but its bytes are JPEG/) });

    expect(await failureOf(411, { error: { code: 'length_required', message: 'Send the file with a Content-Length header.' } })).toMatchObject({
      kind: 'rejected',
      status: 411,
      message: expect.stringContaining('without its size (HTTP 411)'),
    });
    expect(await failureOf(413, { error: { code: 'request_too_large', message: 'body: the file is 62 MB; a video may be at most 50 MB.' } })).toMatchObject({
      kind: 'rejected',
      message: 'The proxy refused the file as too large: it takes images up to 30 MB, video up to 50 MB, audio up to 15 MB.',
    });
    expect(await failureOf(404, { error: { code: 'not_found', message: 'No route.' } })).toEqual({
      kind: 'rejected',
      status: 404,
      code: 'uploads_unsupported',
      message: 'This proxy cannot take uploads; ask its admin to update it.',
    });
    expect(await failureOf(503, { error: { code: 'media_store_not_configured', message: '…' } })).toMatchObject({ kind: 'rejected', message: expect.stringContaining('media store is not set up') });
  });

  it('keeps the failures every call has: token refused, rate limited, unreachable, a failing proxy', async () => {
    expect(await failureOf(401, { error: { code: 'unauthorized', message: 'no' } })).toMatchObject({ kind: 'unauthorized' });
    expect(await failureOf(429, { error: { code: 'rate_limited', message: 'slow down' } }, { 'Retry-After': '7' })).toMatchObject({ kind: 'rate_limited', retryAfterMs: 7000 });
    expect(await failureOf(502, { error: { code: 'media_store_failed', message: 'The upload could not be stored.' } })).toMatchObject({ kind: 'service' });
    const unreachable = new ProxyClient(connection, (async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof fetch);
    const offline = await uploadMedia(unreachable, pngBytes(), { contentType: 'image/png' }).catch((e: ApiError) => e.failure);
    expect(offline).toMatchObject({ kind: 'network' });
  });

  it('reads a bounded answer, and refuses one that is not the proxy’s', async () => {
    expect(await failureOf(201, { ok: true })).toMatchObject({ kind: 'service', code: 'unexpected_answer' });
    expect(await failureOf(201, 'x'.repeat(UPLOAD_ANSWER_MAX_BYTES + 1))).toMatchObject({ kind: 'service', code: 'unexpected_answer' });
    expect(await failureOf(201, { id: 'u', url: 'javascript:alert(1)', expiresAt: 1, size: 1, contentType: 'image/png', sha256: '', name: null })).toMatchObject({ kind: 'service' });
  });
});
