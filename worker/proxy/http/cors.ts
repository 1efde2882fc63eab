import { cors } from 'hono/cors';

/**
 * CORS per ALLOWED_ORIGINS (comma-separated); by default any extension origin. Origins not
 * allowed get no CORS headers, so browsers refuse to hand them the response.
 */
export function corsFor(allowed: string | undefined) {
  const list = (allowed ?? '').split(',').map((o) => o.trim()).filter(Boolean);
  const isAllowed = (origin: string) =>
    list.length ? list.includes(origin) : origin.startsWith('chrome-extension://') || origin.startsWith('moz-extension://');
  return cors({
    origin: (origin) => (origin && isAllowed(origin) ? origin : null),
    allowHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key'],
    allowMethods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
    exposeHeaders: ['Retry-After'],
    maxAge: 600,
  });
}
