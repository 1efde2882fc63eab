import { formatMoney, fromMicros } from '../../../../shared';
import type { Refusal } from './budget-book';
import type { Refused } from './ledger-port';

/**
 * A refusal of budget-book.ts (`refusalFor`) as the member reads it and as the audit log keeps it:
 * one wording for the create and its quote.
 */

export function refused(refusal: Refusal, currency: string): Refused {
  const money = (micros: number) => formatMoney(micros, currency);
  if (refusal.kind === 'running') {
    return {
      ok: false,
      currency,
      kind: 'running',
      running: refusal.running,
      maxRunning: refusal.maxRunning,
      message: `You have ${refusal.running} tasks running, the most your budget allows at once; wait for one to end, then submit again.`,
    };
  }
  if (refusal.kind === 'price_unknown') {
    return {
      ok: false,
      currency,
      kind: 'price_unknown',
      model: refusal.model,
      message: `The team's price table has no price for ${refusal.model}, so what it costs cannot be counted against your budget; nothing was created. Ask the team's admin to set its price (PUT /admin/prices).`,
    };
  }
  const whose = refusal.scope === 'team' ? "the team's budget" : 'your budget';
  const period = refusal.period === 'month' ? ' this month' : '';
  return {
    ok: false,
    currency,
    kind: 'budget',
    scope: refusal.scope,
    remaining: fromMicros(refusal.remaining),
    cost: fromMicros(refusal.cost),
    message: `This video would cost ${money(refusal.cost)} and ${whose} has ${money(refusal.remaining)} left${period} (limit ${money(refusal.limit)}); nothing was created. Ask the team's admin to raise the limit${period ? ', or wait for next month' : ''}.`,
  };
}

/** The detail of a `create.refused` audit entry. */
export function refusalDetail(refusal: Refusal, model: string): Record<string, unknown> {
  if (refusal.kind === 'running') return { reason: 'too_many_running_tasks', model, running: refusal.running, maxRunning: refusal.maxRunning };
  if (refusal.kind === 'price_unknown') return { reason: 'price_unknown', model };
  return { reason: 'budget_exceeded', scope: refusal.scope, model, cost: fromMicros(refusal.cost), remaining: fromMicros(refusal.remaining), limit: fromMicros(refusal.limit) };
}
