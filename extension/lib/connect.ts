import { browser } from 'wxt/browser';
import { ProxyClient } from './api/client';
import { ApiError } from './api/errors';
import { clearConnection, normalizeProxyUrl, originPattern, tokenProblem, type Connection } from './connection';
import { t } from './i18n';

/** What the member typed in the options page, checked: the proxy origin and the trimmed token. */
export type ConnectInput = { proxyUrl: string; token: string };

/** Field-level problems of the connect form (messages name the field). */
export interface ConnectFieldErrors {
  proxyUrl?: string;
  token?: string;
}

/** Checks the two fields; answers the normalized values or the message of each wrong field. */
export function checkConnectInput(proxyUrl: string, token: string): { ok: true; value: ConnectInput } | { ok: false; errors: ConnectFieldErrors } {
  const url = normalizeProxyUrl(proxyUrl);
  const tokenMessage = tokenProblem(token);
  if (url.ok && !tokenMessage) return { ok: true, value: { proxyUrl: url.url, token: token.trim() } };
  const errors: ConnectFieldErrors = {};
  if (!url.ok) errors.proxyUrl = url.message;
  if (tokenMessage) errors.token = tokenMessage;
  return { ok: false, errors };
}

/**
 * Asks for host access to exactly the proxy origin. Must be called synchronously from the click
 * handler (browsers only show the prompt during a user gesture). Declined or unavailable: false.
 */
export function requestHostAccess(proxyUrl: string): Promise<boolean> {
  try {
    return Promise.resolve(browser.permissions.request({ origins: [originPattern(proxyUrl)] })).then(Boolean, () => false);
  } catch {
    return Promise.resolve(false);
  }
}

/** Gives back host access to the proxy origin (on disconnect); failures are ignored. */
export async function releaseHostAccess(proxyUrl: string): Promise<void> {
  try {
    await browser.permissions.remove({ origins: [originPattern(proxyUrl)] });
  } catch {
    // Not granted, or the API is unavailable: nothing to give back.
  }
}

export type ProxyCheck =
  | { ok: true; memberName: string; allowHttpMedia?: boolean }
  | { ok: false; kind: string; message: string };

/**
 * Asks the proxy who the token belongs to (`/proxy/me`) and reads its capabilities, so a
 * successful check proves both the address and the token. Every failure gets a reason the member
 * can act on.
 */
export async function checkProxy(input: ConnectInput, fetchImpl?: typeof fetch): Promise<ProxyCheck> {
  const client = new ProxyClient(input, fetchImpl);
  try {
    const me = await client.me();
    if (!me || typeof me.name !== 'string') return notAProxy(input.proxyUrl);
    const capabilities: unknown = await client.capabilities();
    const allowHttp = (capabilities as { media?: { allowHttp?: unknown } } | null)?.media?.allowHttp;
    return typeof allowHttp === 'boolean' ? { ok: true, memberName: me.name, allowHttpMedia: allowHttp } : { ok: true, memberName: me.name };
  } catch (error) {
    return { ok: false, ...explainFailure(error, input.proxyUrl) };
  }
}

const notAProxy = (proxyUrl: string) =>
  ({ ok: false, kind: 'not_a_proxy', message: t('options.error.notAProxy', { url: proxyUrl }) }) as const;

/** The reason shown to the member for a failed call to the proxy. */
export function explainFailure(error: unknown, proxyUrl: string): { kind: string; message: string } {
  if (!(error instanceof ApiError)) return { kind: 'unexpected', message: t('options.error.unexpected', { message: error instanceof Error ? error.message : String(error) }) };
  const failure = error.failure;
  switch (failure.kind) {
    case 'unauthorized':
      return { kind: failure.kind, message: t('options.error.unauthorized') };
    case 'network':
      return { kind: failure.kind, message: t('options.error.network', { url: proxyUrl }) };
    case 'rate_limited':
      return { kind: failure.kind, message: t('options.error.rateLimited', { seconds: Math.max(1, Math.ceil(failure.retryAfterMs / 1000)) }) };
    case 'rejected':
      if (failure.status === 404) return notAProxy(proxyUrl);
      return { kind: failure.kind, message: failure.message };
    default:
      return { kind: failure.kind, message: failure.message };
  }
}

/** Removes the stored connection, token included. */
export const forgetConnection = clearConnection;

/** The connection to store after a successful check (keeps a known allowHttpMedia for the same proxy). */
export function connectionFrom(input: ConnectInput, check: Extract<ProxyCheck, { ok: true }>, previous: Connection | null): Connection {
  const allowHttpMedia = check.allowHttpMedia ?? (previous?.proxyUrl === input.proxyUrl ? previous.allowHttpMedia : undefined);
  return {
    proxyUrl: input.proxyUrl,
    token: input.token,
    memberName: check.memberName,
    needsReconnect: false,
    ...(allowHttpMedia === undefined ? {} : { allowHttpMedia }),
  };
}
