import { createMiddleware } from 'hono/factory';
import { createLogger } from '../../infra/log/logger';
import type { ProxyEnv } from '../../infra/settings/proxy-env';
import { secretValues } from '../../infra/settings/proxy-settings';
import type { MemberVars } from './member-auth';

/**
 * One JSON line per request (docs/operating.md, "Logs"); the logger redacts secrets itself. One
 * logger per configuration (the env object is the same for every request of an isolate), not one
 * per request.
 */
let logger: { env: ProxyEnv; log: ReturnType<typeof createLogger> } | undefined;

export const requestLog = createMiddleware<{ Bindings: ProxyEnv; Variables: Partial<MemberVars> }>(async (c, next) => {
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
