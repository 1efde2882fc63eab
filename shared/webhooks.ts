import * as v from 'valibot';
import { mediaUrlProblem } from './media-url';
import { recordOf, strictObjectMessage } from './validation';

/**
 * Webhooks of the proxy (docs/webhooks.md): a member's (`/proxy/webhook`) and the team's
 * (`/admin/webhook`), delivered by the Standard Webhooks scheme. The request and answer shapes,
 * one schema each; the proxy's OpenAPI document is generated from them.
 */

/** The events a webhook can subscribe to. */
export const WEBHOOK_EVENTS = ['task.completed', 'task.failed', 'asset.active', 'asset.failed', 'budget.alert'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/**
 * How a delivery's body is written: `standard` is the Standard Webhooks body `{"type","timestamp","data"}`;
 * the others are the JSON a chat's incoming webhook takes (a line of text), signed all the same.
 */
export const WEBHOOK_FORMATS = ['standard', 'slack', 'discord', 'feishu'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

/** Longest webhook URL accepted. */
export const WEBHOOK_URL_MAX = 2048;

/** The prefix of a webhook secret; the rest is the base64 of its random bytes. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** How many delivery attempts `GET .../webhook/deliveries` lists, newest first. */
export const WEBHOOK_DELIVERIES_MAX = 100;

const urlSchema = (allowHttp: boolean) =>
  v.pipe(
    v.string('must be a string'),
    v.maxLength(WEBHOOK_URL_MAX, `must be at most ${WEBHOOK_URL_MAX} characters`),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const problem = mediaUrlProblem(dataset.value, { allowHttp });
      if (problem) addIssue({ message: problem });
    }),
  );

const eventList = v.pipe(
  v.array(v.picklist(WEBHOOK_EVENTS, `must be one of ${WEBHOOK_EVENTS.join(', ')}`), 'must be a list of events'),
  v.minLength(1, 'must name at least one event'),
  v.maxLength(WEBHOOK_EVENTS.length, `must name each event at most once (${WEBHOOK_EVENTS.length} events exist)`),
  v.check((list) => new Set(list).size === list.length, 'must name each event at most once'),
);

const setSchemas = new Map<boolean, ReturnType<typeof makeSetSchema>>();
const makeSetSchema = (allowHttp: boolean) =>
  v.strictObject(
    {
      url: v.pipe(urlSchema(allowHttp), v.description(allowHttp ? 'An https:// or http:// URL.' : 'An https:// URL, never the proxy itself.')),
      events: v.pipe(eventList, v.description(`Some of ${WEBHOOK_EVENTS.join(', ')}.`)),
      format: v.optional(v.picklist(WEBHOOK_FORMATS, `must be one of ${WEBHOOK_FORMATS.join(', ')}`), 'standard'),
    },
    strictObjectMessage('is not a field of a webhook'),
  );

/** `PUT /proxy/webhook`, `PUT /admin/webhook`: `http://` is accepted only with ALLOW_HTTP_MEDIA=on. */
export function webhookSetSchema(options: { allowHttp?: boolean } = {}) {
  const allowHttp = options.allowHttp === true;
  let schema = setSchemas.get(allowHttp);
  if (!schema) setSchemas.set(allowHttp, (schema = makeSetSchema(allowHttp)));
  return schema;
}
export type WebhookSet = v.InferOutput<ReturnType<typeof webhookSetSchema>>;

/** A webhook as `GET` answers it; `PUT` the same, with `secret` when it was made (first set) and `POST .../secret`. */
export const webhookAnswerSchema = v.pipe(
  v.object({
    url: v.string(),
    events: v.array(v.picklist(WEBHOOK_EVENTS)),
    format: v.picklist(WEBHOOK_FORMATS),
    secret: v.optional(v.pipe(v.string(), v.description('`whsec_` + base64: shown only when made (the first PUT) and on rotation.'))),
    createdAt: v.pipe(v.string(), v.description('ISO 8601 UTC.')),
    updatedAt: v.pipe(v.string(), v.description('ISO 8601 UTC.')),
  }),
  v.metadata({ ref: 'Webhook' }),
);
export type WebhookAnswer = v.InferOutput<typeof webhookAnswerSchema>;

/** What an attempt came to: delivered (2xx), retrying (a retry is due at `nextRetryAt`), failed (given up after 24 h). */
export const WEBHOOK_ATTEMPT_STATUSES = ['delivered', 'retrying', 'failed'] as const;

/** One delivery attempt. */
export const webhookAttemptSchema = v.pipe(
  v.object({
    id: v.pipe(v.string(), v.description('The `webhook-id` of the message: the same on every retry.')),
    type: v.picklist(WEBHOOK_EVENTS),
    attempt: v.pipe(v.number(), v.integer(), v.minValue(1)),
    status: v.picklist(WEBHOOK_ATTEMPT_STATUSES),
    code: v.pipe(v.nullable(v.number()), v.description('The HTTP status the receiver answered; null: no answer (timeout, unreachable).')),
    error: v.nullable(v.string()),
    at: v.pipe(v.string(), v.description('ISO 8601 UTC.')),
    nextRetryAt: v.pipe(v.nullable(v.string()), v.description('ISO 8601 UTC; null once delivered or given up.')),
  }),
  v.metadata({ ref: 'WebhookAttempt' }),
);
export type WebhookAttempt = v.InferOutput<typeof webhookAttemptSchema>;

/** `GET /proxy/webhook/deliveries`, `GET /admin/webhook/deliveries`: the last 100 attempts, newest first. */
export const webhookDeliveryListSchema = v.object({ deliveries: v.array(webhookAttemptSchema) });

/** The body of a `standard` delivery. */
export const webhookEventSchema = v.pipe(
  v.object({
    type: v.picklist(WEBHOOK_EVENTS),
    timestamp: v.pipe(v.string(), v.description('When the event happened, ISO 8601 UTC.')),
    data: v.pipe(
      recordOf(v.string(), v.unknown()),
      v.description('task.*: the task as `GET /v1/video/generations/{id}` answers it; asset.*: the asset as the service lists it, with `arkbridge.owner`; budget.alert: the alert.'),
    ),
  }),
  v.metadata({ ref: 'WebhookEvent' }),
);
export type WebhookEvent = v.InferOutput<typeof webhookEventSchema>;
