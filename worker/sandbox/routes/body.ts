import type { Context, MiddlewareHandler } from 'hono';
import type * as v from 'valibot';
import { bodyLimit } from 'hono/body-limit';
import {
  BODY_LIMITS,
  bytesUpTo,
  check,
  clip,
  ECHO_MAX,
  failureEnvelope,
  parseJsonBytes,
  sentence,
  tooLargeMessage,
  videoError,
  type FieldProblem,
} from '../../../shared';
import type { SandboxEnv } from '../env';

/**
 * How every sandbox route reads a request: a size limit answered before the body is read (413 in
 * the error shape of the route's interface), then the shared reading of JSON (strict UTF-8, the
 * nesting limit, strings that survive storage unchanged), and echoes of caller input clipped.
 */

type C = Context<{ Bindings: SandboxEnv }>;

/** The interfaces of the sandbox, each with its own error shape. */
export type Interface = 'library' | 'video' | 'helper';

export const interfaceOf = (path: string): Interface =>
  path === '/api/v3' || path.startsWith('/api/v3/') ? 'library' : path.startsWith('/v1/') ? 'video' : 'helper';

/** Largest body of a route: `POST /v1/video/generations` takes inline images, the rest JSON. */
export const limitOf = (method: string, path: string): number =>
  method === 'POST' && path === '/v1/video/generations' ? BODY_LIMITS.videoCreate : BODY_LIMITS.json;

/** The `Action` of an `/api/v3` request, clipped for an envelope or a statistics key. */
export const actionOf = (c: C): string => clip(new URL(c.req.url).searchParams.get('Action') ?? '');

/** An error in the shape of the route's interface; `message` becomes one sentence. */
export function errorResponse(c: C, status: number, codes: { library: string; video: string; type?: string; helper?: string }, message: string, param?: string): Response {
  const text = sentence(message);
  switch (interfaceOf(new URL(c.req.url).pathname)) {
    case 'library':
      return c.json(failureEnvelope(crypto.randomUUID(), actionOf(c), codes.library, text), status as 400);
    case 'video':
      return c.json(videoError(codes.video, text, codes.type ?? 'invalid_request_error', param), status as 400);
    default:
      return c.json({ error: codes.helper ?? codes.library, message: text }, status as 400);
  }
}

const TOO_LARGE = { library: 'RequestTooLarge', video: 'request_too_large', helper: 'RequestTooLarge' };

export const tooLarge = (c: C, limit: number): Response => errorResponse(c, 413, TOO_LARGE, tooLargeMessage(limit), 'body');

/**
 * hono's body limit for every route, answering 413 in the route's own shape: a declared
 * Content-Length over the limit is refused before a byte is read; a body without one is counted
 * as it streams in and refused as soon as it passes the limit.
 */
export const limitBodies: MiddlewareHandler<{ Bindings: SandboxEnv }> = (c, next) => {
  const limit = limitOf(c.req.method, new URL(c.req.url).pathname);
  return bodyLimit({ maxSize: limit, onError: (ctx) => tooLarge(ctx as C, limit) })(c, next);
};

/**
 * The body's bytes, or null when it is longer than `limit`. Counted again here, whatever
 * Content-Length claimed (a caller inside the runtime can send a header that understates the body).
 */
export const readBytes = (request: Request, limit: number): Promise<Uint8Array | null> => bytesUpTo(request.body, limit);

/** The bytes as an ArrayBuffer of exactly their length (no copy when they already are one). */
export const exactBuffer = (bytes: Uint8Array): ArrayBuffer =>
  bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? (bytes.buffer as ArrayBuffer)
    : (bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);

export type JsonRead = { ok: true; value: unknown } | { ok: false; status: 400 | 413; message: string };

/** Reads a JSON body within `limit` (413 beyond it), then as `jsonOf`. */
export async function readJson(request: Request, limit: number): Promise<JsonRead> {
  const bytes = await readBytes(request, limit);
  if (!bytes) return { ok: false, status: 413, message: tooLargeMessage(limit) };
  return jsonOf(bytes);
}

/**
 * A JSON value from bytes already read (e.g. the exact bytes a signature covers): the shared
 * reading (strict UTF-8, the nesting limit, no unpaired surrogates), with the problem's status.
 */
export function jsonOf(bytes: Uint8Array | ArrayBuffer): JsonRead {
  const parsed = parseJsonBytes(bytes);
  return parsed.ok ? parsed : { ok: false, status: 400, message: parsed.message };
}

/** Whether `value` is already the output of `clip` (the shared `check` may clip the field itself). */
const isClipped = (value: string): boolean => new RegExp(`^[\\s\\S]{${ECHO_MAX}}… \\(\\d+ characters\\)$`).test(value);

/**
 * A schema problem ready to answer: the field path clipped (an unknown key may be megabytes long),
 * each long caller value in `echoes` (e.g. an unknown model id) clipped wherever the message repeats
 * it, and the message one sentence.
 */
export function answerable(problem: FieldProblem, echoes: readonly unknown[] = []): FieldProblem {
  const field = isClipped(problem.field) ? problem.field : clip(problem.field);
  const prefixed = problem.message.startsWith(`${problem.field}: `);
  let rest = prefixed ? problem.message.slice(problem.field.length + 2) : problem.message;
  for (const echo of echoes) {
    if (typeof echo === 'string' && echo.length > ECHO_MAX && rest.includes(echo)) rest = rest.split(echo).join(clip(echo));
  }
  return { field, message: sentence(prefixed ? `${field}: ${rest}` : rest) };
}

/** A helper route's 400 (`/sandbox/*`): `{"error":"ValidationError","message":"<field>: ..."}`. */
export const helperInvalid = (c: C, message: string): Response => c.json({ error: 'ValidationError', message: sentence(message) }, 400);

/** A helper route's JSON body checked against `schema`: the value, or the 400/413 answer. */
export async function readChecked<S extends v.GenericSchema>(
  c: C,
  schema: S,
): Promise<{ ok: true; value: v.InferOutput<S> } | { ok: false; response: Response }> {
  const json = await readJson(c.req.raw, BODY_LIMITS.json);
  if (!json.ok) return { ok: false, response: json.status === 413 ? tooLarge(c, BODY_LIMITS.json) : helperInvalid(c, json.message) };
  const checked = check(schema, json.value);
  return checked.ok ? checked : { ok: false, response: helperInvalid(c, answerable(checked.problem).message) };
}
