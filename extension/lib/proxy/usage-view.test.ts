import { describe, expect, it } from 'vitest';
import { USAGE } from '@/lib/budget/testing/usage-fixture';
import { ApiError } from '@/lib/proxy/api-failure';
import { ANSWER_MAX_BYTES, ProxyClient } from '@/lib/proxy/proxy-client';
import { usageViewOf } from '@/lib/proxy/usage-view';
import { FakeProxy, PROXY_URL, TOKEN } from '@/lib/testing/fake-proxy';

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error) => (error instanceof ApiError ? error.failure : error),
  );

describe('GET /proxy/usage', () => {
  it('answers the member’s budget, with the member token', async () => {
    const proxy = new FakeProxy();
    proxy.usage = USAGE;
    const client = new ProxyClient({ proxyUrl: PROXY_URL, token: TOKEN }, proxy.fetch);
    expect(await client.usage()).toEqual(USAGE);
    expect(proxy.calls[0]).toMatchObject({ method: 'GET', path: '/proxy/usage', authorization: `Bearer ${TOKEN}` });
  });

  it('answers null from a proxy without budgets (404), and fails otherwise as every call', async () => {
    const proxy = new FakeProxy();
    const client = new ProxyClient({ proxyUrl: PROXY_URL, token: TOKEN }, proxy.fetch);
    expect(await client.usage()).toBeNull();
    proxy.failNext('/proxy/usage', { kind: 'status', status: 500 });
    expect(await failureOf(client.usage())).toMatchObject({ kind: 'service', status: 500 });
    proxy.tokens.clear();
    expect(await failureOf(client.usage())).toMatchObject({ kind: 'unauthorized' });
  });

  it('reads at most the bounded answer size, and refuses an answer that is no usage view', async () => {
    const huge = new ProxyClient({ proxyUrl: PROXY_URL, token: TOKEN }, async () => new Response(`"${'x'.repeat(ANSWER_MAX_BYTES)}"`, { status: 200 }));
    expect(await failureOf(huge.usage())).toMatchObject({ code: 'answer_too_large' });
    const odd = new ProxyClient({ proxyUrl: PROXY_URL, token: TOKEN }, async () => new Response('{"hello":"world"}', { status: 200 }));
    expect(await failureOf(odd.usage())).toMatchObject({ kind: 'service', code: 'unexpected_answer' });
  });

  it('ignores unknown fields and malformed alerts', () => {
    const answer = { ...USAGE, later: true, alerts: [...USAGE.alerts, { scope: 'member', threshold: 50 }, 'x'], team: { ...USAGE.team, extra: 1 } };
    expect(usageViewOf(answer)).toEqual(USAGE);
    expect(usageViewOf({ ...USAGE, alerts: undefined })).toEqual({ ...USAGE, alerts: [] });
    // An older proxy says nothing of storage: nothing stored.
    expect(usageViewOf({ ...USAGE, storage: undefined })).toEqual({ ...USAGE, storage: { uploads: 0, outputs: 0 } });
    expect(usageViewOf({ ...USAGE, remaining: '83' })).toBeNull();
    expect(usageViewOf({ ...USAGE, period: 'week' })).toBeNull();
    expect(usageViewOf({ ...USAGE, team: null })).toBeNull();
  });
});
