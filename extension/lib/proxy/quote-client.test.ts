import { describe, expect, it } from 'vitest';
import type { QuoteAnswer } from '@@/shared';
import { MODEL_IDS } from '@@/shared/catalog/testing/model-ids';
import { ApiError } from '@/lib/proxy/api-failure';
import { ProxyClient } from '@/lib/proxy/proxy-client';
import { quoteVideo } from '@/lib/proxy/quote-client';
import { FakeProxy, PROXY_URL, TOKEN } from '@/lib/testing/fake-proxy';

const connection = { proxyUrl: PROXY_URL, token: TOKEN };
const BODY = { model: MODEL_IDS.s2, content: [{ type: 'text' as const, text: 'A cat' }], resolution: '720p' as const };
const QUOTE: QuoteAnswer = { cost: 3.672, currency: 'CNY', priced: true, unit: 'second', tokens: null, remaining: 12.5, teamRemaining: null };

function setup(quote: FakeProxy['quote'] = QUOTE) {
  const proxy = new FakeProxy();
  proxy.quote = quote;
  return { proxy, client: new ProxyClient(connection, proxy.fetch) };
}

describe('quoteVideo', () => {
  it('posts the create body with the member token and answers the quote read with the shared schema', async () => {
    const { proxy, client } = setup({ ...QUOTE, newerField: 1 } as QuoteAnswer);
    expect(await quoteVideo(client, BODY)).toEqual(QUOTE);
    expect(proxy.calls).toMatchObject([{ method: 'POST', path: '/proxy/quote', authorization: `Bearer ${TOKEN}`, body: BODY, idempotencyKey: null }]);
  });

  it('answers null from an older proxy without the route (404)', async () => {
    const { client } = setup(null);
    expect(await quoteVideo(client, BODY)).toBeNull();
  });

  it('a body the create would refuse is a rejection naming its field', async () => {
    const { client } = setup();
    const failure = await quoteVideo(client, { ...BODY, resolution: '4k' as never }).catch((e: ApiError) => e.failure);
    expect(failure).toMatchObject({ kind: 'rejected', status: 400, field: 'resolution' });
  });

  it('a model the member may not use is a rejection (403 model_not_allowed)', async () => {
    const { proxy, client } = setup();
    proxy.failNext('/proxy/quote', { kind: 'api-error', status: 403, code: 'model_not_allowed', message: 'model: you may not use this model.', param: 'model' });
    expect(await quoteVideo(client, BODY).catch((e: ApiError) => e.failure)).toMatchObject({ kind: 'rejected', status: 403, code: 'model_not_allowed', field: 'model' });
  });

  it('a network failure, a 5xx and an answer that is no quote are passing failures', async () => {
    const { proxy, client } = setup({ cost: 'a lot' } as never);
    proxy.failNext('/proxy/quote', { kind: 'network' }).failNext('/proxy/quote', { kind: 'status', status: 503 });
    const kinds = [];
    for (let i = 0; i < 3; i++) kinds.push(await quoteVideo(client, BODY).catch((e: ApiError) => e.failure.kind));
    expect(kinds).toEqual(['network', 'service', 'service']);
  });
});
