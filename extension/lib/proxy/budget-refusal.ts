/**
 * A create the proxy refused for the team's budgets (docs/extension.md, "Budgets and costs"):
 * nothing was created, and sending the same request again will not help by itself, so it is
 * never retried automatically (not even a 429: it is not the service asking to slow down).
 */
export type BudgetRefusal =
  /** 402: the member's or the team's budget cannot cover the task's cost. Amounts in `currency`; null when not sent. */
  | { code: 'budget_exceeded'; scope: 'member' | 'team'; remaining: number | null; cost: number | null; currency: string | null }
  /** 429: as many of the member's tasks are running as the team allows. */
  | { code: 'too_many_running_tasks'; running: number | null; maxRunning: number | null };

const amount = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const count = (value: unknown): number | null => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null);

/** The refusal an error answer's `error` object describes (by its code), or null when it is none. */
export function budgetRefusalFrom(error: unknown): BudgetRefusal | null {
  if (!error || typeof error !== 'object') return null;
  const e = error as Record<string, unknown>;
  if (e.code === 'budget_exceeded') {
    return {
      code: 'budget_exceeded',
      scope: e.scope === 'team' ? 'team' : 'member',
      remaining: amount(e.remaining),
      cost: amount(e.cost),
      currency: typeof e.currency === 'string' && e.currency.length > 0 && e.currency.length <= 16 ? e.currency : null,
    };
  }
  if (e.code === 'too_many_running_tasks') return { code: 'too_many_running_tasks', running: count(e.running), maxRunning: count(e.maxRunning) };
  return null;
}
