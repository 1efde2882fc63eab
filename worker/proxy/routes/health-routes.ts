import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { healthSchema } from '../../../shared';
import type { ProxyEnv } from '../infra/settings/proxy-env';
import { alertWebhookProblem, missingConfig } from '../infra/settings/proxy-settings';
import { json, OPEN } from './openapi/route-docs';

/** `GET /healthz`: no token, no upstream call; names the settings a deployment still lacks, never a value. */
export const healthRoutes = new Hono<{ Bindings: ProxyEnv }>();

healthRoutes.get('/healthz', describeRoute({
  summary: 'Health, and the settings a deployment still lacks',
  tags: ['health'],
  security: OPEN,
  responses: { 200: json('`{"status":"ok"}`, or with `config: "incomplete"` and the `missing` settings; `refused`: settings set to what the proxy will not use (ALERT_WEBHOOK_URL on a host it does not post to).', healthSchema) },
}), (c) => {
  const missing = missingConfig(c.env);
  const refused = alertWebhookProblem(c.env, new URL(c.req.url).origin) ? ['ALERT_WEBHOOK_URL'] : [];
  return c.json({ status: 'ok', ...(missing.length ? { config: 'incomplete', missing } : {}), ...(refused.length ? { refused } : {}) });
});
