import { fromMicros, isKnownModel, type BudgetState, type MemberBudgetState, type Period } from '../../../../shared';
import { periodKey, periodKeys } from './periods';

/**
 * Budgets and what is spent and reserved against them. Every function here is synchronous:
 * inside the ledger's Durable Object no other request runs between a check and the write that
 * follows it, which is what makes a reservation atomic (no await in between, ever).
 */

export const TEAM = 'team';
export const memberScope = (member: string) => `member:${member}`;

export interface Budget {
  limit: number | null;
  period: Period;
  maxRunning: number | null;
}

const NO_BUDGET: Budget = { limit: null, period: 'month', maxRunning: null };

export function readBudget(sql: SqlStorage, scope: string): Budget {
  const row = sql.exec('SELECT limit_micros, period, max_running FROM budgets WHERE scope = ?', scope).toArray()[0];
  if (!row) return NO_BUDGET;
  return { limit: row.limit_micros as number | null, period: row.period as Period, maxRunning: row.max_running as number | null };
}

export function writeBudget(sql: SqlStorage, scope: string, budget: Budget, now: number): void {
  sql.exec(
    'INSERT OR REPLACE INTO budgets (scope, limit_micros, period, max_running, updated_at) VALUES (?, ?, ?, ?, ?)',
    scope, budget.limit, budget.period, budget.maxRunning, now,
  );
}

export interface Totals {
  spent: number;
  reserved: number;
}

export function readTotals(sql: SqlStorage, scope: string, key: string): Totals {
  const row = sql.exec('SELECT spent, reserved FROM totals WHERE scope = ? AND period_key = ?', scope, key).toArray()[0];
  return row ? { spent: row.spent as number, reserved: row.reserved as number } : { spent: 0, reserved: 0 };
}

/** Adds to the totals a charge created at `createdAt` counts in: its month and all time, of its member and the team. */
export function addToTotals(sql: SqlStorage, member: string, createdAt: number, delta: Totals): void {
  for (const scope of [memberScope(member), TEAM]) {
    for (const key of periodKeys(createdAt)) {
      sql.exec(
        `INSERT INTO totals (scope, period_key, spent, reserved) VALUES (?, ?, ?, ?)
         ON CONFLICT (scope, period_key) DO UPDATE SET spent = spent + excluded.spent, reserved = reserved + excluded.reserved`,
        scope, key, delta.spent, delta.reserved,
      );
    }
  }
}

/** Tasks of a member reserved and not ended: creates in flight and tasks not completed or failed. */
export const runningCount = (sql: SqlStorage, member: string): number =>
  sql.exec("SELECT COUNT(*) AS n FROM charges WHERE member = ? AND state = 'reserved'", member).one().n as number;

/** What is left under a limit, never below zero; null when there is no limit. */
export const remainingOf = (limit: number | null, totals: Totals): number | null => (limit === null ? null : Math.max(0, limit - totals.spent - totals.reserved));

/** A budget's state now, as answered (amounts in the currency). */
export function budgetState(sql: SqlStorage, scope: string, currency: string, now: number): BudgetState {
  const budget = readBudget(sql, scope);
  const totals = readTotals(sql, scope, periodKey(budget.period, now));
  const remaining = remainingOf(budget.limit, totals);
  return {
    currency,
    period: budget.period,
    limit: budget.limit === null ? null : fromMicros(budget.limit),
    spent: fromMicros(totals.spent),
    reserved: fromMicros(totals.reserved),
    remaining: remaining === null ? null : fromMicros(remaining),
  };
}

export function memberBudgetState(sql: SqlStorage, member: string, currency: string, now: number): MemberBudgetState {
  const budget = readBudget(sql, memberScope(member));
  return { member, ...budgetState(sql, memberScope(member), currency, now), running: runningCount(sql, member), maxRunning: budget.maxRunning };
}

/** Why a create of `cost` may not start now, or null when it may. */
export type Refusal =
  | { kind: 'running'; running: number; maxRunning: number }
  | { kind: 'price_unknown'; model: string }
  | { kind: 'budget'; scope: 'member' | 'team'; period: Period; limit: number; remaining: number; cost: number };

/**
 * The one rule of whether a create may start (and what its quote answers): too many running tasks;
 * then, under any limit (the member's or the team's), a model of the catalog the table has no
 * price for (`unpriced`: its id), since it would run for free past the limit; then a limit `cost`
 * would exceed.
 */
export function refusalFor(sql: SqlStorage, member: string, cost: number, now: number, unpriced: string | null = null): Refusal | null {
  const own = readBudget(sql, memberScope(member));
  if (own.maxRunning !== null) {
    const running = runningCount(sql, member);
    if (running >= own.maxRunning) return { kind: 'running', running, maxRunning: own.maxRunning };
  }
  const team = readBudget(sql, TEAM);
  if (unpriced !== null && isKnownModel(unpriced) && (own.limit !== null || team.limit !== null)) return { kind: 'price_unknown', model: unpriced };
  for (const [scope, budget] of [['member', own], ['team', team]] as const) {
    if (budget.limit === null) continue;
    const totals = readTotals(sql, scope === 'member' ? memberScope(member) : TEAM, periodKey(budget.period, now));
    if (totals.spent + totals.reserved + cost > budget.limit) {
      return { kind: 'budget', scope, period: budget.period, limit: budget.limit, remaining: remainingOf(budget.limit, totals)!, cost };
    }
  }
  return null;
}
