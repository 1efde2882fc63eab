import { normalizeProxyUrl, tokenProblem } from '@/lib/connect/proxy-url-rules';
import { t } from '@/lib/i18n/translate';
import { CONNECT_WORDING, describeFailure } from '@/lib/proxy/failure-message';
import { ProxyClient } from '@/lib/proxy/proxy-client';
import type { Connection } from '@/lib/storage/records/setting-values';
import { clearConnection } from '@/lib/storage/stored-connection';

/** What the member typed in the options page, checked: the proxy origin and the trimmed token. */
export type ConnectInput = { proxyUrl: string; token: string };

/** Field-level problems of the connect form (messages name the field). */
export interface ConnectFieldErrors {
  /** The connect link field (lib/connect/connect-link). */
  link?: string;
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

export type ProxyCheck = { ok: true; memberName: string; allowHttpMedia?: boolean } | { ok: false; message: string };

/**
 * Asks the proxy who the token belongs to (`/proxy/me`) and reads its capabilities, so a
 * successful check proves both the address and the token. Every failure gets a reason the member
 * can act on. The only client made for a connection not stored (yet): a refused token here says
 * nothing about the stored one.
 */
export async function checkProxy(input: ConnectInput, fetchImpl?: typeof fetch): Promise<ProxyCheck> {
  const client = new ProxyClient(input, fetchImpl);
  try {
    const me = await client.me();
    if (!me || typeof me.name !== 'string') return { ok: false, message: t('options.error.notAProxy', { url: input.proxyUrl }) };
    const capabilities: unknown = await client.capabilities();
    const allowHttp = (capabilities as { media?: { allowHttp?: unknown } } | null)?.media?.allowHttp;
    return typeof allowHttp === 'boolean' ? { ok: true, memberName: me.name, allowHttpMedia: allowHttp } : { ok: true, memberName: me.name };
  } catch (error) {
    return { ok: false, message: describeFailure(error, { wording: CONNECT_WORDING, proxyUrl: input.proxyUrl }).message };
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
