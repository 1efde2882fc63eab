import { Hono, type Context } from 'hono';
import { describeRoute, type DescribeRouteOptions } from 'hono-openapi';
import { outboundUrlProblem, webhookAnswerSchema, webhookDeliveryListSchema, webhookSetSchema, WEBHOOK_EVENTS, WEBHOOK_URL_MAX } from '../../../../shared';
import type { WebhookCall } from '../../domain/webhooks/webhook-calls';
import { allowHttpMedia, type ProxySettings } from '../../infra/settings/proxy-settings';
import type { ErrorAnswer } from '../answers';
import { readJsonBody } from '../json-body';
import { empty, errors, json, jsonBody, TOO_LARGE_JSON } from '../openapi/route-docs';

/**
 * The webhook routes (docs/webhooks.md), the same five for a member (`/proxy/webhook`, the
 * member's own) and for the admin (`/admin/webhook`, the team's): only who answers them differs.
 */

export interface WebhookRouteOptions {
  /** Whose webhook, for the summaries: "the caller's" or "the team's". */
  whose: string;
  tag: 'member' | 'admin';
  security: NonNullable<DescribeRouteOptions['security']>;
  /** The route's refusals of a credential, by status. */
  refusals: Record<number, string>;
  /** The proxy's error answer in this area. */
  error: (c: Context<any>) => ErrorAnswer;
  /** Has the webhook's owner answer the call. */
  answer: (c: Context<any>, call: WebhookCall) => Promise<Response>;
}

const NOT_FOUND = '`webhook_not_found`: no webhook is set.';

export function webhookRoutes(o: WebhookRouteOptions): Hono<any> {
  const app = new Hono<any>();
  const describe = (summary: string, responses: DescribeRouteOptions['responses'], extra: Partial<DescribeRouteOptions> = {}) =>
    describeRoute({ summary, tags: [o.tag], security: o.security, responses: { ...responses, ...errors(o.refusals) }, ...extra });

  app.get('/webhook', describe(`${o.whose} webhook: its url, events and format (never the secret)`, {
    200: json('The webhook.', webhookAnswerSchema),
    ...errors({ 404: NOT_FOUND }),
  }), (c) => o.answer(c, { kind: 'get' }));

  app.put('/webhook', describe(`Set ${o.whose} webhook: the secret is shown the first time only`, {
    200: json('The webhook; `secret` only when this call made it (the first set). A later set keeps the secret and does not show it: rotate to see a new one.', webhookAnswerSchema),
    ...errors({
      400: `\`invalid_parameter\`: \`param\` names the field: \`url\` (https://, or http:// with ALLOW_HTTP_MEDIA=on; at most ${WEBHOOK_URL_MAX} characters; never the proxy's own origin: \`webhook_url_not_allowed\`), \`events[i]\` (one of ${WEBHOOK_EVENTS.join(', ')}), \`format\`. \`webhook_url_not_allowed\` (\`param\`: \`url\`): a host the proxy does not post to: localhost, a loopback (allowed with ALLOW_HTTP_MEDIA=on), private, link-local, unique-local, unspecified or other special-use address, a name under .internal, .local, .localhost or .home.arpa, or a single-label name.`,
      413: TOO_LARGE_JSON,
    }),
  }, { requestBody: jsonBody(webhookSetSchema(), '`url`, `events` and an optional `format` (`standard`, or a chat\'s: `slack`, `discord`, `feishu`).') }), async (c) => {
    const body = await readJsonBody(c, webhookSetSchema({ allowHttp: allowHttpMedia(c.env as ProxySettings) }), o.error(c));
    if ('refused' in body) return body.refused;
    const problem = outboundUrlProblem(body.value.url, { allowLoopback: allowHttpMedia(c.env as ProxySettings), selfOrigin: new URL(c.req.url).origin });
    if (problem) return o.error(c)(400, 'webhook_url_not_allowed', `url: ${problem}`, 'url');
    return o.answer(c, { kind: 'set', input: body.value });
  });

  app.delete('/webhook', describe(`Remove ${o.whose} webhook; what it still had to receive is dropped`, {
    204: empty('Removed.'),
    ...errors({ 404: NOT_FOUND }),
  }), (c) => o.answer(c, { kind: 'delete' }));

  app.post('/webhook/secret', describe(`A new secret for ${o.whose} webhook, shown once; the old one signs nothing from now on`, {
    200: json('The webhook with its new `secret`.', webhookAnswerSchema),
    ...errors({ 404: NOT_FOUND }),
  }), (c) => o.answer(c, { kind: 'rotate' }));

  app.get('/webhook/deliveries', describe(`The last 100 delivery attempts to ${o.whose} webhook, newest first`, {
    200: json('Each attempt: the event type, `webhook-id`, status, HTTP code, time and the next retry.', webhookDeliveryListSchema),
  }), (c) => o.answer(c, { kind: 'deliveries' }));

  return app;
}
