import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { capabilitiesSchema, consentListSchema, consentRecordSchema, consentSchema, memberSelfSchema, MODELS, quoteAnswerSchema, usageViewSchema, videoCreateSchema } from '../../../../shared';
import { toResponse } from '../../infra/http/responses';
import { allowHttpMedia } from '../../infra/settings/proxy-settings';
import { memberError } from '../answers';
import { readJsonBody } from '../json-body';
import { videoCreateLimit } from '../middleware/limits';
import type { MemberEnv } from '../middleware/member-auth';
import { errors, INVALID_JSON, json, jsonBody, MEMBER, TOO_LARGE_JSON, UNAUTHORIZED_MEMBER } from '../openapi/route-docs';
import { proxyUnauthorized } from './proxy-auth';

/** The calling member's own records: `/proxy/me`, consents, usage, quotes, capabilities. */
export const memberRoutes = new Hono<MemberEnv>();

memberRoutes.get('/me', describeRoute({
  summary: 'The calling member',
  tags: ['member'],
  security: MEMBER,
  responses: { 200: json('`{"id","name"}` of the caller.', memberSelfSchema), ...errors({ 401: UNAUTHORIZED_MEMBER }) },
}), async (c) => {
  const { state, tokenHash } = c.get('member');
  const me = await state.me(tokenHash);
  return me ? c.json(me) : toResponse(proxyUnauthorized());
});

memberRoutes.post('/consents', describeRoute({
  summary: 'Record a consent (to the real-person rules, before `CreatePortraitSession`)',
  tags: ['member'],
  security: MEMBER,
  requestBody: jsonBody(consentSchema),
  responses: { 201: json('The consent on record.', consentRecordSchema), ...errors({ 400: INVALID_JSON, 401: UNAUTHORIZED_MEMBER, 413: TOO_LARGE_JSON }) },
}), async (c) => {
  const body = await readJsonBody(c, consentSchema, memberError);
  if ('refused' in body) return body.refused;
  const { state, tokenHash } = c.get('member');
  const consent = await state.addConsent(tokenHash, body.value.scope, body.value.rulesVersion);
  return consent ? c.json(consent, 201) : toResponse(proxyUnauthorized());
});

memberRoutes.get('/consents', describeRoute({
  summary: 'The member\'s consents, oldest first',
  tags: ['member'],
  security: MEMBER,
  responses: { 200: json('The consents on record.', consentListSchema), ...errors({ 401: UNAUTHORIZED_MEMBER }) },
}), async (c) => {
  const { state, tokenHash } = c.get('member');
  const consents = await state.consents(tokenHash);
  return consents ? c.json({ consents }) : toResponse(proxyUnauthorized());
});

memberRoutes.get('/usage', describeRoute({
  summary: 'The member\'s budget and the team\'s, this period\'s alerts, and storage',
  tags: ['member'],
  security: MEMBER,
  responses: {
    200: json('Amounts in the price table\'s currency; `limit`, `remaining` and `maxRunning` are null when unlimited.', usageViewSchema),
    ...errors({ 401: UNAUTHORIZED_MEMBER }),
  },
}), async (c) => {
  const { state, tokenHash } = c.get('member');
  const usage = await state.usage(tokenHash);
  return usage ? c.json(usage) : toResponse(proxyUnauthorized());
});

memberRoutes.get('/capabilities', describeRoute({
  summary: 'The model catalog, and whether plain http:// media is accepted',
  tags: ['member'],
  security: MEMBER,
  responses: {
    200: json('Parameters and allowed values, reference kinds and counts per model; `media.allowHttp`.', capabilitiesSchema),
    ...errors({ 401: UNAUTHORIZED_MEMBER }),
  },
}), async (c) => {
  const { state, tokenHash } = c.get('member');
  // `media.allowHttp` tells clients whether plain http:// media is accepted (ALLOW_HTTP_MEDIA).
  return (await state.me(tokenHash)) ? c.json({ models: MODELS, media: { allowHttp: allowHttpMedia(c.env) } }) : toResponse(proxyUnauthorized());
});

memberRoutes.post('/quote', describeRoute({
  summary: 'What a video create would reserve, with nothing created, reserved or sent upstream',
  description:
    'The body is a `POST /v1/video/generations` body, checked as the create checks it (the same 400 for a body the create refuses). ' +
    '`cost` is the reservation the create would make: the most the task can cost (docs/budgets.md); `tokens` the output tokens it is reserved for ' +
    '(null when the table is per second); `remaining` and `teamRemaining` what the member\'s and the team\'s budgets have left now (null: no limit).',
  tags: ['member'],
  security: MEMBER,
  requestBody: jsonBody(videoCreateSchema, 'A video create body (at most 16 MB).'),
  responses: {
    200: json('The quote, in the price table\'s currency.', quoteAnswerSchema),
    ...errors({
      400: '`invalid_parameter`: refused by the schema or the model catalog, as the create would be; `param` names the field.',
      401: UNAUTHORIZED_MEMBER,
      413: '`request_too_large`: a body over 16 MB.',
    }),
  },
}), videoCreateLimit, async (c) => {
  const { state, tokenHash } = c.get('member');
  return toResponse((await state.quote(tokenHash, await c.req.arrayBuffer())) ?? proxyUnauthorized());
});
