import * as v from 'valibot';
import { PERIODS, storageUseSchema } from './budgets';
import { PRICE_UNITS } from './quote';
import { priceTableSchema } from './prices';
import { recordOf } from '../validation';

/**
 * The answers of the gateway's admin routes (docs/proxy-api.md, "Budgets and reports"), as schemas:
 * the proxy's OpenAPI document is generated from them. Their outputs match the interfaces of
 * budgets.ts (checked in worker/proxy/routes/openapi/answer-shapes.ts).
 */

const amount = v.pipe(v.number(), v.finite());
const amountOrNull = v.pipe(v.nullable(amount), v.description('null when unlimited.'));
const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const period = v.picklist(PERIODS);

const budgetEntries = {
  currency: v.string(),
  period,
  limit: amountOrNull,
  spent: amount,
  reserved: amount,
  remaining: amountOrNull,
};

/** `GET`, `PUT /admin/budget`: the team's budget. */
export const budgetStateSchema = v.pipe(v.object(budgetEntries), v.metadata({ ref: 'BudgetState' }));

const memberBudgetEntries = { member: v.string(), ...budgetEntries, running: count, maxRunning: v.pipe(v.nullable(count), v.description('null when unlimited.')) };

/** `GET`, `PUT /admin/members/{id}/budget`. */
export const memberBudgetStateSchema = v.pipe(v.object(memberBudgetEntries), v.metadata({ ref: 'MemberBudgetState' }));

/** `GET /admin/budgets`: every member's budget and when each last created a task, in one answer. */
export const memberBudgetListSchema = v.object({
  budgets: v.array(
    v.pipe(
      v.object({ ...memberBudgetEntries, lastTaskAt: v.pipe(v.nullable(v.string()), v.description('ISO 8601 UTC; null when the member never created a task.')) }),
      v.metadata({ ref: 'MemberBudgetOverview' }),
    ),
  ),
});

/**
 * `GET`, `PUT`, `DELETE /admin/prices`: the team's table at the top level (its `unit` always
 * stated), with read-only metadata beside it: whether it is still the default, and when it was set.
 * `PUT /admin/prices` takes this very object back (the metadata ignored).
 */
export const storedPricesSchema = v.pipe(
  v.object({
    ...priceTableSchema.entries,
    unit: v.pipe(v.picklist(PRICE_UNITS), v.description('What a price is for: a second of video, or a million output tokens.')),
    isDefault: v.pipe(v.boolean(), v.description('Read-only: true while no table was set (the one shipped with Arkbridge).')),
    updatedAt: v.pipe(v.nullable(v.string()), v.description('Read-only: when the table was set (ISO 8601); null for the default.')),
  }),
  v.metadata({ ref: 'StoredPrices' }),
);

/** `GET /admin/usage` (JSON): one row per member, model and day (UTC), and storage per member. */
export const usageReportSchema = v.object({
  currency: v.string(),
  from: v.string(),
  to: v.string(),
  rows: v.array(
    v.object({
      day: v.string(),
      member: v.string(),
      model: v.string(),
      tasks: count,
      completed: count,
      failed: count,
      seconds: v.number(),
      cost: amount,
      tokens: count,
    }),
  ),
  drift: v.pipe(
    v.object({ tasks: count, charged: amount, estimated: amount, overruns: count }),
    v.description('The charged tasks of these days: what they cost against what was reserved for them (drift: charged - estimated), and how many the service billed past their reservation.'),
  ),
  storage: v.array(v.object({ member: v.string(), ...storageUseSchema.entries })),
});

/** `GET /admin/tasks`, newest first. */
export const teamTaskListSchema = v.object({
  tasks: v.array(
    v.object({
      id: v.string(),
      member: v.string(),
      model: v.string(),
      status: v.pipe(v.string(), v.description('creating, queued, in_progress, unknown, completed, failed or expired.')),
      cost: v.pipe(amount, v.description('What was charged (what is reserved while the task runs; 0 for a failed task).')),
      estimate: v.pipe(amount, v.description('What was reserved before the create: the most the task could cost.')),
      tokens: v.pipe(v.nullable(count), v.description("The service's `usage.completion_tokens` of the completed task; null before or without it.")),
      overrun: v.pipe(v.boolean(), v.description('The service reported more than was reserved: the actual was charged.')),
      priced: v.boolean(),
      createdAt: v.string(),
      endedAt: v.nullable(v.string()),
    }),
  ),
});

/** `GET /admin/audit`, newest first. */
export const auditListSchema = v.object({
  entries: v.array(
    v.object({ at: v.string(), actor: v.string(), action: v.string(), target: v.nullable(v.string()), detail: recordOf(v.string(), v.unknown()) }),
  ),
});
