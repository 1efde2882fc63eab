import * as v from 'valibot';
import { strictObjectMessage } from '../validation';
import { fromMicros, MONEY_MAX, toMicros } from './money';

/** Budgets, usage views and reports of the proxy's gateway (docs/budgets.md), shared by the proxy and its clients. */

export const PERIODS = ['month', 'total'] as const;
export type Period = (typeof PERIODS)[number];

/** Alert thresholds, in percent of a limit: each is raised once per period. */
export const ALERT_THRESHOLDS = [80, 95, 100] as const;

export const MAX_RUNNING_MAX = 1000;

const limit = v.nullable(
  v.pipe(v.number('must be a number or null'), v.finite('must be a finite number'), v.minValue(0, 'must not be negative'), v.maxValue(MONEY_MAX, `must be at most ${MONEY_MAX}`)),
);
const period = v.picklist(PERIODS, 'must be month or total');
const NOT_A_FIELD = strictObjectMessage('is not a field of a budget');

/** `PUT /admin/members/:id/budget`. `null` removes a limit; a field left out keeps its value. */
export const memberBudgetSchema = v.strictObject(
  {
    limit: v.optional(limit),
    period: v.optional(period),
    maxRunning: v.optional(v.nullable(v.pipe(v.number('must be an integer or null'), v.integer('must be an integer or null'), v.minValue(0, 'must not be negative'), v.maxValue(MAX_RUNNING_MAX, `must be at most ${MAX_RUNNING_MAX}`)))),
  },
  NOT_A_FIELD,
);
export type MemberBudgetChange = v.InferOutput<typeof memberBudgetSchema>;

/** `PUT /admin/budget`, the whole team's. */
export const teamBudgetSchema = v.strictObject({ limit: v.optional(limit), period: v.optional(period) }, NOT_A_FIELD);
export type TeamBudgetChange = v.InferOutput<typeof teamBudgetSchema>;

/** A budget as stored and answered: amounts in the price table's currency. */
export interface BudgetState {
  currency: string;
  period: Period;
  limit: number | null;
  spent: number;
  reserved: number;
  remaining: number | null;
}

export interface MemberBudgetState extends BudgetState {
  member: string;
  running: number;
  maxRunning: number | null;
}

/** One row of `GET /admin/budgets`: a member's budget and the time of their latest task (ISO 8601, or null). */
export interface MemberBudgetOverview extends MemberBudgetState {
  lastTaskAt: string | null;
}

// --- `GET /proxy/usage`, as the proxy answers it and its clients read it ---

/** A period has at most 3 thresholds × (member + team) alerts; more is not read. */
export const USAGE_ALERTS_READ_MAX = 50;

export const amount = v.pipe(v.number(), v.finite());
export const amountOrNull = v.nullable(amount);
const wholeNumber = v.pipe(v.number(), v.integer(), v.minValue(0));

/** An alert raised when spend crossed a threshold of a limit. */
export const budgetAlertSchema = v.object({
  scope: v.picklist(['member', 'team']),
  /** The member's id; null for the team's. */
  member: v.optional(v.fallback(v.nullable(v.string()), null), null),
  threshold: v.picklist(ALERT_THRESHOLDS),
  /** `YYYY-MM` or `total`. */
  periodKey: v.string(),
  limit: amount,
  spent: amount,
  at: v.string(),
});
export type BudgetAlert = v.InferOutput<typeof budgetAlertSchema>;

/** Bytes a member keeps in the proxy's media store. */
export const storageUseSchema = v.object({ uploads: wholeNumber, outputs: wholeNumber });
export type StorageUse = v.InferOutput<typeof storageUseSchema>;

/** Alerts as read: at most USAGE_ALERTS_READ_MAX, a malformed one left out, none when missing. */
const alerts = v.pipe(
  v.optional(v.fallback(v.array(v.unknown()), []), []),
  v.transform((list): BudgetAlert[] =>
    list.slice(0, USAGE_ALERTS_READ_MAX).flatMap((item) => {
      const read = v.safeParse(budgetAlertSchema, item);
      return read.success ? [read.output] : [];
    }),
  ),
);

/**
 * `GET /proxy/usage`: the calling member's budget, the team's, this period's alerts, and storage.
 * Unknown fields are ignored; `storage` is missing from an older proxy (read as nothing stored).
 */
export const usageViewSchema = v.object({
  currency: v.pipe(v.string(), v.minLength(1), v.maxLength(16)),
  period,
  limit: amountOrNull,
  spent: amount,
  reserved: amount,
  remaining: amountOrNull,
  running: wholeNumber,
  maxRunning: v.nullable(wholeNumber),
  team: v.object({ period, limit: amountOrNull, spent: amount, reserved: amount, remaining: amountOrNull }),
  alerts,
  storage: v.optional(storageUseSchema, () => ({ uploads: 0, outputs: 0 })),
});
export type UsageView = v.InferOutput<typeof usageViewSchema>;

/** One row of `GET /admin/usage`: one member's tasks of one model on one day (UTC). */
export interface UsageRow {
  day: string;
  member: string;
  model: string;
  tasks: number;
  completed: number;
  failed: number;
  seconds: number;
  cost: number;
  tokens: number;
}
export const USAGE_COLUMNS = ['day', 'member', 'model', 'tasks', 'completed', 'failed', 'seconds', 'cost', 'tokens'] as const satisfies readonly (keyof UsageRow)[];

/** The totals of usage rows: the sums the CLI and the console print under the table. */
export interface UsageTotals {
  tasks: number;
  completed: number;
  failed: number;
  /** Summed in milliseconds (rows carry at most three decimals). */
  seconds: number;
  /** Summed in micro-units (shared/gateway/money.ts): no float drift. */
  cost: number;
  tokens: number;
}

export function usageTotals(rows: readonly UsageRow[]): UsageTotals {
  let tasks = 0, completed = 0, failed = 0, millis = 0, micros = 0, tokens = 0;
  for (const row of rows) {
    tasks += row.tasks;
    completed += row.completed;
    failed += row.failed;
    millis += Math.round(row.seconds * 1000);
    micros += toMicros(row.cost);
    tokens += row.tokens;
  }
  return { tasks, completed, failed, seconds: millis / 1000, cost: fromMicros(micros), tokens };
}


/** One task of `GET /admin/tasks`. */
export interface TeamTask {
  id: string;
  member: string;
  model: string;
  status: string;
  /** What was charged; what is reserved while the task runs. */
  cost: number;
  /** What was reserved before the create. */
  estimate: number;
  /** The service's `usage.completion_tokens`, once reported. */
  tokens: number | null;
  /** The service reported more than was reserved. */
  overrun: boolean;
  priced: boolean;
  createdAt: string;
  endedAt: string | null;
}

/** One entry of `GET /admin/audit`. */
export interface AuditEntry {
  at: string;
  actor: string;
  action: string;
  target: string | null;
  detail: Record<string, unknown>;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = v.pipe(v.string('must be a date'), v.regex(DAY, 'must be a date as YYYY-MM-DD'), v.check((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), 'must be a real calendar date'));
const count = (max: number) => v.pipe(v.string(), v.regex(/^\d{1,6}$/, `must be a whole number from 1 to ${max}`), v.transform(Number), v.minValue(1, `must be a whole number from 1 to ${max}`), v.maxValue(max, `must be at most ${max}`));

/** A report covers at most this many days. */
export const REPORT_DAYS_MAX = 366;

/** `GET /admin/usage?from=&to=&format=`. */
export const usageQuerySchema = v.pipe(
  v.strictObject(
    { from: v.optional(day), to: v.optional(day), format: v.optional(v.picklist(['json', 'csv'], 'must be json or csv')) },
    strictObjectMessage('is not a parameter of this report'),
  ),
  v.forward(
    v.check((q) => !q.from || !q.to || q.from <= q.to, 'must not be after to'),
    ['from'],
  ),
);

export const TASK_LIST_MAX = 1000;
export const TEAM_TASK_STATUSES = ['creating', 'queued', 'in_progress', 'unknown', 'completed', 'failed', 'expired'] as const;

/** `GET /admin/tasks?member=&status=&limit=`. */
export const tasksQuerySchema = v.strictObject(
  {
    member: v.optional(v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(64, 'must be at most 64 characters'))),
    status: v.optional(v.picklist(TEAM_TASK_STATUSES, `must be one of ${TEAM_TASK_STATUSES.join(', ')}`)),
    limit: v.optional(count(TASK_LIST_MAX)),
  },
  strictObjectMessage('is not a parameter of this list'),
);

/** `GET /admin/audit?limit=`. */
export const auditQuerySchema = v.strictObject({ limit: v.optional(count(TASK_LIST_MAX)) }, strictObjectMessage('is not a parameter of this list'));
