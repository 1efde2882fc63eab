import { Hono } from 'hono';
import type { ProxyEnv } from '../../infra/settings/proxy-env';
import { corsFor } from './cors';
import { requestLog } from './request-log';

/** What every request passes first, mounted before every area: the log line, then CORS. */
export const front = new Hono<{ Bindings: ProxyEnv }>();

front.use('*', requestLog);
front.use('*', (c, next) => corsFor(c.env.ALLOWED_ORIGINS)(c, next));
