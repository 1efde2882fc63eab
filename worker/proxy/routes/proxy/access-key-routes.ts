import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { accessKeyCreateSchema, accessKeyListSchema, clip, createdAccessKeySchema, MEMBER_ACCESS_KEYS_MAX } from '../../../../shared';
import { toResponse } from '../../infra/http/responses';
import { accessKeySecret } from '../../infra/settings/proxy-settings';
import { ledgerObject } from '../../objects/handles';
import { memberError } from '../answers';
import { readJsonBody } from '../json-body';
import type { MemberEnv } from '../middleware/member-auth';
import { empty, errors, INVALID_JSON, json, jsonBody, MEMBER, TOO_LARGE_JSON, UNAUTHORIZED_MEMBER } from '../openapi/route-docs';
import { proxyUnauthorized } from './proxy-auth';

/** `/proxy/access-keys`: the calling member's access keys, for scripts that use the service's SDK (docs/identity.md). */
export const accessKeyRoutes = new Hono<MemberEnv>();

export const ACCESS_KEYS_FULL = `\`too_many_access_keys\`: the member already holds ${MEMBER_ACCESS_KEYS_MAX}; delete one first.`;
export const ACCESS_KEYS_OFF = '`access_keys_not_configured`: the proxy has no `ACCESS_KEY_SECRET` (at least 32 characters), under which secrets are kept encrypted.';

const notConfigured = () => memberError(503, 'access_keys_not_configured', 'Access keys are not set up on this proxy: ask its operator to set ACCESS_KEY_SECRET (at least 32 characters).');

accessKeyRoutes.post('/access-keys', describeRoute({
  summary: 'A new access key pair of the calling member, for the service\'s SDK: the secret is shown only in this answer',
  description: 'Sign `/api/v3` calls to the proxy with it (region `cn-beijing`, service `ark`) exactly as calls to the service: they act as the member\'s bearer calls.',
  tags: ['member'],
  security: MEMBER,
  requestBody: jsonBody(accessKeyCreateSchema, '`label`: 1 to 64 characters, cleaned by the label rule: what the member reads in their list of keys.'),
  responses: {
    201: json('The key pair, with its id and label.', createdAccessKeySchema),
    ...errors({ 400: INVALID_JSON, 401: UNAUTHORIZED_MEMBER, 409: ACCESS_KEYS_FULL, 413: TOO_LARGE_JSON, 503: ACCESS_KEYS_OFF }),
  },
}), async (c) => {
  const body = await readJsonBody(c, accessKeyCreateSchema, memberError);
  if ('refused' in body) return body.refused;
  if (!accessKeySecret(c.env)) return notConfigured();
  const { id, state, tokenHash } = c.get('member');
  const added = await state.accessKeys(tokenHash, { kind: 'create', label: body.value.label });
  if (added === null) return toResponse(proxyUnauthorized());
  if (added === 'full') return memberError(409, 'too_many_access_keys', `You already hold ${MEMBER_ACCESS_KEYS_MAX} access keys; delete one you no longer use (DELETE /proxy/access-keys/:id).`);
  if (added === 'not_configured') return notConfigured();
  if (typeof added !== 'object' || !('secretAccessKey' in added)) throw new Error('an access key create answered no key');
  await ledgerObject(c.env).audit(id, 'access_key.create', id, { accessKey: added.id, label: added.label, accessKeyId: added.accessKeyId });
  return c.json(added, 201);
});

accessKeyRoutes.get('/access-keys', describeRoute({
  summary: 'The calling member\'s access keys: labels, ids and times, never a secret',
  tags: ['member'],
  security: MEMBER,
  responses: { 200: json('Oldest first.', accessKeyListSchema), ...errors({ 401: UNAUTHORIZED_MEMBER }) },
}), async (c) => {
  const { state, tokenHash } = c.get('member');
  const listed = await state.accessKeys(tokenHash, { kind: 'list' });
  return listed && typeof listed === 'object' ? c.json(listed) : toResponse(proxyUnauthorized());
});

accessKeyRoutes.delete('/access-keys/:keyId', describeRoute({
  summary: 'Delete one of the calling member\'s access keys: refused from its next call on',
  tags: ['member'],
  security: MEMBER,
  responses: { 204: empty('Deleted.'), ...errors({ 401: UNAUTHORIZED_MEMBER, 404: '`access_key_not_found`: no such access key of the member.' }) },
}), async (c) => {
  const { id, state, tokenHash } = c.get('member');
  const keyId = c.req.param('keyId');
  const deleted = await state.accessKeys(tokenHash, { kind: 'delete', id: keyId });
  if (deleted === null) return toResponse(proxyUnauthorized());
  if (!deleted) return memberError(404, 'access_key_not_found', `No access key ${clip(keyId)} exists for you.`, 'keyId');
  await ledgerObject(c.env).audit(id, 'access_key.revoke', id, { accessKey: keyId });
  return c.body(null, 204);
});
