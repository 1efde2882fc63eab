import { ALERT_THRESHOLDS, formatMoney, fromMicros, toMicros, type BudgetAlert } from '../../../../shared';
import { memberScope, readBudget, readTotals, TEAM } from './budget-book';
import { periodKey } from './periods';

/**
 * Budget alerts: at 80, 95 and 100 % of a limit, each once per period and scope. Spend (what
 * completed tasks cost) is measured, not reservations: a reserved task may still fail and cost nothing.
 */

/** Raises the thresholds `scope`'s spend has crossed in the period of `at` and not yet raised; answers the new ones. */
export function raiseAlerts(sql: SqlStorage, scope: string, at: number): BudgetAlert[] {
  const budget = readBudget(sql, scope);
  if (budget.limit === null || budget.limit === 0) return [];
  const key = periodKey(budget.period, at);
  const { spent } = readTotals(sql, scope, key);
  const raised: BudgetAlert[] = [];
  for (const threshold of ALERT_THRESHOLDS) {
    if (spent * 100 < threshold * budget.limit) break;
    const inserted = sql.exec(
      'INSERT OR IGNORE INTO alerts (scope, period_key, threshold, limit_micros, spent, at) VALUES (?, ?, ?, ?, ?, ?)',
      scope, key, threshold, budget.limit, spent, at,
    ).rowsWritten;
    if (inserted) raised.push(toAlert({ scope, period_key: key, threshold, limit_micros: budget.limit, spent, at }));
  }
  return raised;
}

/** This period's alerts of a member's budget and of the team's, while each has a limit. */
export function alertsFor(sql: SqlStorage, member: string, now: number): BudgetAlert[] {
  const alerts: BudgetAlert[] = [];
  for (const scope of [memberScope(member), TEAM]) {
    const budget = readBudget(sql, scope);
    if (budget.limit === null) continue;
    const rows = sql.exec('SELECT * FROM alerts WHERE scope = ? AND period_key = ? ORDER BY threshold', scope, periodKey(budget.period, now)).toArray();
    alerts.push(...rows.map((r) => toAlert(r as unknown as AlertRow)));
  }
  return alerts;
}

interface AlertRow {
  scope: string;
  period_key: string;
  threshold: number;
  limit_micros: number;
  spent: number;
  at: number;
}

function toAlert(r: AlertRow): BudgetAlert {
  const team = r.scope === TEAM;
  return {
    scope: team ? 'team' : 'member',
    member: team ? null : r.scope.slice('member:'.length),
    threshold: r.threshold as BudgetAlert['threshold'],
    periodKey: r.period_key,
    limit: fromMicros(r.limit_micros),
    spent: fromMicros(r.spent),
    at: new Date(r.at).toISOString(),
  };
}

/** The JSON a chat webhook renders (`text`), with the figures beside it for scripts. */
export function webhookPayload(alert: BudgetAlert, currency: string, memberName: string | null) {
  const who = alert.scope === 'team' ? "The team's budget" : `${memberName ? `${memberName} (${alert.member})` : alert.member}'s budget`;
  const period = alert.periodKey === 'total' ? 'in total' : `in ${alert.periodKey}`;
  return {
    text: `Arkbridge: ${who} has reached ${alert.threshold} % ${period}: ${formatMoney(toMicros(alert.spent), currency)} spent of ${formatMoney(toMicros(alert.limit), currency)}.`,
    scope: alert.scope,
    member: alert.member,
    limit: alert.limit,
    spent: alert.spent,
    threshold: alert.threshold,
    period: alert.periodKey,
    currency,
  };
}
