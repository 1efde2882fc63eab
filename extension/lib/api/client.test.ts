import { describe, expect, it } from 'vitest';
import { FakeProxy, PROXY_URL, TOKEN } from '../testing/fake-proxy';
import { ProxyClient } from './client';
import { ApiError, failureFrom, isTransient, retryAfterMs, type ApiFailure } from './errors';

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

  it('treats a 200 page that is not JSON (a captive portal) as a failure to retry', async () => {
    const client = new ProxyClient({ proxyUrl: PROXY_URL, token: TOKEN }, async () => new Response('<html>Sign in to the Wi-Fi</html>', { status: 200 }));
    const failure = await failureOf(client.library('ListAssets', {}));
    expect(failure).toMatchObject({ kind: 'service', status: 200 });
    expect(isTransient(failure as ApiFailure)).toBe(true);
  });

  it('copes with an answer that is not JSON', async () => {
    const client = new ProxyClient({ proxyUrl: PROXY_URL, token: TOKEN }, async () => new Response('<html>Bad gateway</html>', { status: 502 }));
    expect(await failureOf(client.me())).toEqual({ kind: 'service', status: 502, code: 'http_502', message: 'The proxy answered HTTP 502.' });
  });
});
