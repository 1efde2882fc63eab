import { afterEach, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { quoteAnswerSchema } from '../../../../shared';
import { call, proxyFetch } from '../../testing/proxy-test-client';
import { admin, resetPrices, setBudget, setTeamBudget, usage } from '../../testing/gateway-test-steps';
import { member, noUpstream, upstream } from '../../testing/proxy-test-steps';

/** `POST /proxy/quote`: the reservation a create would make, with nothing reserved or sent upstream. */

const PRO15 = 'doubao-seedance-1-5-pro-251215';
const BODY = { model: PRO15, prompt: 'a kite over the sea', resolution: '720p', ratio: '21:9', duration: 5 };

afterEach(async () => {
  await setTeamBudget({ limit: null });
  await resetPrices();
});

describe('POST /proxy/quote', () => {
  it('answers the reservation the create then makes, with nothing reserved and nothing upstream', async () => {
    const m = await member();
    await setBudget(m, { limit: 10 });
    const before = await usage(m);
    const quote = await noUpstream(() => call(m, 'POST', '/proxy/quote', BODY));
    expect(quote.status).toBe(200);
    expect(v.safeParse(quoteAnswerSchema, quote.body).success).toBe(true);
    expect(quote.body).toEqual({ cost: 1.8048, currency: 'CNY', priced: true, unit: 'million_tokens', tokens: (1504 * 640 * 120) / 1024, remaining: 10, teamRemaining: null });
    expect(await usage(m)).toMatchObject({ reserved: before.reserved, running: before.running });
    const created = await call(m, 'POST', '/v1/video/generations', BODY);
    expect(created.status).toBe(200);
    expect(created.body.arkbridge).toMatchObject({ cost: quote.body.cost, estimate: quote.body.cost });
    expect(await usage(m)).toMatchObject({ reserved: quote.body.cost, remaining: 10 - quote.body.cost });
  });

  it("names what the member's and the team's budgets have left (null: no limit); a per-second table has no tokens", async () => {
    const m = await member();
    expect((await admin('PUT', '/admin/prices', { currency: 'CNY', models: { [PRO15]: { '*': 0.5 } } })).status).toBe(200);
    const team = (await admin('GET', '/admin/budget')).body;
    await setTeamBudget({ limit: team.spent + team.reserved + 100 });
    const quote = await call(m, 'POST', '/proxy/quote', { ...BODY, duration: -1 });
    expect(quote.body).toMatchObject({ cost: 6, unit: 'second', tokens: null, remaining: null, teamRemaining: 100 });
  });

  it.each([
    ['not JSON', '{"model":'],
    ['an unknown parameter for the model', JSON.stringify({ ...BODY, frames: 29 })],
    ['a duration out of range', JSON.stringify({ ...BODY, duration: 99 })],
    ['draft above 480p', JSON.stringify({ ...BODY, draft: true })],
    ['no prompt', JSON.stringify({ model: PRO15 })],
  ])('%s: the same 400 as the create, nothing upstream', async (_why, body) => {
    const m = await member();
    const send = async (path: string) => {
      const r = await proxyFetch(path, { method: 'POST', body, headers: { Authorization: `Bearer ${m.token}`, 'Content-Type': 'application/json' } });
      return { status: r.status, body: await r.json() };
    };
    const { value, calls } = await upstream(async () => [await send('/proxy/quote'), await send('/v1/video/generations')]);
    expect(calls()).toBe(0);
    const [quote, create] = value;
    expect(quote!.status).toBe(400);
    expect(quote).toEqual(create);
  });

  it('needs a member token', async () => {
    const r = await proxyFetch('/proxy/quote', { method: 'POST', body: JSON.stringify(BODY), headers: { 'Content-Type': 'application/json' } });
    expect(r.status).toBe(401);
  });
});
