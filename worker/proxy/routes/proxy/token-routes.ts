import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { clip, createdTokenSchema, MEMBER_TOKENS_MAX, tokenCreateSchema, tokenListSchema } from '../../../../shared';
import { toResponse } from '../../infra/http/responses';
import { ledgerObject } from '../../objects/handles';
import { memberError } from '../answers';
import { readJsonBody } from '../json-body';
import type { MemberEnv } from '../middleware/member-auth';
import { empty, errors, INVALID_JSON, json, jsonBody, MEMBER, TOO_LARGE_JSON, UNAUTHORIZED_MEMBER } from '../openapi/route-docs';
import { proxyUnauthorized } from './proxy-auth';

/** `/proxy/tokens`: the calling member's tokens, one per browser (docs/identity.md). */
export const tokenRoutes = new Hono<MemberEnv>();

tokenRoutes.post('/tokens', describeRoute({
  summary: 'A new token of the calling member, for another browser: shown only in this answer',
  tags: ['member'],
  security: MEMBER,
  requestBody: jsonBody(tokenCreateSchema, '`label`: 1 to 64 characters, cleaned by the label rule (control and bidirectional override characters removed, NFC, trimmed): what the member reads in their list of browsers.'),
  responses: {
    201: json('The token, with its id and label.', createdTokenSchema),
    ...errors({ 400: INVALID_JSON, 401: UNAUTHORIZED_MEMBER, 409: `\`too_many_tokens\`: the member already holds ${MEMBER_TOKENS_MAX}; delete one first.`, 413: TOO_LARGE_JSON }),
  },
}), async (c) => {
  const body = await readJsonBody(c, tokenCreateSchema, memberError);
  if ('refused' in body) return body.refused;
  const { id, state, tokenHash } = c.get('member');
  const added = await state.addToken(tokenHash, body.value.label);
  if (added === null) return toResponse(proxyUnauthorized());
  if (added === 'full') return memberError(409, 'too_many_tokens', `You already hold ${MEMBER_TOKENS_MAX} tokens; delete one you no longer use (DELETE /proxy/tokens/:id).`);
  await ledgerObject(c.env).audit(id, 'token.create', id, { token: added.id, label: added.label });
  return c.json(added, 201);
});

tokenRoutes.get('/tokens', describeRoute({
  summary: 'The calling member\'s tokens: labels and times, never a token or its hash',
  tags: ['member'],
  security: MEMBER,
  responses: { 200: json('Oldest first; `current` marks the token of this request.', tokenListSchema), ...errors({ 401: UNAUTHORIZED_MEMBER }) },
}), async (c) => {
  const { state, tokenHash } = c.get('member');
  const tokens = await state.tokens(tokenHash);
  return tokens ? c.json({ tokens }) : toResponse(proxyUnauthorized());
});

tokenRoutes.delete('/tokens/:tokenId', describeRoute({
  summary: 'Delete one of the calling member\'s tokens: refused from its next request on',
  tags: ['member'],
  security: MEMBER,
  responses: { 204: empty('Deleted.'), ...errors({ 401: UNAUTHORIZED_MEMBER, 404: '`token_not_found`: no such token of the member.' }) },
}), async (c) => {
  const { id, state, tokenHash } = c.get('member');
  const tokenId = c.req.param('tokenId');
  const deleted = await state.deleteToken(tokenHash, tokenId);
  if (deleted === null) return toResponse(proxyUnauthorized());
  if (!deleted) return memberError(404, 'token_not_found', `No token ${clip(tokenId)} exists for you.`, 'tokenId');
  await ledgerObject(c.env).audit(id, 'token.revoke', id, { token: tokenId });
  return c.body(null, 204);
});
