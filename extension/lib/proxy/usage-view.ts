import { ALERT_THRESHOLDS, type BudgetAlert, type Period, type UsageView } from '@@/shared';

/**
 * Reads `GET /proxy/usage` (the shared `UsageView`) as far as the popup relies on it: amounts are
 * finite numbers, limits null when unlimited. Unknown fields are ignored and a malformed alert is
 * left out; an answer whose budget cannot be read at all is null (not a proxy's answer).
 */

type Fields = Record<string, unknown>;

/** A period has at most 3 thresholds × (member + team) alerts; more is not read. */
const ALERTS_READ_MAX = 50;

const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);
const isAmount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isLimit = (value: unknown): value is number | null => value === null || isAmount(value);
const isPeriod = (value: unknown): value is Period => value === 'month' || value === 'total';
const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

function alertOf(value: unknown): BudgetAlert | null {
  if (!isObject(value)) return null;
  const { scope, member, threshold, periodKey, limit, spent, at } = value;
  if ((scope !== 'member' && scope !== 'team') || !(ALERT_THRESHOLDS as readonly unknown[]).includes(threshold)) return null;
  if (typeof periodKey !== 'string' || !isAmount(limit) || !isAmount(spent) || typeof at !== 'string') return null;
  return { scope, member: typeof member === 'string' ? member : null, threshold: threshold as BudgetAlert['threshold'], periodKey, limit, spent, at };
}

export function usageViewOf(value: unknown): UsageView | null {
  if (!isObject(value) || !isObject(value.team)) return null;
  const { currency, period, limit, spent, reserved, remaining, running, maxRunning, team, alerts } = value;
  if (typeof currency !== 'string' || !currency || currency.length > 16 || !isPeriod(period)) return null;
  if (!isLimit(limit) || !isAmount(spent) || !isAmount(reserved) || !isLimit(remaining)) return null;
  if (!isCount(running) || !(maxRunning === null || isCount(maxRunning))) return null;
  if (!isPeriod(team.period) || !isLimit(team.limit) || !isAmount(team.spent) || !isAmount(team.reserved) || !isLimit(team.remaining)) return null;
  return {
    currency,
    period,
    limit,
    spent,
    reserved,
    remaining,
    running,
    maxRunning,
    team: { period: team.period, limit: team.limit, spent: team.spent, reserved: team.reserved, remaining: team.remaining },
    alerts: (Array.isArray(alerts) ? alerts.slice(0, ALERTS_READ_MAX) : []).map(alertOf).filter((a): a is BudgetAlert => a !== null),
  };
}
