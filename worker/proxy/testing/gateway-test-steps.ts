import { expect } from 'vitest';
import type { PriceTable, UsageView } from '../../../shared';
import { adminHeaders, call, mediaUrl, proxyFetch, type Member } from './proxy-test-client';
import { advanceSandbox, MODEL, runTracking } from './proxy-test-steps';

/** Steps of the gateway's tests: prices, budgets, usage, reports, the alert webhook. */

/** An admin call; answers status and parsed body (text for CSV). */
export async function admin<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T; headers: Headers }> {
  const r = await proxyFetch(path, { method, headers: adminHeaders(), body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  const json = r.headers.get('content-type')?.includes('json');
  return { status: r.status, body: (json && text ? JSON.parse(text) : text) as T, headers: r.headers };
}

/** Prices `MODEL` at `perSecond` for every resolution (restore with `resetPrices`). */
export async function priceModel(perSecond: number, model = MODEL): Promise<void> {
  const table: PriceTable = { currency: 'CNY', models: { [model]: { '*': perSecond } } };
  expect((await admin('PUT', '/admin/prices', table)).status).toBe(200);
}

export const resetPrices = async () => expect((await admin('DELETE', '/admin/prices')).status).toBe(200);

export async function setBudget(m: Member, budget: { limit?: number | null; period?: string; maxRunning?: number | null }) {
  const r = await admin('PUT', `/admin/members/${m.id}/budget`, budget);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

export async function setTeamBudget(budget: { limit?: number | null; period?: string }) {
  const r = await admin('PUT', '/admin/budget', budget);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

export async function usage(m: Member): Promise<UsageView> {
  const r = await call<UsageView>(m, 'GET', '/proxy/usage');
  expect(r.status).toBe(200);
  return r.body;
}

/** A text-to-video create of `seconds` (no Idempotency-Key unless given). */
export const create = (m: Member, seconds = 5, extra: Record<string, string> = {}) =>
  call(m, 'POST', '/v1/video/generations', { model: MODEL, prompt: 'a kite', duration: seconds }, extra);

/** Brings a member's tasks to their end: the sandbox finishes them, the member's tracking runs. */
export async function finishTasks(m: Member): Promise<void> {
  await advanceSandbox(60);
  await runTracking(m);
}

/** What the alert webhook (ALERT_WEBHOOK_URL in tests) received, for one member. */
export async function webhookAlerts(memberId: string | null): Promise<any[]> {
  const { received } = (await (await fetch(`${mediaUrl}/hooks/alerts`)).json()) as { received: any[] };
  return received.filter((a) => a.member === memberId);
}
