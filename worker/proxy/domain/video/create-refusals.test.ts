import { afterEach, describe, expect, it } from 'vitest';
import { call, type Member } from '../../testing/proxy-test-client';
import { admin, priceModel, resetPrices, setBudget, setTeamBudget } from '../../testing/gateway-test-steps';
import { asset, group, heldAsset, member, MODEL, untilActive, upstream } from '../../testing/proxy-test-steps';

/**
 * `POST /proxy/quote` refuses exactly what `POST /v1/video/generations` refuses, with the same
 * status and answer (create-refusals.ts): the ledger's refusals (price_unknown, budget_exceeded)
 * and the `asset://` references (a stranger's, one that does not exist, one not yet Active).
 * MODEL (Seedance 2.0) has no price in the default table.
 */

const text = { type: 'text', text: 'a kite over the sea' };
const withAsset = (id: string) => ({ model: MODEL, content: [text, { type: 'image_url', image_url: { url: `asset://${id}` }, role: 'reference_image' }] });
const T2V = { model: MODEL, prompt: 'a kite', duration: 5 };

afterEach(async () => {
  await setTeamBudget({ limit: null });
  await resetPrices();
});

/** The quote's answer and the create's, and how many creates reached the service. */
async function quoteThenCreate(m: Member, body: object) {
  const { value, calls } = await upstream(async () => [await call(m, 'POST', '/proxy/quote', body), await call(m, 'POST', '/v1/video/generations', body)] as const);
  const [quote, create] = value;
  return { quote: { status: quote.status, body: quote.body }, create: { status: create.status, body: create.body }, creates: calls('v1-create', 'POST'), calls: calls() };
}

describe('the quote refuses what the create refuses', () => {
  it("a stranger's asset:// reference: the same 400 naming the element", async () => {
    const owner = await member('owner');
    const theirs = await asset(owner, await group(owner));
    const { quote, create, creates } = await quoteThenCreate(await member('stranger'), withAsset(theirs));
    expect(quote.status).toBe(400);
    expect(quote.body.error).toMatchObject({ code: 'invalid_parameter', param: 'content[1].image_url' });
    expect(quote).toEqual(create);
    expect(creates).toBe(0);
  });

  it('an asset:// reference that does not exist: the same 400', async () => {
    const { quote, create, creates } = await quoteThenCreate(await member(), withAsset('asset-20260101000000-nowhere'));
    expect(quote.status).toBe(400);
    expect(quote.body.error).toMatchObject({ code: 'invalid_parameter', param: 'content[1].image_url' });
    expect(quote).toEqual(create);
    expect(creates).toBe(0);
  });

  it('an asset:// reference not yet Active: the same 409 asset_not_ready', async () => {
    const m = await member();
    const held = await heldAsset(m, await group(m));
    const { quote, create, creates } = await quoteThenCreate(m, withAsset(held.id));
    await held.release();
    expect(quote.status).toBe(409);
    expect(quote.body.error).toMatchObject({ code: 'asset_not_ready', param: 'content[1].image_url' });
    expect(quote).toEqual(create);
    expect(creates).toBe(0);
  });

  it('an Active asset of the member: the quote answers 200 and the create creates', async () => {
    const m = await member();
    const mine = await asset(m, await group(m));
    await untilActive(m, mine);
    const { quote, create } = await quoteThenCreate(m, withAsset(mine));
    expect([quote.status, create.status]).toEqual([200, 200]);
  });

  it('over budget: the same 402 budget_exceeded, nothing upstream', async () => {
    await priceModel(1);
    const m = await member();
    await setBudget(m, { limit: 1 });
    const { quote, create, calls } = await quoteThenCreate(m, T2V);
    expect(quote.status).toBe(402);
    expect(quote.body.error).toMatchObject({ code: 'budget_exceeded', scope: 'member', cost: 5 });
    expect(quote).toEqual(create);
    expect(calls).toBe(0);
  });
});

describe('a catalogued model with no price, under a budget', () => {
  it("a member held to a limit of their own: 402 price_unknown naming the model, from the quote and the create, with no call to the service and nothing reserved", async () => {
    const m = await member();
    await setBudget(m, { limit: 100 });
    const { quote, create, calls } = await quoteThenCreate(m, T2V);
    expect(quote.status).toBe(402);
    expect(quote.body.error).toMatchObject({ code: 'price_unknown', type: 'insufficient_quota', param: 'model', model: MODEL });
    expect(quote.body.error.message).toContain(MODEL);
    expect(quote).toEqual(create);
    expect(calls).toBe(0);
    expect((await admin('GET', `/admin/members/${m.id}/budget`)).body).toMatchObject({ spent: 0, reserved: 0, running: 0 });
    const audit = (await admin('GET', '/admin/audit?limit=5')).body.entries.find((e: any) => e.action === 'create.refused' && e.actor === m.id);
    expect(audit).toMatchObject({ detail: { reason: 'price_unknown', model: MODEL } });
  });

  it("a member under the team's limit only: the same 402 price_unknown", async () => {
    const m = await member();
    await setTeamBudget({ limit: 1_000_000 });
    const { quote, create, calls } = await quoteThenCreate(m, T2V);
    expect(quote.status).toBe(402);
    expect(quote.body.error).toMatchObject({ code: 'price_unknown', model: MODEL });
    expect(quote).toEqual(create);
    expect(calls).toBe(0);
  });

  it('without any limit (maxRunning alone is none): it runs and is recorded unpriced', async () => {
    const m = await member();
    await setBudget(m, { maxRunning: 5 });
    const { quote, create } = await quoteThenCreate(m, T2V);
    expect(quote).toMatchObject({ status: 200, body: { priced: false, cost: 0 } });
    expect(create.status).toBe(200);
    expect(create.body.arkbridge).toMatchObject({ priced: false, cost: 0 });
  });

  it('once the model has a price, the same member creates it', async () => {
    const m = await member();
    await setBudget(m, { limit: 100 });
    await priceModel(1);
    const { quote, create } = await quoteThenCreate(m, T2V);
    expect([quote.status, create.status]).toEqual([200, 200]);
    expect(create.body.arkbridge).toMatchObject({ priced: true, cost: 5 });
  });
});
