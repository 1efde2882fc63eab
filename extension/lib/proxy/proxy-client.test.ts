import { describe, expect, it } from 'vitest';
import { ApiError, type ApiFailure, failureFrom, isTransient, retryAfterMs } from '@/lib/proxy/api-failure';
import { ANSWER_MAX_BYTES, ProxyClient } from '@/lib/proxy/proxy-client';
import { FakeProxy, PROXY_URL, TOKEN } from '@/lib/testing/fake-proxy';

const envelope = (Code: string, Message: string) => ({ ResponseMetadata: { Error: { Code, Message } } });

describe('failureFrom', () => {
  it('classifies what the extension acts on', () => {
    expect(failureFrom(401, envelope('AuthenticationFailed', 'x'), null)).toMatchObject({ kind: 'unauthorized', message: expect.stringMatching(/Reconnect/) });
    expect(failureFrom(429, envelope('RequestLimitExceeded', 'Slow down'), '12')).toEqual({ kind: 'rate_limited', message: 'Slow down', retryAfterMs: 12_000 });
    expect(failureFrom(504, envelope('UpstreamTimeout', 'Later'), null)).toEqual({ kind: 'timeout', message: 'Later' });
    expect(failureFrom(409, envelope('IdempotencyInProgress', 'Running'), null)).toEqual({ kind: 'in_progress', message: 'Running' });
    expect(failureFrom(409, { error: { code: 'idempotency_in_progress', message: 'Running' } }, null)).toMatchObject({ kind: 'in_progress' });
    expect(failureFrom(502, envelope('ServiceUnavailable', 'Down'), null)).toEqual({ kind: 'service', status: 502, code: 'ServiceUnavailable', message: 'Down' });
    expect(failureFrom(400, envelope('ValidationError', 'URL: must be an https:// URL'), null)).toEqual({
      kind: 'rejected',
      status: 400,
      code: 'ValidationError',
      message: 'URL: must be an https:// URL',
      field: 'URL',
    });
    expect(failureFrom(400, { error: { code: 'invalid_parameter', message: 'bad', param: 'content[0]' } }, null)).toMatchObject({ field: 'content[0]' });
    expect(failureFrom(403, null, null)).toEqual({ kind: 'rejected', status: 403, code: 'http_403', message: 'The proxy answered HTTP 403.' });
  });

  it('reads Retry-After as seconds or a date, with a default', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(retryAfterMs('0')).toBe(0);
    expect(retryAfterMs('Wed, 01 Jan 2025 00:01:00 GMT', now)).toBe(60_000);
    expect(retryAfterMs('Wed, 01 Jan 2024 00:01:00 GMT', now)).toBe(0);
    expect(retryAfterMs(null)).toBe(30_000);
    expect(retryAfterMs('soon')).toBe(30_000);
  });

  it('retries only what may succeed later', () => {
    const kinds = (['network', 'rate_limited', 'timeout', 'in_progress', 'service', 'rejected', 'unauthorized'] as const).filter((kind) =>
      isTransient({ kind } as ApiFailure),
    );
    expect(kinds).toEqual(['network', 'rate_limited', 'timeout', 'in_progress', 'service']);
  });
});

describe('ProxyClient', () => {
  const failureOf = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error) => (error instanceof ApiError ? error.failure : error),
    );

  it('sends the token, the action and the Idempotency-Key, and answers the Result', async () => {
    const proxy = new FakeProxy();
    const client = new ProxyClient({ proxyUrl: PROXY_URL, token: TOKEN }, proxy.fetch);
    const result = await client.library('CreateAssetGroup', { Name: 'Moodboard' }, { idempotencyKey: 'k-1' });
    expect(result).toEqual({ Id: expect.stringMatching(/^group-/) });
    expect(proxy.calls[0]).toMatchObject({
      method: 'POST',
      path: '/api/v3?Action=CreateAssetGroup&Version=2024-01-01',
      authorization: `Bearer ${TOKEN}`,
      idempotencyKey: 'k-1',
      body: { Name: 'Moodboard' },
    });
  });

  it('turns failures into ApiErrors, including failure envelopes answered with 200', async () => {
    const proxy = new FakeProxy();
    const client = new ProxyClient({ proxyUrl: PROXY_URL, token: TOKEN }, proxy.fetch);
    proxy.failNext('ListAssets', { kind: 'network' });
    expect(await failureOf(client.library('ListAssets', {}))).toMatchObject({ kind: 'network', message: expect.stringContaining(PROXY_URL) });
    proxy.failNext('ListAssets', { kind: 'status', status: 200, code: 'InternalError', message: 'Oops' });
    expect(await failureOf(client.library('ListAssets', {}))).toMatchObject({ kind: 'rejected', code: 'InternalError', message: 'Oops' });
    proxy.tokens.clear();
    expect(await failureOf(client.library('ListAssets', {}))).toMatchObject({ kind: 'unauthorized' });
  });

  it('a video create asks to be queued (Prefer: respond-async) and reads a 202 with the shared schema: a malformed one is not the proxy', async () => {
    const sent: Headers[] = [];
    let answer: unknown = { id: 'abq_abcdefghijklmnopqrstuvwx', object: 'queued_create', status: 'queued', position: 3 };
    const client = new ProxyClient({ proxyUrl: PROXY_URL, token: TOKEN }, async (_url, init) => {
      sent.push(new Headers(init?.headers));
      return new Response(JSON.stringify(answer), { status: 202, headers: { 'Content-Type': 'application/json' } });
    });
    const body = { model: 'm', content: [{ type: 'text' as const, text: 'x' }] };
    expect(await client.createVideo(body, 'key-1')).toEqual(answer);
    expect(sent[0]!.get('Prefer')).toBe('respond-async');
    expect(sent[0]!.get('Idempotency-Key')).toBe('key-1');
    answer = { id: '../admin', object: 'queued_create', status: 'queued', position: 0 };
    await expect(client.createVideo(body, 'key-2')).rejects.toMatchObject({ failure: { kind: 'service', code: 'unexpected_answer' } });
  });

  it('treats a 200 page that is not JSON (a captive portal) as a failure to retry', async () => {
    const client = new ProxyClient({ proxyUrl: PROXY_URL, token: TOKEN }, async () => new Response('<html>Sign in to the Wi-Fi</html>', { status: 200 }));
    const failure = await failureOf(client.library('ListAssets', {}));
    expect(failure).toMatchObject({ kind: 'service', status: 200 });
    expect(isTransient(failure as ApiFailure)).toBe(true);
  });

  it(`reads at most ${ANSWER_MAX_BYTES} bytes of an answer: a longer one is a failure to retry`, async () => {
    const tooLarge = new ProxyClient({ proxyUrl: PROXY_URL, token: TOKEN }, async () => new Response(`"${'x'.repeat(ANSWER_MAX_BYTES)}"`, { status: 400 }));
    const failure = await failureOf(tooLarge.me());
    expect(failure).toMatchObject({ kind: 'service', code: 'answer_too_large', message: expect.stringContaining(PROXY_URL) });
    expect(isTransient(failure as ApiFailure)).toBe(true);

    // An endless answer: reading stops past the limit.
    let pulls = 0;
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const endless = new ReadableStream<Uint8Array>({ pull: (controller) => void (pulls++, controller.enqueue(chunk)) });
    const client = new ProxyClient({ proxyUrl: PROXY_URL, token: TOKEN }, async () => new Response(endless, { status: 200 }));
    expect(await failureOf(client.me())).toMatchObject({ code: 'answer_too_large' });
    expect(pulls).toBeLessThanOrEqual(ANSWER_MAX_BYTES / chunk.length + 2);
  });

  it('reads an answer streamed in pieces, characters split between pieces included', async () => {
    const bytes = new TextEncoder().encode(JSON.stringify({ id: 'm-1', name: 'Zoë 林' }));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 3) controller.enqueue(bytes.slice(i, i + 3));
        controller.close();
      },
    });
    const client = new ProxyClient({ proxyUrl: PROXY_URL, token: TOKEN }, async () => new Response(body, { status: 200 }));
    expect(await client.me()).toEqual({ id: 'm-1', name: 'Zoë 林' });
  });

  it('copes with an answer that is not JSON', async () => {
    const client = new ProxyClient({ proxyUrl: PROXY_URL, token: TOKEN }, async () => new Response('<html>Bad gateway</html>', { status: 502 }));
    expect(await failureOf(client.me())).toEqual({ kind: 'service', status: 502, code: 'http_502', message: 'The proxy answered HTTP 502.' });
  });
});
