import { WEBHOOK_SECRET_PREFIX } from '../../../../shared';

/**
 * The wire side of a webhook delivery (Standard Webhooks, https://www.standardwebhooks.com): a
 * secret's making, the signature, and one POST with a bounded wait. What is sent when, and again,
 * is decided in domain/webhooks/webhook-outbox.ts.
 */

/** Random bytes of a new secret (24 to 32 in the scheme). */
const SECRET_BYTES = 24;
/** A receiver that has not answered by then counts as a failure, retried later. */
export const DELIVERY_TIMEOUT_MS = 10_000;

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** A new secret: `whsec_` + the base64 of 24 random bytes. */
export function newWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + toBase64(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)));
}

/** A message id (`webhook-id`): unique per event, the same on every retry. */
export const newMessageId = (): string => `msg_${crypto.randomUUID().replaceAll('-', '')}`;

/** `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, keyed by the secret's decoded bytes. */
export async function signature(secret: string, id: string, timestamp: number, body: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', fromBase64(secret.slice(WEBHOOK_SECRET_PREFIX.length)), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${id}.${timestamp}.${body}`));
  return `v1,${toBase64(new Uint8Array(mac))}`;
}

/** What one attempt came to: the receiver's HTTP status, or none (with why). */
export interface AttemptResult {
  code: number | null;
  error: string | null;
}

/**
 * One signed POST of `body` to `url`, with the three headers of the scheme; never throws. The
 * receiver's answer is not read (only its status), and no redirect is followed.
 */
export async function postSigned(url: string, secret: string, id: string, body: string, now = Date.now()): Promise<AttemptResult> {
  const timestamp = Math.floor(now / 1000);
  const headers = {
    'Content-Type': 'application/json',
    'User-Agent': 'Arkbridge-Webhooks/1',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': await signature(secret, id, timestamp, body),
  };
  try {
    const response = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS) });
    await response.body?.cancel().catch(() => undefined);
    return { code: response.status, error: response.status >= 200 && response.status < 300 ? null : `The receiver answered HTTP ${response.status}.` };
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    return { code: null, error: timedOut ? `The receiver did not answer within ${DELIVERY_TIMEOUT_MS / 1000} s.` : 'The receiver could not be reached.' };
  }
}
