import type { MiddlewareHandler } from 'hono';

/**
 * CORS per ALLOWED_ORIGINS (comma-separated); by default any extension origin. Origins not
 * allowed get no CORS headers, so browsers refuse to hand them the response.
 *
 * The headers are those of Hono's `cors()` with this configuration, but set on the route's own
 * response: Hono's reads `c.res` before the route runs, which makes a placeholder Response whose
 * headers are then merged into a copy of the real one, and copies it once more for `Vary`, three
 * Responses per request where none is needed.
 */
export function corsFor(allowed: string | undefined): MiddlewareHandler {
  // Built once per setting, not per request: the setting only changes with a new deployment.
  if (!cached || cached.allowed !== allowed) cached = { allowed, middleware: buildCors(allowed) };
  return cached.middleware;
}

let cached: { allowed: string | undefined; middleware: MiddlewareHandler } | undefined;

const EXPOSE_HEADERS = 'Retry-After';
// Prefer: a video create asks to be queued when the service is busy (respond-async, docs/queue.md).
const ALLOW_HEADERS = 'Authorization,Content-Type,Idempotency-Key,Prefer';
const ALLOW_METHODS = 'GET,POST,DELETE,OPTIONS';
const MAX_AGE = '600';

function buildCors(allowed: string | undefined): MiddlewareHandler {
  const list = (allowed ?? '').split(',').map((o) => o.trim()).filter(Boolean);
  const isAllowed = (origin: string) =>
    list.length ? list.includes(origin) : origin.startsWith('chrome-extension://') || origin.startsWith('moz-extension://');
  return async (c, next) => {
    const origin = c.req.header('origin');
    const allowOrigin = origin && isAllowed(origin) ? origin : null;
    if (c.req.method === 'OPTIONS') {
      // A preflight, whatever the path: answered here.
      const headers = new Headers();
      if (allowOrigin) headers.set('Access-Control-Allow-Origin', allowOrigin);
      headers.set('Access-Control-Expose-Headers', EXPOSE_HEADERS);
      headers.append('Vary', 'Origin');
      headers.set('Access-Control-Max-Age', MAX_AGE);
      headers.set('Access-Control-Allow-Methods', ALLOW_METHODS);
      headers.set('Access-Control-Allow-Headers', ALLOW_HEADERS);
      headers.append('Vary', 'Access-Control-Request-Headers');
      return new Response(null, { headers, status: 204, statusText: 'No Content' });
    }
    await next();
    let response = c.res;
    try {
      setCorsHeaders(response.headers, allowOrigin);
    } catch {
      // Headers of a response passed through from fetch() are immutable: copy it once.
      response = new Response(response.body, response);
      setCorsHeaders(response.headers, allowOrigin);
      c.res = response;
    }
  };
}

function setCorsHeaders(headers: Headers, allowOrigin: string | null): void {
  if (allowOrigin) headers.set('Access-Control-Allow-Origin', allowOrigin);
  headers.set('Access-Control-Expose-Headers', EXPOSE_HEADERS);
  headers.append('Vary', 'Origin');
}
