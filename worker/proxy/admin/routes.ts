import { Hono } from 'hono';
import * as v from 'valibot';
import { check, clip, parseJsonBytes, sentence, strictObjectMessage } from '../../../shared';
import type { ProxyEnv } from '../env';
import { ledgerOf } from '../ledger/ledger-access';
import { adminAuth, type AdminVars } from './admin-auth';
import { gatewayAdmin } from './gateway-routes';

/** The admin API (docs/proxy-api.md, "Admin"), behind `Authorization: Bearer ${ADMIN_TOKEN}`. */
export const admin = new Hono<{ Bindings: ProxyEnv; Variables: AdminVars }>();

const directory = (env: ProxyEnv) => env.DIRECTORY.get(env.DIRECTORY.idFromName('directory'));
const addSchema = v.strictObject(
  { name: v.pipe(v.string('must be a string'), v.trim(), v.nonEmpty('must not be empty'), v.maxLength(100, 'must be at most 100 characters')) },
  strictObjectMessage('is not a field of this call'),
);

admin.use('*', adminAuth);

admin.post('/members', async (c) => {
  const parsed = parseJsonBytes(await c.req.arrayBuffer());
  if (!parsed.ok) return c.json({ error: { code: 'invalid_parameter', message: sentence(parsed.message), param: 'body' } }, 400);
  const checked = check(addSchema, parsed.value);
  if (!checked.ok) return c.json({ error: { code: 'invalid_parameter', message: sentence(checked.problem.message), param: checked.problem.field } }, 400);
  const added = await directory(c.env).add(checked.value.name);
  await ledgerOf(c.env).audit(c.get('actor'), 'member.add', added.id, { name: added.name });
  return c.json(added, 201);
});

admin.get('/members', async (c) => c.json({ members: await directory(c.env).list() }));

admin.delete('/members/:id', async (c) => {
  const done = await directory(c.env).revoke(c.req.param('id'));
  if (done) await ledgerOf(c.env).audit(c.get('actor'), 'member.revoke', c.req.param('id'), {});
  return done ? c.body(null, 204) : c.json({ error: { code: 'member_not_found', message: `No active member ${clip(c.req.param('id'))} exists.` } }, 404);
});

admin.post('/members/:id/token', async (c) => {
  const token = await directory(c.env).rotate(c.req.param('id'));
  if (token) await ledgerOf(c.env).audit(c.get('actor'), 'member.rotate', c.req.param('id'), {});
  return token ? c.json({ id: c.req.param('id'), token }) : c.json({ error: { code: 'member_not_found', message: `No active member ${clip(c.req.param('id'))} exists.` } }, 404);
});

admin.route('/', gatewayAdmin);
