import { createMiddleware } from 'hono/factory';
import { sameSecret } from '../../../shared';
import type { ProxyEnv } from '../env';
import { bearerToken } from '../members/token';

export interface AdminVars {
  /** Who is making the change, for the audit log: `admin` for the admin token. */
  actor: string;
}

/** The admin API's gate: `Authorization: Bearer ${ADMIN_TOKEN}`, compared in constant time. */
export const adminAuth = createMiddleware<{ Bindings: ProxyEnv; Variables: AdminVars }>(async (c, next) => {
  const token = bearerToken(c.req.header('authorization'));
  if (!c.env.ADMIN_TOKEN || !token || !sameSecret(token, c.env.ADMIN_TOKEN)) {
    return c.json({ error: { code: 'unauthorized', message: 'The admin API needs Authorization: Bearer <ADMIN_TOKEN>.' } }, 401);
  }
  c.set('actor', 'admin');
  await next();
});
