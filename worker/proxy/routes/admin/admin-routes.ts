import { Hono, type Context } from 'hono';
import { describeRoute } from 'hono-openapi';
import { addedMemberSchema, clip, memberAddSchema, memberListSchema, memberTokenSchema } from '../../../../shared';
import type { ProxyEnv } from '../../infra/settings/proxy-env';
import { directoryObject, ledgerObject } from '../../objects/handles';
import { contextError } from '../answers';
import { readJsonBody } from '../json-body';
import { jsonLimit } from '../middleware/limits';
import { ADMIN, ADMIN_REFUSALS, empty, errors, INVALID_JSON, json, jsonBody, TOO_LARGE_JSON } from '../openapi/route-docs';
import { adminAuth, type AdminVars } from './admin-auth';
import { gatewayAdmin } from './gateway-routes';
import { identityAdmin } from './identity-admin-routes';
import { libraryAdmin } from './library-admin-routes';
import { toResponse } from '../../infra/http/responses';
import { webhookRoutes } from '../webhooks/webhook-routes';

/** The admin API (docs/proxy-api.md, "Admin"), behind `Authorization: Bearer ${ADMIN_TOKEN}`. */
export const adminRoutes = new Hono<{ Bindings: ProxyEnv; Variables: AdminVars }>();

// The body limit first, then the gate: a refused credential is answered before a large body is read.
adminRoutes.use('*', jsonLimit, adminAuth);

const memberNotFound = (c: Context, id: string) => contextError(c)(404, 'member_not_found', `No active member ${clip(id)} exists.`);

adminRoutes.post('/members', describeRoute({
  summary: 'Add a member: the token is shown only in this answer',
  tags: ['admin'],
  security: ADMIN,
  requestBody: jsonBody(memberAddSchema, '`name`: 1 to 100 characters, cleaned by the label rule (docs/identity.md: control and bidirectional override characters removed, NFC, trimmed); `email` (optional): the address Cloudflare Access names the member by, for member sign-in.'),
  responses: {
    201: json('The member and its token.', addedMemberSchema),
    ...errors({ 400: INVALID_JSON, ...ADMIN_REFUSALS, 409: '`email_taken`: another active member has this email.', 413: TOO_LARGE_JSON }),
  },
}), async (c) => {
  const body = await readJsonBody(c, memberAddSchema, contextError(c));
  if ('refused' in body) return body.refused;
  const added = await directoryObject(c.env).add(body.value.name, body.value.email ?? null);
  if (added === 'email_taken') return contextError(c)(409, 'email_taken', 'email: another active member has this email; an email names one member.', 'email');
  await ledgerObject(c.env).audit(c.get('actor'), 'member.add', added.id, { name: added.name, ...(added.email ? { email: added.email } : {}) });
  return c.json(added, 201);
});

adminRoutes.get('/members', describeRoute({
  summary: 'Every member, revoked ones included',
  tags: ['admin'],
  security: ADMIN,
  responses: { 200: json('The members.', memberListSchema), ...errors(ADMIN_REFUSALS) },
}), async (c) => c.json({ members: await directoryObject(c.env).list() }));

adminRoutes.delete('/members/:id', describeRoute({
  summary: 'Revoke a member: the token stops working at once',
  tags: ['admin'],
  security: ADMIN,
  responses: { 204: empty('Revoked.'), ...errors({ ...ADMIN_REFUSALS, 404: '`member_not_found`: no such active member.' }) },
}), async (c) => {
  const done = await directoryObject(c.env).revoke(c.req.param('id'));
  if (done) await ledgerObject(c.env).audit(c.get('actor'), 'member.revoke', c.req.param('id'), {});
  return done ? c.body(null, 204) : memberNotFound(c, c.req.param('id'));
});

adminRoutes.post('/members/:id/token', describeRoute({
  summary: 'A new token for a member: the old one stops working at once',
  tags: ['admin'],
  security: ADMIN,
  responses: { 200: json('The new token.', memberTokenSchema), ...errors({ ...ADMIN_REFUSALS, 404: '`member_not_found`: no such active member.' }) },
}), async (c) => {
  const token = await directoryObject(c.env).rotate(c.req.param('id'));
  if (token) await ledgerObject(c.env).audit(c.get('actor'), 'member.rotate', c.req.param('id'), {});
  return token ? c.json({ id: c.req.param('id'), token }) : memberNotFound(c, c.req.param('id'));
});

adminRoutes.route('/', gatewayAdmin);
adminRoutes.route('/', libraryAdmin);
adminRoutes.route('/', identityAdmin);
// The team's webhook (docs/webhooks.md): kept and sent by the team ledger; changes are audited (never the URL or the secret).
adminRoutes.route('/', webhookRoutes({
  whose: 'the team\'s',
  tag: 'admin',
  security: ADMIN,
  refusals: ADMIN_REFUSALS,
  error: contextError,
  answer: async (c, call) => {
    const answer = await ledgerObject(c.env).teamWebhook(call);
    const change = { set: 'webhook.set', rotate: 'webhook.rotate', delete: 'webhook.delete' }[call.kind as string];
    if (change && answer.status < 300) await ledgerObject(c.env).audit(c.get('actor'), change, 'team', call.kind === 'set' ? { events: call.input.events, format: call.input.format } : {});
    return toResponse(answer);
  },
}));
