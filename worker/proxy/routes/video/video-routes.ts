import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { modelListSchema, queuedCreateSchema, videoCreateAnswerSchema, videoCreateSchema, videoTaskAnswerSchema } from '../../../../shared';
import { expiredVideo, unauthorizedVideo } from '../../infra/http/responses';
import { upstreamMaxRunning } from '../../infra/settings/proxy-settings';
import { prefersRespondAsync } from '../../domain/queue/prefer';
import { memberAnswer, memberAuth, type MemberEnv } from '../middleware/member-auth';
import { videoCreateLimit } from '../middleware/limits';
import { errors, IDEMPOTENCY_KEY, json, jsonBody, MEMBER, PREFER, UNAUTHORIZED_MEMBER } from '../openapi/route-docs';

/** `/v1`: video generation, handled in the member's object (domain/video/). */
export const videoRoutes = new Hono<MemberEnv>();

/** What the service's state may answer on every `/v1` call (documented per route). */
const SERVICE_ERRORS = {
  429: '`rate_limited`: the service is rate limiting; wait `Retry-After` seconds.',
  502: '`internal_error`, `upstream_unauthorized`: the service could not be reached, answered unreadably, or refused the proxy\'s key.',
  503: '`model_unavailable`: the service (or the model) is unavailable now.',
  504: '`upstream_timeout`: no answer within `UPSTREAM_TIMEOUT_MS`.',
};

videoRoutes.use('*', memberAuth(unauthorizedVideo, expiredVideo));

videoRoutes.get('/models', describeRoute({
  summary: 'The service\'s model list, passed through',
  tags: ['video'],
  security: MEMBER,
  responses: { 200: json('The service\'s list.', modelListSchema), ...errors({ 401: UNAUTHORIZED_MEMBER, ...SERVICE_ERRORS }) },
}), async (c) => {
  c.set('operation', 'ListModels');
  const { state, tokenHash } = c.get('member');
  return memberAnswer(await state.video(tokenHash, { kind: 'models' }), unauthorizedVideo);
});

videoRoutes.post('/video/generations', describeRoute({
  summary: 'Create a video task, priced and reserved against the budgets first',
  description:
    'Checked against the model catalog, then priced and reserved against the member\'s and the team\'s budgets before anything goes upstream. ' +
    'Each `asset://` reference must be the member\'s and `Active` for the model.',
  tags: ['video'],
  security: MEMBER,
  parameters: [IDEMPOTENCY_KEY, PREFER],
  requestBody: jsonBody(videoCreateSchema, 'The service\'s create body (at most 16 MB).'),
  responses: {
    200: json('The service\'s answer (the task id) with the proxy\'s `arkbridge` member: the cost.', videoCreateAnswerSchema),
    202: json('With `Prefer: respond-async`, a create that could not start now (the team\'s `UPSTREAM_MAX_RUNNING` reached, others queued, or the service answered 429/503): queued with its reservation held (docs/queue.md).', queuedCreateSchema),
    ...errors({
      ...SERVICE_ERRORS,
      400: '`invalid_parameter`: refused by the schema or the model catalog, or a reference that is not the member\'s or not usable; `param` names the field.',
      401: UNAUTHORIZED_MEMBER,
      402: '`budget_exceeded`: the task would take the member\'s or the team\'s budget past its limit; nothing was created.',
      409: '`idempotency_in_progress`: the first request with this key still runs; `asset_not_ready`: a referenced asset is still being prepared.',
      413: '`request_too_large`: a body over 16 MB.',
      422: '`idempotency_key_reused`: the key was used with another body.',
      429: '`rate_limited`: the service is rate limiting (wait `Retry-After` seconds); `too_many_running_tasks`: the member has `maxRunning` tasks not yet ended; `upstream_busy`: the team has `UPSTREAM_MAX_RUNNING` tasks at the service (wait `Retry-After`, or send `Prefer: respond-async`); `queue_full`: the queue takes no more.',
    }),
  },
}), videoCreateLimit, async (c) => {
  c.set('operation', 'CreateVideoTask');
  const { state, tokenHash } = c.get('member');
  const slot = { cap: upstreamMaxRunning(c.env), queueable: prefersRespondAsync(c.req.header('prefer')) };
  const call = { kind: 'create' as const, body: await c.req.arrayBuffer(), idempotencyKey: c.req.header('idempotency-key') ?? null, slot };
  return memberAnswer(await state.video(tokenHash, call), unauthorizedVideo);
});

videoRoutes.get('/video/generations/:id', describeRoute({
  summary: 'One of the member\'s video tasks',
  description: 'From the proxy\'s record when fresher than `TRACK_INTERVAL_SECONDS` or the task ended, else from one query of the service shared by concurrent readers.',
  tags: ['video'],
  security: MEMBER,
  responses: {
    200: json('The service\'s task with the proxy\'s `arkbridge` member: the cost, and for a completed task the kept copy.', videoTaskAnswerSchema),
    ...errors({ 401: UNAUTHORIZED_MEMBER, 404: '`task_not_found`: no such task of this member.', ...SERVICE_ERRORS }),
  },
}), async (c) => {
  c.set('operation', 'GetVideoTask');
  const { state, tokenHash } = c.get('member');
  return memberAnswer(await state.video(tokenHash, { kind: 'get', id: c.req.param('id'), origin: new URL(c.req.url).origin }), unauthorizedVideo);
});
