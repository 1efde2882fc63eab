import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import * as v from 'valibot';
import { BODY_LIMITS, check, clip, MODELS, parseJsonBytes, sentence, strictObjectMessage, tooLargeMessage, videoError } from '../../shared';
import { admin } from './admin/routes';
import { consoleApp } from './console/console-app';
import { connectPage } from './console/connect-page';
import type { ProxyEnv } from './env';
import { allowHttpMedia, missingConfig, secretValues } from './proxy-settings';
import { corsFor } from './http/cors';
import { memberAuth, type MemberVars } from './http/member';
import { jsonResponse, libraryFailure, toResponse, unauthorizedLibrary, unauthorizedVideo, videoFailure, type ProxyResponse } from './http/responses';
import { createLogger } from './log/logger';
import { cleanMediaStore } from './media/media-cleanup';
import { serveMedia } from './media/media-route';
import { deleteUpload, handleUpload, listUploads } from './media/upload-handler';

export { MemberState } from './members/member-state';
export { MemberDirectory } from './members/directory';
export { TeamLedger } from './ledger/team-ledger';

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

app.get('/healthz', (c) => {
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

app.post('/api/v3', memberAuth((c) => unauthorizedLibrary(c.req.query('Action') ?? '')), tooLargeLibrary, async (c) => {
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
app.get('/v1/models', async (c) => {
  c.set('operation', 'ListModels');
  const { state, tokenHash } = c.get('member');
  return answer(await state.video(tokenHash, { kind: 'models' }), unauthorizedVideo);
});
app.post('/v1/video/generations', tooLargeVideo, async (c) => {
  c.set('operation', 'CreateVideoTask');
  const { state, tokenHash } = c.get('member');
  const call = { kind: 'create' as const, body: await c.req.arrayBuffer(), idempotencyKey: c.req.header('idempotency-key') ?? null };
  return answer(await state.video(tokenHash, call), unauthorizedVideo);
});
app.get('/v1/video/generations/:id', async (c) => {
  c.set('operation', 'GetVideoTask');
  const { state, tokenHash } = c.get('member');
  return answer(await state.video(tokenHash, { kind: 'get', id: c.req.param('id'), origin: new URL(c.req.url).origin }), unauthorizedVideo);
});

const proxyUnauthorized = () => jsonResponse(401, { error: { code: 'unauthorized', message: 'A valid member token is required: Authorization: Bearer <member token>.' } });
app.use('/proxy/*', memberAuth(proxyUnauthorized));
// Uploads stream into the media store with their own per-kind limits; every other /proxy body is JSON.
app.use('/proxy/*', (c, next) => (c.req.method === 'POST' && c.req.path === '/proxy/uploads' ? next() : tooLargeJson(c, next)));
app.get('/proxy/me', async (c) => {
  const { state, tokenHash } = c.get('member');
  const me = await state.me(tokenHash);
  return me ? c.json(me) : toResponse(proxyUnauthorized());
});

const consentSchema = v.strictObject(
  {
    scope: v.picklist(['portrait'], 'must be portrait'),
    rulesVersion: v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty'), v.maxLength(64, 'must be at most 64 characters')),
  },
  strictObjectMessage('is not a field of this call'),
);
app.post('/proxy/consents', async (c) => {
  const parsed = parseJsonBytes(await c.req.arrayBuffer());
  if (!parsed.ok) return toResponse(jsonError(400, 'invalid_parameter', parsed.message, 'body'));
  const checked = check(consentSchema, parsed.value);
  if (!checked.ok) return toResponse(jsonError(400, 'invalid_parameter', checked.problem.message, checked.problem.field));
  const { state, tokenHash } = c.get('member');
  const consent = await state.addConsent(tokenHash, checked.value.scope, checked.value.rulesVersion);
  return consent ? c.json(consent, 201) : toResponse(proxyUnauthorized());
});
app.get('/proxy/consents', async (c) => {
  const { state, tokenHash } = c.get('member');
  const consents = await state.consents(tokenHash);
  return consents ? c.json({ consents }) : toResponse(proxyUnauthorized());
});
app.get('/proxy/usage', async (c) => {
  const { state, tokenHash } = c.get('member');
  const usage = await state.usage(tokenHash);
  return usage ? c.json(usage) : toResponse(proxyUnauthorized());
});
app.get('/proxy/capabilities', async (c) => {
  const { state, tokenHash } = c.get('member');
  // `media.allowHttp` tells clients whether plain http:// media is accepted (ALLOW_HTTP_MEDIA).
  return (await state.me(tokenHash)) ? c.json({ models: MODELS, media: { allowHttp: allowHttpMedia(c.env) } }) : toResponse(proxyUnauthorized());
});

// --- the media store (docs/media-store.md) ---

app.post('/proxy/uploads', async (c) => {
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
app.get('/proxy/uploads', async (c) => {
  const { id, state, tokenHash } = c.get('member');
  if (!(await state.me(tokenHash))) return toResponse(proxyUnauthorized());
  const cursor = c.req.query('cursor');
  if (cursor !== undefined && cursor.length > 1024) return toResponse(jsonError(400, 'invalid_parameter', 'cursor: must be at most 1024 characters', 'cursor'));
  return c.json(await listUploads(c.env, id, cursor));
});
app.delete('/proxy/uploads/:id', async (c) => {
  const { id, state, tokenHash } = c.get('member');
  if (!(await state.me(tokenHash))) return toResponse(proxyUnauthorized());
  return (await deleteUpload(c.env, id, c.req.param('id')))
    ? c.body(null, 204)
    : toResponse(jsonError(404, 'upload_not_found', `No upload ${clip(c.req.param('id'))} exists for you.`, 'id'));
});
app.delete('/proxy/outputs/:taskId', async (c) => {
  const { state, tokenHash } = c.get('member');
  const deleted = await state.deleteOutput(tokenHash, c.req.param('taskId'));
  if (deleted === null) return toResponse(proxyUnauthorized());
  return deleted ? c.body(null, 204) : toResponse(jsonError(404, 'output_not_found', `No kept copy of task ${clip(c.req.param('taskId'))} exists for you.`, 'taskId'));
});
app.on(['GET', 'HEAD'], '/media/:id', (c) => serveMedia(c.env, c.req.raw, c.req.param('id')));

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
