import { afterEach, describe, expect, it } from 'vitest';
import { call } from '../../testing/proxy-test-client';
import { admin, finishTasks, resetPrices, setBudget, usage } from '../../testing/gateway-test-steps';
import { member, upstream } from '../../testing/proxy-test-steps';

/**
 * The ledger matches the bill (docs/budgets.md, "How a task is priced"): tasks created through the
 * proxy against the sandbox, which reports `usage.completion_tokens` as the service does, are
 * charged exactly tokens x list price of the default (per token) table.
 */

const PRO15 = 'doubao-seedance-1-5-pro-251215';

afterEach(async () => {
  await resetPrices();
});

/** Creates a task of `body`, brings it to its end, and answers its row of GET /admin/tasks. */
async function charged(body: Record<string, unknown>) {
  const m = await member();
  const created = await call(m, 'POST', '/v1/video/generations', { prompt: 'a kite over the sea', ...body });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  await finishTasks(m);
  const [row] = (await admin('GET', `/admin/tasks?member=${m.id}`)).body.tasks;
  expect(row).toMatchObject({ id: created.body.id, status: 'completed' });
  return { m, row, created };
}

describe('charged = output tokens x list price', () => {
  it.each([
    ['21:9', 1504, 640],
    ['4:3', 1120, 832],
    ['1:1', 960, 960],
  ])('720p %s 5 s on 1.5 Pro with audio: tokens x 16 CNY per million, to the micro-unit', async (ratio, width, height) => {
    const { m, row, created } = await charged({ model: PRO15, resolution: '720p', ratio, duration: 5 });
    const tokens = (width * height * 120) / 1024;
    expect(row).toMatchObject({ tokens, cost: (tokens * 16) / 1e6, estimate: 1.8048, overrun: false });
    expect(await usage(m)).toMatchObject({ spent: (tokens * 16) / 1e6, reserved: 0 });
    // The task answer shows both: charged and reserved.
    const task = await call(m, 'GET', `/v1/video/generations/${created.body.id}`);
    expect(task.body.arkbridge).toMatchObject({ cost: (tokens * 16) / 1e6, estimate: 1.8048, priced: true });
  });

  it('a silent 1.5 Pro task is charged the silent price (8 CNY per million tokens)', async () => {
    const { row } = await charged({ model: PRO15, resolution: '720p', ratio: '16:9', duration: 5, generate_audio: false });
    const tokens = (1248 * 704 * 120) / 1024;
    expect(row).toMatchObject({ tokens, cost: (tokens * 8) / 1e6, estimate: (((1504 * 640 * 120) / 1024) * 8) / 1e6 });
  });

  it('draft and service_tier are priced by their variant keys', async () => {
    const table = { currency: 'CNY', unit: 'million_tokens', models: { [PRO15]: { '*': 16, silent: 8, draft: 5, flex: 7 } } };
    expect((await admin('PUT', '/admin/prices', table)).status).toBe(200);
    const tokens480 = (864 * 480 * 96) / 1024;
    const draft = await charged({ model: PRO15, resolution: '480p', ratio: '16:9', duration: 4, draft: true });
    expect(draft.row).toMatchObject({ tokens: tokens480, cost: (tokens480 * 5) / 1e6 });
    const flex = await charged({ model: PRO15, resolution: '480p', ratio: '16:9', duration: 4, service_tier: 'flex' });
    expect(flex.row).toMatchObject({ tokens: tokens480, cost: (tokens480 * 7) / 1e6 });
  });
});

describe('a priced model outside the catalog', () => {
  it('is reserved for the longest catalog duration, so a member with a limit of 0 is refused with nothing sent upstream', async () => {
    expect((await admin('PUT', '/admin/prices', { currency: 'CNY', models: { 'acme-video-9': { '*': 1 } } })).status).toBe(200);
    const m = await member();
    await setBudget(m, { limit: 0 });
    const { value: r, calls } = await upstream(() => call(m, 'POST', '/v1/video/generations', { model: 'acme-video-9', prompt: 'a kite' }));
    expect(calls()).toBe(0);
    expect(r.status).toBe(402);
    expect(r.body.error).toMatchObject({ code: 'budget_exceeded', cost: 15, remaining: 0 });
    expect(await usage(m)).toMatchObject({ reserved: 0, running: 0 });
  });
});
