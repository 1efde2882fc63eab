import type { WebhookSet } from '../../../../shared';
import { jsonResponse, proxyError, type ProxyResponse } from '../../infra/http/responses';
import type { HandedEvent, WebhookOutbox } from './webhook-outbox';

/**
 * The webhook routes' calls, answered by the object that owns the webhook (a member's object for
 * `/proxy/webhook`, the team ledger for `/admin/webhook`), the same way for both.
 */

export type WebhookCall = { kind: 'get' } | { kind: 'set'; input: WebhookSet } | { kind: 'rotate' } | { kind: 'delete' } | { kind: 'deliveries' };

const notFound = () => proxyError(404, 'webhook_not_found', 'No webhook is set: PUT one with {"url","events"}.');

export function answerWebhookCall(outbox: WebhookOutbox, call: WebhookCall): ProxyResponse {
  switch (call.kind) {
    case 'get': {
      const webhook = outbox.get();
      return webhook ? jsonResponse(200, webhook) : notFound();
    }
    case 'set':
      return jsonResponse(200, outbox.set(call.input));
    case 'rotate': {
      const webhook = outbox.rotate();
      return webhook ? jsonResponse(200, webhook) : notFound();
    }
    case 'delete':
      return outbox.remove() ? { status: 204, body: '', headers: {} } : notFound();
    case 'deliveries':
      return jsonResponse(200, { deliveries: outbox.deliveries() });
  }
}

/** What the objects ask of one another's webhooks (objects/handles.ts checks that the classes answer these calls). */
export interface WebhookPort {
  /** An event for this object's webhook, handed over from another object's outbox. */
  acceptEvent(event: HandedEvent): Promise<unknown>;
}

/** The team's webhook, as members' objects reach it. */
export interface TeamWebhookPort extends WebhookPort {
  /** Whether the team's webhook takes any of these events. */
  webhookWants(types: string[]): Promise<boolean>;
}

