import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { sameSecret } from '../../../../shared';
import { ACCESS_HEADER, verifyAccess } from '../../domain/admin/access-identity';
import { bearerToken } from '../../domain/members/token';
import type { ProxyEnv } from '../../infra/settings/proxy-env';
import { directoryObject } from '../../objects/handles';
import { contextError } from '../answers';

/**
 * Who may use the admin API, and how a change is protected against cross-site requests.
 * Three credentials: `Authorization: Bearer ${ADMIN_TOKEN}` (scripts, `npm run members`); a
 * Cloudflare Access assertion (the identity's email is the actor); a console session cookie. A
 * changing request from a browser must come from the proxy's own origin, and one made with a
 * session must carry that session's CSRF token: a cross-site form or fetch carrying the cookie
 * changes nothing.
 */

export const SESSION_COOKIE = 'arkbridge_console';
export const CSRF_HEADER = 'x-csrf-token';

export interface AdminVars {
  /** Who is making the change, for the audit log: `admin` for the admin token, else the Access email. */
  actor: string;
}

export type AdminIdentity =
  | { ok: true; actor: string; via: 'token' | 'access' | 'session'; csrf?: string; sessionId?: string }
  | { ok: false; status: 401 | 403; message: string };

/** The identity of an admin request (bearer token, Access assertion, or console session), or why there is none. */
export async function adminIdentity(c: Context<{ Bindings: ProxyEnv; Variables: any }>): Promise<AdminIdentity> {
  const token = bearerToken(c.req.header('authorization'));
  if (token) {
    return c.env.ADMIN_TOKEN && sameSecret(token, c.env.ADMIN_TOKEN)
      ? { ok: true, actor: 'admin', via: 'token' }
      : { ok: false, status: 401, message: 'The admin token is not valid.' };
  }
  const assertion = c.req.header(ACCESS_HEADER);
  if (assertion) {
    // Present and wrong is a refusal, never a fall-through to another credential.
    const identity = await verifyAccess(c.env, assertion);
    return identity.ok ? { ok: true, actor: identity.email, via: 'access' } : { ok: false, status: 403, message: `The Cloudflare Access assertion was refused (${identity.reason}).` };
  }
  const sessionId = getCookie(c, SESSION_COOKIE);
  if (sessionId) {
    const session = await directoryObject(c.env).session(sessionId);
    if (session) return { ok: true, actor: session.actor, via: 'session', csrf: session.csrf, sessionId };
  }
  return { ok: false, status: 401, message: 'The admin API needs Authorization: Bearer <ADMIN_TOKEN>, a Cloudflare Access sign-in, or a console session.' };
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Why a changing request may not proceed with this identity (foreign origin, missing CSRF token), or null. */
export function crossSiteProblem(c: Context, identity: Extract<AdminIdentity, { ok: true }>, csrfSent: string | undefined): string | null {
  if (SAFE.has(c.req.method)) return null;
  const origin = c.req.header('origin');
  if (origin !== undefined && origin !== new URL(c.req.url).origin) return 'A change must come from the console itself (the Origin is foreign).';
  if (identity.via === 'session') {
    if (origin === undefined) return 'A change made with a console session must say where it comes from (Origin).';
    if (!csrfSent || !identity.csrf || !sameSecret(csrfSent, identity.csrf)) return 'A change made with a console session needs its CSRF token.';
  }
  return null;
}

/** The admin API's gate. */
export const adminAuth = createMiddleware<{ Bindings: ProxyEnv; Variables: AdminVars }>(async (c, next) => {
  const identity = await adminIdentity(c);
  if (!identity.ok) return contextError(c)(identity.status, identity.status === 401 ? 'unauthorized' : 'forbidden', identity.message);
  const problem = crossSiteProblem(c, identity, c.req.header(CSRF_HEADER));
  if (problem) return contextError(c)(403, 'forbidden', problem);
  c.set('actor', identity.actor);
  await next();
});
