import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { describeRoute } from 'hono-openapi';
import {
  ACTIONS,
  API_VERSION,
  BODY_LIMITS,
  capabilitiesSchema,
  check,
  clip,
  consentListSchema,
  consentRecordSchema,
  consentSchema,
  healthSchema,
  libraryEnvelopeSchema,
  librarySchemas,
  memberSelfSchema,
  MODELS,
  modelListSchema,
  parseJsonBytes,
  sentence,
  tooLargeMessage,
  UPLOAD_TYPES,
  uploadAnswerSchema,
  uploadListSchema,
  usageViewSchema,
  videoCreateAnswerSchema,
  videoCreateSchema,
  videoError,
  videoTaskAnswerSchema,
} from '../../shared';
import { admin } from './routes/admin/admin-routes';
import { consoleApp } from './routes/console/console-app';
import { connectPage } from './routes/console/connect-page';
import type { ProxyEnv } from './infra/settings/proxy-env';
import { allowHttpMedia, missingConfig, secretValues } from './infra/settings/proxy-settings';
import { corsFor } from './routes/middleware/cors';
import { memberAuth, type MemberVars } from './routes/middleware/member-auth';
import { jsonResponse, libraryFailure, toResponse, unauthorizedLibrary, unauthorizedVideo, videoFailure, type ProxyResponse } from './infra/http/responses';
import { createLogger } from './infra/log/logger';
import { cleanMediaStore } from './domain/media/media-cleanup';
import { serveMedia } from './domain/media/media-route';
import { deleteUpload, handleUpload, listUploads } from './domain/media/upload-handler';
import { openApiRoute } from './routes/openapi/openapi-document';
import {
  empty,
  envelopeErrors,
  errors,
  IDEMPOTENCY_KEY,
  INVALID_JSON,
  json,
  jsonBody,
  MEMBER,
  oneOfBodies,
  OPEN,
  SIGNED_MEDIA,
  TOO_LARGE_JSON,
  UNAUTHORIZED_MEMBER,
} from './routes/openapi/route-docs';

export { MemberState } from './objects/member-state';
export { MemberDirectory } from './objects/member-directory';
export { TeamLedger } from './objects/team-ledger';

type Env = { Bindings: ProxyEnv; Variables: MemberVars };
const app = new Hono<Env>();

// One JSON line per request; the logger redacts secrets itself. One logger per configuration
// (the env object is the same for every request of an isolate), not one per request.
let logger: { env: Env['Bindings']; log: ReturnType<typeof createLogger> } | undefined;
app.use('*', async (c, next) => {
  const started = Date.now();
  await next();
  if (!logger || logger.env !== c.env) logger = { env: c.env, log: createLogger(secretValues(c.env)) };
  logger.log({
    member: c.get('memberId'),
    route: `${c.req.method} ${c.req.routePath}`,
    operation: c.get('operation'),
    status: c.res.status,
    durationMs: Date.now() - started,
  });
});
app.use('*', (c, next) => corsFor(c.env.ALLOWED_ORIGINS)(c, next));

/** Refuses a body over `maxSize` with 413 before reading more of it (Content-Length first, else while streaming). */
const limit = (maxSize: number, refuse: (c: { req: { query(name: string): string | undefined } }, message: string) => ProxyResponse) =>
  bodyLimit({ maxSize, onError: (c) => toResponse(refuse(c, tooLargeMessage(maxSize))) });
const jsonError = (status: number, code: string, message: string, param?: string) =>
  jsonResponse(status, { error: { code, message: sentence(message), ...(param ? { param } : {}) } });
const tooLargeLibrary = limit(BODY_LIMITS.json, (c, message) => libraryFailure(413, c.req.query('Action') ?? '', 'RequestTooLarge', message));
const tooLargeJson = limit(BODY_LIMITS.json, (_c, message) => jsonError(413, 'request_too_large', message, 'body'));
const tooLargeVideo = limit(BODY_LIMITS.videoCreate, (_c, message) => videoFailure(413, videoError('request_too_large', message, 'invalid_request_error', 'body')));

app.get('/openapi.json', describeRoute({ summary: 'This document, generated from the schemas the routes check with', tags: ['health'], security: OPEN, responses: { 200: { description: 'The OpenAPI 3.1 document; `servers` is the origin asked.', content: { 'application/json': { schema: { type: 'object' } } } } } }), openApiRoute(app));
app.get('/healthz', describeRoute({
  summary: 'Health, and the settings a deployment still lacks',
  tags: ['health'],
  security: OPEN,
  responses: { 200: json('`{"status":"ok"}`, or with `config: "incomplete"` and the `missing` settings.', healthSchema) },
}), (c) => {
  const missing = missingConfig(c.env);
  return c.json(missing.length ? { status: 'ok', config: 'incomplete', missing } : { status: 'ok' });
});
app.use('/admin/*', tooLargeJson);
app.route('/admin', admin);
// The admin console (docs/console.md): HTML pages over the admin API; forms are small.
app.use('/console/*', tooLargeJson);
app.route('/console', consoleApp);
app.get('/connect', connectPage);

/** Answers a member call; `null` from the member's object means the token is no longer valid. */
const answer = (result: ProxyResponse | null, unauthorized: () => ProxyResponse) => toResponse(result ?? unauthorized());

app.post('/api/v3', describeRoute({
  summary: 'The asset library: one of twelve operations, named by Action',
  description:
    'The service\'s `/api/v3` interface, signed by the proxy. The body is the operation\'s, checked with the schema of the `Action` named. ' +
    'The answer is the service\'s envelope byte for byte. Members are apart: another member\'s id is 403 `AccessDenied`. ' +
    '`CreatePortraitSession` needs a consent on record (`POST /proxy/consents`). `CreateAssetGroup` and `CreateAsset` take an `Idempotency-Key`.',
  tags: ['library'],
  security: MEMBER,
  parameters: [
    { in: 'query', name: 'Action', required: true, description: 'The operation.', schema: { type: 'string', enum: [...ACTIONS] } },
    { in: 'query', name: 'Version', required: true, schema: { type: 'string', enum: [API_VERSION] } },
    IDEMPOTENCY_KEY,
  ],
  requestBody: oneOfBodies(librarySchemas(), 'The body of the operation named by `Action` (asset `URL`s https-only unless the proxy allows http media).'),
  responses: {
    200: json('The service\'s envelope: `Result`, or `ResponseMetadata.Error` (the service may answer a failure with 200: always check it).', libraryEnvelopeSchema),
    ...envelopeErrors({
      400: '`ValidationError`: the body, `Action` or `Version` refused; the message names the field.',
      401: '`AuthenticationFailed`: no valid member token.',
      403: '`AccessDenied`: another member\'s id, or one never obtained.',
      409: '`IdempotencyInProgress`: the first request with this key still runs.',
      413: '`RequestTooLarge`: a body over 1 MB.',
      422: '`IdempotencyKeyReused`: the key was used with another body.',
      429: '`RequestLimitExceeded`: the service is rate limiting; wait `Retry-After` seconds.',
      502: '`ServiceUnavailable`, `InternalError` or the service\'s code: the service could not be reached, answered unreadably, or refused the proxy\'s keys.',
      503: '`ServiceUnavailable`: the service is unavailable now.',
      504: '`UpstreamTimeout`: no answer within `UPSTREAM_TIMEOUT_MS`.',
    }),
  },
}), memberAuth((c) => unauthorizedLibrary(c.req.query('Action') ?? '')), tooLargeLibrary, async (c) => {
  const action = c.req.query('Action') ?? '';
  c.set('operation', action);
  const { state, tokenHash } = c.get('member');
  const result = await state.library(tokenHash, {
    action,
    version: c.req.query('Version') ?? null,
    body: await c.req.arrayBuffer(),
    idempotencyKey: c.req.header('idempotency-key') ?? null,
  });
  return answer(result, () => unauthorizedLibrary(action));
});

app.use('/v1/*', memberAuth(unauthorizedVideo));
app.get('/v1/models', describeRoute({
  summary: 'The service\'s model list, passed through',
  tags: ['video'],
  security: MEMBER,
  responses: {
    200: json('The service\'s list.', modelListSchema),
    ...errors({
      401: UNAUTHORIZED_MEMBER,
      429: '`rate_limited`: the service is rate limiting; wait `Retry-After` seconds.',
      502: '`internal_error`, `upstream_unauthorized`: the service could not be reached, answered unreadably, or refused the proxy\'s key.',
      503: '`model_unavailable`: the service (or the model) is unavailable now.',
      504: '`upstream_timeout`: no answer within `UPSTREAM_TIMEOUT_MS`.',
    }),
  },
}), async (c) => {
  c.set('operation', 'ListModels');
  const { state, tokenHash } = c.get('member');
  return answer(await state.video(tokenHash, { kind: 'models' }), unauthorizedVideo);
});
app.post('/v1/video/generations', describeRoute({
  summary: 'Create a video task, priced and reserved against the budgets first',
  description:
    'Checked against the model catalog, then priced and reserved against the member\'s and the team\'s budgets before anything goes upstream. ' +
    'Each `asset://` reference must be the member\'s and `Active` for the model.',
  tags: ['video'],
  security: MEMBER,
  parameters: [IDEMPOTENCY_KEY],
  requestBody: jsonBody(videoCreateSchema, 'The service\'s create body (at most 16 MB).'),
  responses: {
    200: json('The service\'s answer (the task id) with the proxy\'s `arkbridge` member: the cost.', videoCreateAnswerSchema),
    ...errors({
      400: '`invalid_parameter`: refused by the schema or the model catalog, or a reference that is not the member\'s or not usable; `param` names the field.',
      401: UNAUTHORIZED_MEMBER,
      402: '`budget_exceeded`: the task would take the member\'s or the team\'s budget past its limit; nothing was created.',
      409: '`idempotency_in_progress`: the first request with this key still runs; `asset_not_ready`: a referenced asset is still being prepared.',
      413: '`request_too_large`: a body over 16 MB.',
      422: '`idempotency_key_reused`: the key was used with another body.',
      429: '`rate_limited`: the service is rate limiting (wait `Retry-After` seconds); `too_many_running_tasks`: the member has `maxRunning` tasks not yet ended.',
      502: '`internal_error`, `upstream_unauthorized`: the service could not be reached, answered unreadably, or refused the proxy\'s key.',
      503: '`model_unavailable`: the service (or the model) is unavailable now.',
      504: '`upstream_timeout`: no answer within `UPSTREAM_TIMEOUT_MS`.',
    }),
  },
}), tooLargeVideo, async (c) => {
  c.set('operation', 'CreateVideoTask');
  const { state, tokenHash } = c.get('member');
  const call = { kind: 'create' as const, body: await c.req.arrayBuffer(), idempotencyKey: c.req.header('idempotency-key') ?? null };
  return answer(await state.video(tokenHash, call), unauthorizedVideo);
});
app.get('/v1/video/generations/:id', describeRoute({
  summary: 'One of the member\'s video tasks',
  description: 'From the proxy\'s record when fresher than `TRACK_INTERVAL_SECONDS` or the task ended, else from one query of the service shared by concurrent readers.',
  tags: ['video'],
  security: MEMBER,
  responses: {
    200: json('The service\'s task with the proxy\'s `arkbridge` member: the cost, and for a completed task the kept copy.', videoTaskAnswerSchema),
    ...errors({
      401: UNAUTHORIZED_MEMBER,
      404: '`task_not_found`: no such task of this member.',
      429: '`rate_limited`: the service is rate limiting; wait `Retry-After` seconds.',
      502: '`internal_error`, `upstream_unauthorized`: the service could not be reached, answered unreadably, or refused the proxy\'s key.',
      503: '`model_unavailable`: the service (or the model) is unavailable now.',
      504: '`upstream_timeout`: no answer within `UPSTREAM_TIMEOUT_MS`.',
    }),
  },
}), async (c) => {
  c.set('operation', 'GetVideoTask');
  const { state, tokenHash } = c.get('member');
  return answer(await state.video(tokenHash, { kind: 'get', id: c.req.param('id'), origin: new URL(c.req.url).origin }), unauthorizedVideo);
});

const proxyUnauthorized = () => jsonResponse(401, { error: { code: 'unauthorized', message: 'A valid member token is required: Authorization: Bearer <member token>.' } });
app.use('/proxy/*', memberAuth(proxyUnauthorized));
// Uploads stream into the media store with their own per-kind limits; every other /proxy body is JSON.
app.use('/proxy/*', (c, next) => (c.req.method === 'POST' && c.req.path === '/proxy/uploads' ? next() : tooLargeJson(c, next)));
app.get('/proxy/me', describeRoute({
  summary: 'The calling member',
  tags: ['member'],
  security: MEMBER,
  responses: { 200: json('`{"id","name"}` of the caller.', memberSelfSchema), ...errors({ 401: UNAUTHORIZED_MEMBER }) },
}), async (c) => {
  const { state, tokenHash } = c.get('member');
  const me = await state.me(tokenHash);
  return me ? c.json(me) : toResponse(proxyUnauthorized());
});

app.post('/proxy/consents', describeRoute({
  summary: 'Record a consent (to the real-person rules, before `CreatePortraitSession`)',
  tags: ['member'],
  security: MEMBER,
  requestBody: jsonBody(consentSchema),
  responses: { 201: json('The consent on record.', consentRecordSchema), ...errors({ 400: INVALID_JSON, 401: UNAUTHORIZED_MEMBER, 413: TOO_LARGE_JSON }) },
}), async (c) => {
  const parsed = parseJsonBytes(await c.req.arrayBuffer());
  if (!parsed.ok) return toResponse(jsonError(400, 'invalid_parameter', parsed.message, 'body'));
  const checked = check(consentSchema, parsed.value);
  if (!checked.ok) return toResponse(jsonError(400, 'invalid_parameter', checked.problem.message, checked.problem.field));
  const { state, tokenHash } = c.get('member');
  const consent = await state.addConsent(tokenHash, checked.value.scope, checked.value.rulesVersion);
  return consent ? c.json(consent, 201) : toResponse(proxyUnauthorized());
});
app.get('/proxy/consents', describeRoute({
  summary: 'The member\'s consents, oldest first',
  tags: ['member'],
  security: MEMBER,
  responses: { 200: json('The consents on record.', consentListSchema), ...errors({ 401: UNAUTHORIZED_MEMBER }) },
}), async (c) => {
  const { state, tokenHash } = c.get('member');
  const consents = await state.consents(tokenHash);
  return consents ? c.json({ consents }) : toResponse(proxyUnauthorized());
});
app.get('/proxy/usage', describeRoute({
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
app.get('/proxy/capabilities', describeRoute({
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

// --- the media store (docs/media-store.md) ---

app.post('/proxy/uploads', describeRoute({
  summary: 'Upload a file into the media store',
  description:
    'The body is the file\'s bytes, streamed: its type is checked from `Content-Type` and from its first bytes, ' +
    'its size from `Content-Length` (image 30 MB, video 50 MB, audio 15 MB).',
  tags: ['media'],
  security: MEMBER,
  parameters: [
    { in: 'query', name: 'name', required: false, description: 'A display name, at most 200 characters.', schema: { type: 'string', maxLength: 200 } },
    { in: 'header', name: 'Content-Length', required: true, schema: { type: 'integer', minimum: 1 } },
  ],
  requestBody: { required: true, content: Object.fromEntries(Object.keys(UPLOAD_TYPES).map((type) => [type, {}])) },
  responses: {
    201: json('The upload; `url` is a signed `/media` address.', uploadAnswerSchema),
    ...errors({
      400: '`invalid_parameter`: an empty body, a bad `Content-Length` or `name`, or fewer or more bytes than announced.',
      401: UNAUTHORIZED_MEMBER,
      411: '`length_required`: no `Content-Length`.',
      413: '`request_too_large`: over the limit of the file\'s kind.',
      415: '`unsupported_media_type`: another type, or bytes that are not the declared type.',
      503: '`media_store_not_configured`: the operator has not set `MEDIA_URL_SECRET`.',
    }),
  },
}), async (c) => {
  const { id, state, tokenHash } = c.get('member');
  // The token is checked before a byte of the body is read.
  if (!(await state.me(tokenHash))) return toResponse(proxyUnauthorized());
  const result = await handleUpload(c.env, id, { headers: c.req.raw.headers, body: c.req.raw.body }, new URL(c.req.url).origin, c.req.query('name'));
  if (!result.ok) {
    const { status, code, message, param } = result.refusal;
    return toResponse(jsonError(status, code, message, param));
  }
  return c.json(result.answer, 201);
});
app.get('/proxy/uploads', describeRoute({
  summary: 'The member\'s uploads, 1,000 a page',
  tags: ['media'],
  security: MEMBER,
  parameters: [{ in: 'query', name: 'cursor', required: false, description: 'The `cursor` of the previous page.', schema: { type: 'string', maxLength: 1024 } }],
  responses: {
    200: json('A page of uploads; `cursor` is null on the last.', uploadListSchema),
    ...errors({ 400: '`invalid_parameter`: a cursor over 1024 characters.', 401: UNAUTHORIZED_MEMBER }),
  },
}), async (c) => {
  const { id, state, tokenHash } = c.get('member');
  if (!(await state.me(tokenHash))) return toResponse(proxyUnauthorized());
  const cursor = c.req.query('cursor');
  if (cursor !== undefined && cursor.length > 1024) return toResponse(jsonError(400, 'invalid_parameter', 'cursor: must be at most 1024 characters', 'cursor'));
  return c.json(await listUploads(c.env, id, cursor));
});
app.delete('/proxy/uploads/:id', describeRoute({
  summary: 'Delete one of the member\'s uploads',
  tags: ['media'],
  security: MEMBER,
  responses: { 204: empty('Deleted.'), ...errors({ 401: UNAUTHORIZED_MEMBER, 404: '`upload_not_found`: another member\'s or a missing id.' }) },
}), async (c) => {
  const { id, state, tokenHash } = c.get('member');
  if (!(await state.me(tokenHash))) return toResponse(proxyUnauthorized());
  return (await deleteUpload(c.env, id, c.req.param('id')))
    ? c.body(null, 204)
    : toResponse(jsonError(404, 'upload_not_found', `No upload ${clip(c.req.param('id'))} exists for you.`, 'id'));
});
app.delete('/proxy/outputs/:taskId', describeRoute({
  summary: 'Delete the kept copy of one of the member\'s tasks',
  tags: ['media'],
  security: MEMBER,
  responses: { 204: empty('Deleted.'), ...errors({ 401: UNAUTHORIZED_MEMBER, 404: '`output_not_found`: no kept copy of this task for the member.' }) },
}), async (c) => {
  const { state, tokenHash } = c.get('member');
  const deleted = await state.deleteOutput(tokenHash, c.req.param('taskId'));
  if (deleted === null) return toResponse(proxyUnauthorized());
  return deleted ? c.body(null, 204) : toResponse(jsonError(404, 'output_not_found', `No kept copy of task ${clip(c.req.param('taskId'))} exists for you.`, 'taskId'));
});
app.on(['GET', 'HEAD'], '/media/:id', describeRoute({
  summary: 'The bytes behind a signed media address (no token)',
  description: 'With `Content-Type`, `Content-Length`, `ETag`, `Accept-Ranges`; cacheable until it expires.',
  tags: ['media'],
  security: SIGNED_MEDIA,
  parameters: [
    { in: 'query', name: 'expires', required: true, description: 'Unix seconds, as in the address handed out.', schema: { type: 'string', pattern: '^\\d+$' } },
    { in: 'header', name: 'Range', required: false, schema: { type: 'string' } },
  ],
  responses: {
    200: { description: 'The bytes (none for HEAD).', content: { '*/*': {} } },
    206: { description: 'The `Range` asked for.', content: { '*/*': {} } },
    304: empty('`If-None-Match` matched the `ETag`.'),
    416: empty('The `Range` cannot be satisfied.'),
    ...errors({ 403: '`forbidden`: the signature does not match.', 404: '`not_found`: no such media.', 410: '`expired`: past its expiry; ask for a fresh address.' }),
  },
}), (c) => serveMedia(c.env, c.req.raw, c.req.param('id')));

app.notFound((c) => c.json({ error: { code: 'not_found', message: `${clip(c.req.method)} ${clip(new URL(c.req.url).pathname)} is not a route of the proxy.` } }, 404));
app.onError((error, c) => {
  console.error(JSON.stringify({ level: 'error', route: c.req.path, message: error instanceof Error ? error.name : 'error' }));
  return c.json({ error: { code: 'internal_error', message: 'The proxy failed to handle this request.' } }, 500);
});

/** The Worker: HTTP by the Hono app, and the hourly cleanup of the media store (Cron Trigger). */
export default {
  fetch: app.fetch,
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(
      cleanMediaStore(env).then((report) => console.log(JSON.stringify({ event: 'media_cleanup', ...report }))),
    );
  },
} satisfies ExportedHandler<ProxyEnv>;
