import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { addedMemberSchema, check, clip, memberAddSchema, memberListSchema, memberTokenSchema, parseJsonBytes, sentence } from '../../../../shared';
import type { ProxyEnv } from '../../infra/settings/proxy-env';
import { ledgerOf } from '../../objects/handles';
import { ADMIN, ADMIN_REFUSALS, empty, errors, INVALID_JSON, json, jsonBody, TOO_LARGE_JSON } from '../openapi/route-docs';
import { adminAuth, type AdminVars } from './admin-auth';
import { gatewayAdmin } from './gateway-routes';

/** The admin API (docs/proxy-api.md, "Admin"), behind `Authorization: Bearer ${ADMIN_TOKEN}`. */
export const admin = new Hono<{ Bindings: ProxyEnv; Variables: AdminVars }>();

const directory = (env: ProxyEnv) => env.DIRECTORY.get(env.DIRECTORY.idFromName('directory'));

admin.use('*', adminAuth);

admin.post('/members', describeRoute({
  summary: 'Add a member: the token is shown only in this answer',
  tags: ['admin'],
  security: ADMIN,
  requestBody: jsonBody(memberAddSchema, '`name`: 1 to 100 characters (trimmed).'),
  responses: { 201: json('The member and its token.', addedMemberSchema), ...errors({ 400: INVALID_JSON, ...ADMIN_REFUSALS, 413: TOO_LARGE_JSON }) },
}), async (c) => {
  const parsed = parseJsonBytes(await c.req.arrayBuffer());
  if (!parsed.ok) return c.json({ error: { code: 'invalid_parameter', message: sentence(parsed.message), param: 'body' } }, 400);
  const checked = check(memberAddSchema, parsed.value);
  if (!checked.ok) return c.json({ error: { code: 'invalid_parameter', message: sentence(checked.problem.message), param: checked.problem.field } }, 400);
  const added = await directory(c.env).add(checked.value.name);
  await ledgerOf(c.env).audit(c.get('actor'), 'member.add', added.id, { name: added.name });
  return c.json(added, 201);
});

admin.get('/members', describeRoute({
  summary: 'Every member, revoked ones included',
  tags: ['admin'],
  security: ADMIN,
  responses: { 200: json('The members.', memberListSchema), ...errors(ADMIN_REFUSALS) },
}), async (c) => c.json({ members: await directory(c.env).list() }));

admin.delete('/members/:id', describeRoute({
  summary: 'Revoke a member: the token stops working at once',
  tags: ['admin'],
  security: ADMIN,
  responses: { 204: empty('Revoked.'), ...errors({ ...ADMIN_REFUSALS, 404: '`member_not_found`: no such active member.' }) },
}), async (c) => {
  const done = await directory(c.env).revoke(c.req.param('id'));
  if (done) await ledgerOf(c.env).audit(c.get('actor'), 'member.revoke', c.req.param('id'), {});
  return done ? c.body(null, 204) : c.json({ error: { code: 'member_not_found', message: `No active member ${clip(c.req.param('id'))} exists.` } }, 404);
});

admin.post('/members/:id/token', describeRoute({
  summary: 'A new token for a member: the old one stops working at once',
  tags: ['admin'],
  security: ADMIN,
  responses: { 200: json('The new token.', memberTokenSchema), ...errors({ ...ADMIN_REFUSALS, 404: '`member_not_found`: no such active member.' }) },
}), async (c) => {
  const token = await directory(c.env).rotate(c.req.param('id'));
  if (token) await ledgerOf(c.env).audit(c.get('actor'), 'member.rotate', c.req.param('id'), {});
  return token ? c.json({ id: c.req.param('id'), token }) : c.json({ error: { code: 'member_not_found', message: `No active member ${clip(c.req.param('id'))} exists.` } }, 404);
});

admin.route('/', gatewayAdmin);
