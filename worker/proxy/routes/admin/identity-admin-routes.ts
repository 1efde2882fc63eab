import { Hono, type Context } from 'hono';
import { describeRoute } from 'hono-openapi';
import { accessKeyListSchema, clip, memberEmailChangeSchema, memberProfileSchema, memberScopeChangeSchema, memberScopeSchema, tokenListSchema } from '../../../../shared';
import type { ProxyEnv } from '../../infra/settings/proxy-env';
import { directoryObject, ledgerObject, memberObject } from '../../objects/handles';
import { contextError } from '../answers';
import { readJsonBody } from '../json-body';
import { ADMIN, ADMIN_REFUSALS, empty, errors, INVALID_JSON, json, jsonBody, TOO_LARGE_JSON } from '../openapi/route-docs';
import type { AdminVars } from './admin-auth';

/** The admin's side of member identity (docs/identity.md): scopes, emails, a member's tokens and access keys. */
export const identityAdmin = new Hono<{ Bindings: ProxyEnv; Variables: AdminVars }>();

const memberNotFound = (c: Context, id: string) => contextError(c)(404, 'member_not_found', `No active member ${clip(id)} exists.`);
const emailTaken = (c: Context) => contextError(c)(409, 'email_taken', 'email: another active member has this email; an email names one member.', 'email');
const NOT_FOUND_DOC = '`member_not_found`: no such active member.';

identityAdmin.put('/members/:id/scope', describeRoute({
  summary: 'Limit a member to models, and set when their tokens expire',
  description:
    '`models`: the model ids the member may create with and quote (null: every model); any other model is 403 `model_not_allowed` before anything is reserved. ' +
    '`expiresAt`: unix seconds from which every token of the member is 401 `token_expired` (null: never). A field left out keeps its value.',
  tags: ['admin'],
  security: ADMIN,
  requestBody: jsonBody(memberScopeChangeSchema),
  responses: { 200: json('The scope now in force.', memberScopeSchema), ...errors({ 400: INVALID_JSON, ...ADMIN_REFUSALS, 404: NOT_FOUND_DOC, 413: TOO_LARGE_JSON }) },
}), async (c) => {
  const body = await readJsonBody(c, memberScopeChangeSchema, contextError(c));
  if ('refused' in body) return body.refused;
  const id = c.req.param('id');
  const scope = await directoryObject(c.env).setScope(id, body.value);
  if (!scope) return memberNotFound(c, id);
  await ledgerObject(c.env).audit(c.get('actor'), 'member.scope', id, { ...scope });
  return c.json(scope);
});

identityAdmin.put('/members/:id/email', describeRoute({
  summary: 'Set or clear the email a member signs in with (Cloudflare Access)',
  tags: ['admin'],
  security: ADMIN,
  requestBody: jsonBody(memberEmailChangeSchema, '`email`: an address, compared without letter case; null clears it.'),
  responses: {
    200: json('The member as `GET /admin/members` lists it.', memberProfileSchema),
    ...errors({ 400: INVALID_JSON, ...ADMIN_REFUSALS, 404: NOT_FOUND_DOC, 409: '`email_taken`: another active member has this email.', 413: TOO_LARGE_JSON }),
  },
}), async (c) => {
  const body = await readJsonBody(c, memberEmailChangeSchema, contextError(c));
  if ('refused' in body) return body.refused;
  const id = c.req.param('id');
  const profile = await directoryObject(c.env).setEmail(id, body.value.email);
  if (profile === 'email_taken') return emailTaken(c);
  if (!profile) return memberNotFound(c, id);
  await ledgerObject(c.env).audit(c.get('actor'), 'member.email', id, { email: body.value.email });
  return c.json(profile);
});

identityAdmin.get('/members/:id/tokens', describeRoute({
  summary: 'A member\'s tokens (one per browser): labels and times, never a token',
  tags: ['admin'],
  security: ADMIN,
  responses: { 200: json('The tokens, oldest first (`current` is always false here).', tokenListSchema), ...errors({ ...ADMIN_REFUSALS, 404: '`member_not_found`: no such member.' }) },
}), async (c) => {
  const id = c.req.param('id');
  const tokens = (await directoryObject(c.env).exists(id)) ? await memberObject(c.env, id).adminTokens() : null;
  return tokens ? c.json({ tokens }) : memberNotFound(c, id);
});

identityAdmin.delete('/members/:id/tokens/:tokenId', describeRoute({
  summary: 'Revoke one token of a member: refused from its next request, the member\'s others keep working',
  tags: ['admin'],
  security: ADMIN,
  responses: { 204: empty('Revoked.'), ...errors({ ...ADMIN_REFUSALS, 404: '`member_not_found`: no such member; `token_not_found`: no such token of the member.' }) },
}), async (c) => {
  const { id, tokenId } = c.req.param();
  const deleted = (await directoryObject(c.env).exists(id)) ? await memberObject(c.env, id).adminDeleteToken(tokenId) : null;
  if (deleted === null) return memberNotFound(c, id);
  if (!deleted) return contextError(c)(404, 'token_not_found', `No token ${clip(tokenId)} of this member exists.`, 'tokenId');
  await ledgerObject(c.env).audit(c.get('actor'), 'token.revoke', id, { token: tokenId });
  return c.body(null, 204);
});

identityAdmin.get('/members/:id/access-keys', describeRoute({
  summary: 'A member\'s access keys (for the service\'s SDK): labels, access key ids and times, never a secret',
  tags: ['admin'],
  security: ADMIN,
  responses: { 200: json('The keys, oldest first.', accessKeyListSchema), ...errors({ ...ADMIN_REFUSALS, 404: '`member_not_found`: no such member.' }) },
}), async (c) => {
  const id = c.req.param('id');
  const listed = (await directoryObject(c.env).exists(id)) ? await memberObject(c.env, id).accessKeys(null, { kind: 'list' }) : null;
  return listed && typeof listed === 'object' ? c.json(listed) : memberNotFound(c, id);
});

identityAdmin.delete('/members/:id/access-keys/:keyId', describeRoute({
  summary: 'Revoke one access key of a member: its next signed call is refused, the member\'s others keep working',
  tags: ['admin'],
  security: ADMIN,
  responses: { 204: empty('Revoked.'), ...errors({ ...ADMIN_REFUSALS, 404: '`member_not_found`: no such member; `access_key_not_found`: no such access key of the member.' }) },
}), async (c) => {
  const { id, keyId } = c.req.param();
  const deleted = (await directoryObject(c.env).exists(id)) ? await memberObject(c.env, id).accessKeys(null, { kind: 'delete', id: keyId }) : null;
  if (deleted === null) return memberNotFound(c, id);
  if (!deleted) return contextError(c)(404, 'access_key_not_found', `No access key ${clip(keyId)} of this member exists.`, 'keyId');
  await ledgerObject(c.env).audit(c.get('actor'), 'access_key.revoke', id, { accessKey: keyId });
  return c.body(null, 204);
});
