import type { BudgetAlert, Period, UsageView } from '@@/shared';
import { formatAmount } from '@/lib/format/money-display';
import { type MessageKey, t } from '@/lib/i18n/translate';

/**
 * The popup's budget line as words, from `GET /proxy/usage`: what is left of the member's budget
 * (or that it has no limit), the team's when it is the tighter one, the running tasks against
 * their limit, and the latest alert. Pure, so that each case is tested without a page.
 */

export interface UsageSummary {
  /** `Budget: 83.83 CNY left of 100 CNY this month` or `Budget: no limit (12.50 CNY spent this month)`. */
  member: string;
  /** `Team: 20 CNY left of 500 CNY this month`, only when the team's budget leaves less than the member's. */
  team: string | null;
  /** `1 of 3 running`, `2 running`; null when nothing runs and there is no limit. */
  running: string | null;
  /** The latest alert, in words; `error` once a limit is reached. */
  alert: { text: string; tone: 'warning' | 'error' } | null;
}

const LEFT: Record<Period, MessageKey> = { month: 'budget.left.month', total: 'budget.left.total' };
const UNLIMITED: Record<Period, MessageKey> = { month: 'budget.unlimited.month', total: 'budget.unlimited.total' };
const TEAM_LEFT: Record<Period, MessageKey> = { month: 'budget.team.month', total: 'budget.team.total' };

/** Whether the team's budget leaves less than the member's (or is the only limit). */
export function teamIsTighter(usage: Pick<UsageView, 'remaining' | 'team'>): boolean {
  const team = usage.team.remaining;
  return team !== null && (usage.remaining === null || team < usage.remaining);
}

/** The most recent alert (of two at the same moment, the higher threshold), or null. */
export function latestAlert(alerts: readonly BudgetAlert[]): BudgetAlert | null {
  let latest: BudgetAlert | null = null;
  for (const alert of alerts) {
    if (!latest || alert.at > latest.at || (alert.at === latest.at && alert.threshold > latest.threshold)) latest = alert;
  }
  return latest;
}

export function usageSummary(usage: UsageView): UsageSummary {
  const money = (amount: number) => formatAmount(amount, usage.currency);
  // Reserved costs of running tasks can take a budget past its limit for a moment: nothing is left.
  const left = (remaining: number) => money(Math.max(0, remaining));
  const member =
    usage.limit === null || usage.remaining === null
      ? t(UNLIMITED[usage.period], { spent: money(usage.spent) })
      : t(LEFT[usage.period], { remaining: left(usage.remaining), limit: money(usage.limit) });
  const team =
    teamIsTighter(usage) && usage.team.limit !== null
      ? t(TEAM_LEFT[usage.team.period], { remaining: left(usage.team.remaining!), limit: money(usage.team.limit) })
      : null;
  const running =
    usage.maxRunning !== null
      ? t('budget.running.limited', { running: usage.running, max: usage.maxRunning })
      : usage.running > 0
        ? t('budget.running', { running: usage.running })
        : null;
  const latest = latestAlert(usage.alerts);
  const alert = latest
    ? {
        text: t(latest.scope === 'team' ? 'budget.alert.team' : 'budget.alert.member', {
          threshold: latest.threshold,
          spent: money(latest.spent),
          limit: money(latest.limit),
        }),
        tone: latest.threshold >= 100 ? ('error' as const) : ('warning' as const),
      }
    : null;
  return { member, team, running, alert };
}
