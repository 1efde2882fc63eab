import { Hono, type Context } from 'hono';
import type * as v from 'valibot';
import {
  auditQuerySchema,
  check,
  clip,
  memberBudgetSchema,
  parseJsonBytes,
  priceTableSchema,
  REPORT_DAYS_MAX,
  sentence,
  tasksQuerySchema,
  teamBudgetSchema,
  usageQuerySchema,
} from '../../../shared';
import type { ProxyEnv } from '../env';
import { ledgerOf } from '../ledger/ledger-access';
import { dayKey } from '../ledger/periods';
import type { AdminVars } from './admin-auth';

/** The gateway's admin routes (docs/proxy-api.md, "Budgets and reports"): prices, budgets, usage, tasks, audit. */
export const gatewayAdmin = new Hono<{ Bindings: ProxyEnv; Variables: AdminVars }>();

type AdminContext = Context<{ Bindings: ProxyEnv; Variables: AdminVars }>;

const invalid = (c: AdminContext, field: string, message: string) =>
  c.json({ error: { code: 'invalid_parameter', message: sentence(message), param: field } }, 400);

/** The JSON body of `c` checked against `schema`: the value, or the 400 answer naming the field. */
async function body<S extends v.GenericSchema>(c: AdminContext, schema: S): Promise<{ value: v.InferOutput<S> } | { refused: Response }> {
  const parsed = parseJsonBytes(await c.req.arrayBuffer());
  if (!parsed.ok) return { refused: invalid(c, 'body', parsed.message) };
  const checked = check(schema, parsed.value);
  return checked.ok ? { value: checked.value } : { refused: invalid(c, checked.problem.field, checked.problem.message) };
}

function query<S extends v.GenericSchema>(c: AdminContext, schema: S): { value: v.InferOutput<S> } | { refused: Response } {
  const checked = check(schema, c.req.query(), 'query');
  return checked.ok ? { value: checked.value } : { refused: invalid(c, checked.problem.field, checked.problem.message) };
}

gatewayAdmin.get('/prices', async (c) => c.json(await ledgerOf(c.env).prices()));

gatewayAdmin.put('/prices', async (c) => {
  const table = await body(c, priceTableSchema);
  if ('refused' in table) return table.refused;
  return c.json(await ledgerOf(c.env).setPrices(table.value, c.get('actor')));
});

/** Back to the table shipped with the catalog. */
gatewayAdmin.delete('/prices', async (c) => c.json(await ledgerOf(c.env).resetPrices(c.get('actor'))));

gatewayAdmin.get('/budget', async (c) => c.json(await ledgerOf(c.env).teamBudget()));

gatewayAdmin.put('/budget', async (c) => {
  const change = await body(c, teamBudgetSchema);
  if ('refused' in change) return change.refused;
  return c.json(await ledgerOf(c.env).setTeamBudget(change.value, c.get('actor')));
});

const memberNotFound = (c: AdminContext) =>
  c.json({ error: { code: 'member_not_found', message: `No member ${clip(c.req.param('id') ?? '')} exists.` } }, 404);

gatewayAdmin.get('/members/:id/budget', async (c) => {
  if (!(await c.env.DIRECTORY.get(c.env.DIRECTORY.idFromName('directory')).exists(c.req.param('id')))) return memberNotFound(c);
  return c.json(await ledgerOf(c.env).memberBudget(c.req.param('id')));
});

gatewayAdmin.put('/members/:id/budget', async (c) => {
  const change = await body(c, memberBudgetSchema);
  if ('refused' in change) return change.refused;
  if (!(await c.env.DIRECTORY.get(c.env.DIRECTORY.idFromName('directory')).exists(c.req.param('id')))) return memberNotFound(c);
  return c.json(await ledgerOf(c.env).setMemberBudget(c.req.param('id'), change.value, c.get('actor')));
});

const DAY_MS = 86_400_000;

gatewayAdmin.get('/usage', async (c) => {
  const q = query(c, usageQuerySchema);
  if ('refused' in q) return q.refused;
  const now = Date.now();
  // Default: this calendar month (UTC) up to today.
  const to = q.value.to ?? dayKey(now);
  const from = q.value.from ?? `${dayKey(now).slice(0, 7)}-01`;
  if (from > to) return invalid(c, 'from', `from: ${from} is after to (${to})`);
  if ((Date.parse(to) - Date.parse(from)) / DAY_MS + 1 > REPORT_DAYS_MAX) return invalid(c, 'from', `from: a report covers at most ${REPORT_DAYS_MAX} days`);
  const ledger = ledgerOf(c.env);
  if (q.value.format === 'csv') {
    return c.body(await ledger.reportCsv(from, to), 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="arkbridge-usage-${from}-${to}.csv"`,
    });
  }
  return c.json(await ledger.report(from, to));
});

gatewayAdmin.get('/tasks', async (c) => {
  const q = query(c, tasksQuerySchema);
  if ('refused' in q) return q.refused;
  return c.json({ tasks: await ledgerOf(c.env).tasks({ member: q.value.member, status: q.value.status, limit: q.value.limit ?? 100 }) });
});

gatewayAdmin.get('/audit', async (c) => {
  const q = query(c, auditQuerySchema);
  if ('refused' in q) return q.refused;
  return c.json({ entries: await ledgerOf(c.env).auditEntries(q.value.limit ?? 100) });
});
