import { Hono, type Context } from 'hono';
import { describeRoute } from 'hono-openapi';
import type * as v from 'valibot';
import {
  auditListSchema,
  auditQuerySchema,
  budgetStateSchema,
  check,
  clip,
  memberBudgetListSchema,
  memberBudgetSchema,
  memberBudgetStateSchema,
  priceTableUpdateSchema,
  queueIdSchema,
  queueItemSchema,
  teamQueueSchema,
  REPORT_DAYS_MAX,
  storedPricesSchema,
  tasksQuerySchema,
  teamBudgetSchema,
  teamTaskListSchema,
  usageQuerySchema,
  usageReportSchema,
} from '../../../../shared';
import type { ProxyEnv } from '../../infra/settings/proxy-env';
import { upstreamMaxRunning } from '../../infra/settings/proxy-settings';
import { directoryObject, ledgerObject, queueObject } from '../../objects/handles';
import { contextError } from '../answers';
import { readJsonBody } from '../json-body';
import { dayKey } from '../../domain/ledger/periods';
import { ADMIN, ADMIN_REFUSALS, errors, INVALID_JSON, json, jsonBody, queryParameters, TOO_LARGE_JSON } from '../openapi/route-docs';
import type { AdminVars } from './admin-auth';

/** The gateway's admin routes (docs/proxy-api.md, "Budgets and reports"): prices, budgets, usage, tasks, audit. */
export const gatewayAdmin = new Hono<{ Bindings: ProxyEnv; Variables: AdminVars }>();

type AdminContext = Context<{ Bindings: ProxyEnv; Variables: AdminVars }>;

const invalid = (c: AdminContext, field: string, message: string) => contextError(c)(400, 'invalid_parameter', message, field);

/** The JSON body of `c` checked against `schema` (routes/json-body.ts), answered as the admin API answers. */
const body = <S extends v.GenericSchema>(c: AdminContext, schema: S) => readJsonBody(c, schema, contextError(c));

const refused = (invalid: string) => errors({ 400: invalid, ...ADMIN_REFUSALS });
const invalidQuery = '`invalid_parameter`: a query parameter refused; `param` names it.';
const invalidBody = errors({ 400: INVALID_JSON, ...ADMIN_REFUSALS, 413: TOO_LARGE_JSON });
const memberNotFoundDoc = '`member_not_found`: no such member.';

function query<S extends v.GenericSchema>(c: AdminContext, schema: S): { value: v.InferOutput<S> } | { refused: Response } {
  const checked = check(schema, c.req.query(), 'query');
  return checked.ok ? { value: checked.value } : { refused: invalid(c, checked.problem.field, checked.problem.message) };
}

gatewayAdmin.get('/prices', describeRoute({
  summary: 'The team\'s price table',
  tags: ['admin'],
  security: ADMIN,
  description: 'The table at the top level (`currency`, `unit`, `models`, `note`) with read-only `isDefault` and `updatedAt` beside it: `PUT /admin/prices` takes this very object back. A table stored without `unit` (before units existed) is per second.',
  responses: { 200: json('The table, whether it is the default, and when it was set.', storedPricesSchema), ...errors(ADMIN_REFUSALS) },
}), async (c) => c.json(await ledgerObject(c.env).prices()));

gatewayAdmin.put('/prices', describeRoute({
  summary: 'Replace the team\'s price table',
  tags: ['admin'],
  security: ADMIN,
  description: 'Prices per second (`"unit":"second"`, the default) or per million output tokens (`"unit":"million_tokens"`), by model and variant key: `*`, or conditions joined by `+` in the order resolution (`720p`), `audio`|`silent`, `draft`, `flex`; the matching key with the most conditions wins (docs/budgets.md). What `GET` answered is accepted as is: `isDefault` and `updatedAt` are ignored.',
  requestBody: jsonBody(priceTableUpdateSchema, 'A price table, or the answer of `GET /admin/prices`.'),
  responses: { 200: json('The stored table, as `GET`.', storedPricesSchema), ...invalidBody },
}), async (c) => {
  const table = await body(c, priceTableUpdateSchema);
  if ('refused' in table) return table.refused;
  return c.json(await ledgerObject(c.env).setPrices(table.value, c.get('actor')));
});

/** Back to the table shipped with the catalog. */
gatewayAdmin.delete('/prices', describeRoute({
  summary: 'Back to the default price table',
  tags: ['admin'],
  security: ADMIN,
  responses: { 200: json('The default table, as `GET`.', storedPricesSchema), ...errors(ADMIN_REFUSALS) },
}), async (c) => c.json(await ledgerObject(c.env).resetPrices(c.get('actor'))));

gatewayAdmin.get('/budget', describeRoute({
  summary: 'The team\'s budget',
  tags: ['admin'],
  security: ADMIN,
  responses: { 200: json('Amounts in the price table\'s currency.', budgetStateSchema), ...errors(ADMIN_REFUSALS) },
}), async (c) => c.json(await ledgerObject(c.env).teamBudget()));

gatewayAdmin.put('/budget', describeRoute({
  summary: 'Set the team\'s budget (a field left out keeps its value; a null limit removes it)',
  tags: ['admin'],
  security: ADMIN,
  requestBody: jsonBody(teamBudgetSchema),
  responses: { 200: json('The team\'s budget, as `GET`.', budgetStateSchema), ...invalidBody },
}), async (c) => {
  const change = await body(c, teamBudgetSchema);
  if ('refused' in change) return change.refused;
  return c.json(await ledgerObject(c.env).setTeamBudget(change.value, c.get('actor')));
});

const memberNotFound = (c: AdminContext) => contextError(c)(404, 'member_not_found', `No member ${clip(c.req.param('id') ?? '')} exists.`);

gatewayAdmin.get('/budgets', describeRoute({
  summary: 'Every member\'s budget, and when each last created a task',
  description: 'The members of `GET /admin/members`, in its order (revoked ones included): one call for a whole team.',
  tags: ['admin'],
  security: ADMIN,
  responses: { 200: json('Amounts in the price table\'s currency.', memberBudgetListSchema), ...errors(ADMIN_REFUSALS) },
}), async (c) => {
  const members = await directoryObject(c.env).list();
  return c.json({ budgets: await ledgerObject(c.env).memberBudgets(members.map((m) => m.id)) });
});

gatewayAdmin.get('/members/:id/budget', describeRoute({
  summary: 'A member\'s budget',
  tags: ['admin'],
  security: ADMIN,
  responses: { 200: json('Amounts in the price table\'s currency.', memberBudgetStateSchema), ...errors({ ...ADMIN_REFUSALS, 404: memberNotFoundDoc }) },
}), async (c) => {
  if (!(await directoryObject(c.env).exists(c.req.param('id')))) return memberNotFound(c);
  return c.json(await ledgerObject(c.env).memberBudget(c.req.param('id')));
});

gatewayAdmin.put('/members/:id/budget', describeRoute({
  summary: 'Set a member\'s budget (a field left out keeps its value; null removes a limit)',
  tags: ['admin'],
  security: ADMIN,
  requestBody: jsonBody(memberBudgetSchema),
  responses: { 200: json('The member\'s budget, as `GET`.', memberBudgetStateSchema), ...invalidBody, ...errors({ 404: memberNotFoundDoc }) },
}), async (c) => {
  const change = await body(c, memberBudgetSchema);
  if ('refused' in change) return change.refused;
  if (!(await directoryObject(c.env).exists(c.req.param('id')))) return memberNotFound(c);
  return c.json(await ledgerObject(c.env).setMemberBudget(c.req.param('id'), change.value, c.get('actor')));
});

const DAY_MS = 86_400_000;

gatewayAdmin.get('/usage', describeRoute({
  summary: 'Usage by member, model and day: JSON or CSV',
  description: `Default: this calendar month (UTC) so far; at most ${REPORT_DAYS_MAX} days.`,
  tags: ['admin'],
  security: ADMIN,
  parameters: queryParameters(usageQuerySchema, { from: 'First day, YYYY-MM-DD (UTC).', to: 'Last day, YYYY-MM-DD (UTC).' }),
  responses: {
    200: json('The report; with `format=csv` the same rows as a CSV attachment.', usageReportSchema, { 'text/csv': { schema: { type: 'string' } } }),
    ...refused(invalidQuery),
  },
}), async (c) => {
  const q = query(c, usageQuerySchema);
  if ('refused' in q) return q.refused;
  const now = Date.now();
  // Default: this calendar month (UTC) up to today.
  const to = q.value.to ?? dayKey(now);
  const from = q.value.from ?? `${dayKey(now).slice(0, 7)}-01`;
  if (from > to) return invalid(c, 'from', `from: ${from} is after to (${to})`);
  if ((Date.parse(to) - Date.parse(from)) / DAY_MS + 1 > REPORT_DAYS_MAX) return invalid(c, 'from', `from: a report covers at most ${REPORT_DAYS_MAX} days`);
  const ledger = ledgerObject(c.env);
  if (q.value.format === 'csv') {
    return c.body(await ledger.reportCsv(from, to), 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="arkbridge-usage-${from}-${to}.csv"`,
    });
  }
  return c.json(await ledger.report(from, to));
});

gatewayAdmin.get('/tasks', describeRoute({
  summary: 'The team\'s tasks, newest first',
  tags: ['admin'],
  security: ADMIN,
  parameters: queryParameters(tasksQuerySchema, { limit: 'At most this many (default 100).' }),
  responses: { 200: json('The tasks.', teamTaskListSchema), ...refused(invalidQuery) },
}), async (c) => {
  const q = query(c, tasksQuerySchema);
  if ('refused' in q) return q.refused;
  return c.json({ tasks: await ledgerObject(c.env).tasks({ member: q.value.member, status: q.value.status, limit: q.value.limit ?? 100 }) });
});

gatewayAdmin.get('/audit', describeRoute({
  summary: 'The audit log, newest first',
  tags: ['admin'],
  security: ADMIN,
  parameters: queryParameters(auditQuerySchema, { limit: 'At most this many (default 100).' }),
  responses: { 200: json('The entries.', auditListSchema), ...refused(invalidQuery) },
}), async (c) => {
  const q = query(c, auditQuerySchema);
  if ('refused' in q) return q.refused;
  return c.json({ entries: await ledgerObject(c.env).auditEntries(q.value.limit ?? 100) });
});

gatewayAdmin.get('/queue', describeRoute({
  summary: 'Every member\'s queued creates, newest first (at most 1,000), with the queue\'s settings in force',
  description: 'The gateway\'s queue (docs/queue.md): each item with its `memberId`; `cap` (`UPSTREAM_MAX_RUNNING`, 0: none), `running` (the team\'s tasks at the service now) and `backoffUntil` (null: not backing off).',
  tags: ['admin'],
  security: ADMIN,
  responses: { 200: json('`{"items":[...],"cap":n,"running":n,"backoffUntil":null}`.', teamQueueSchema), ...errors(ADMIN_REFUSALS) },
}), async (c) => {
  const queue = queueObject(c.env);
  const [items, running, until] = await Promise.all([queue.list(null), ledgerObject(c.env).runningAtService(), queue.backoffUntil()]);
  return c.json({ items, cap: upstreamMaxRunning(c.env), running, backoffUntil: until === null ? null : new Date(until).toISOString() } satisfies v.InferOutput<typeof teamQueueSchema>);
});

gatewayAdmin.delete('/queue/:id', describeRoute({
  summary: 'Cancel any member\'s queued create; its reservation is released (audited `queue.cancel`)',
  tags: ['admin'],
  security: ADMIN,
  responses: {
    200: json('The item, `cancelled`, with its `memberId`.', queueItemSchema),
    ...errors({ ...ADMIN_REFUSALS, 400: '`invalid_parameter`: `id` is not a queue id.', 404: '`queue_item_not_found`: no such item.', 409: '`queue_item_not_queued`: it already launched, failed, was cancelled, or is being launched.' }),
  },
}), async (c) => {
  const checked = check(queueIdSchema, c.req.param('id'), 'id');
  if (!checked.ok) return invalid(c, 'id', checked.problem.message);
  const cancelled = await queueObject(c.env).cancel(null, checked.value);
  if (cancelled === null) return contextError(c)(404, 'queue_item_not_found', 'No queued create has this id.', 'id');
  if (cancelled === 'not_queued') return contextError(c)(409, 'queue_item_not_queued', 'This create is no longer queued: it launched, failed, was cancelled, or is being launched now.', 'id');
  await ledgerObject(c.env).audit(c.get('actor'), 'queue.cancel', cancelled.id, { member: cancelled.memberId ?? null, model: cancelled.model });
  return c.json(cancelled);
});
