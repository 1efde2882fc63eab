import { db } from './db';
import { t } from './i18n';

/** How the extension reaches the team's proxy. */
export interface Connection {
  /** Origin of the proxy, e.g. `https://arkbridge.example.workers.dev` (no trailing slash). */
  proxyUrl: string;
  /** The member token. Kept in the extension's IndexedDB: page and content-script contexts cannot read it. */
  token: string;
  /** The member's display name, from `/proxy/me` at connect time. */
  memberName?: string;
  /** The proxy accepts plain http:// media (its ALLOW_HTTP_MEDIA; local development). */
  allowHttpMedia?: boolean;
  /** Set when the proxy refused the token: the member must reconnect. */
  needsReconnect?: boolean;
}

const KEY = 'connection';

export async function getConnection(): Promise<Connection | null> {
  return ((await (await db()).get('settings', KEY)) as Connection | undefined) ?? null;
}

export async function setConnection(connection: Connection): Promise<void> {
  await (await db()).put('settings', connection, KEY);
}

/** Forgets the connection (Disconnect). */
export async function clearConnection(): Promise<void> {
  await (await db()).delete('settings', KEY);
}

/** Marks the stored token as refused (401), so every part of the extension asks to reconnect. */
export async function markNeedsReconnect(): Promise<void> {
  const current = await getConnection();
  if (current && !current.needsReconnect) await setConnection({ ...current, needsReconnect: true });
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Checks and normalizes a proxy URL typed by the member: https, or http only on this machine
 * (the local stack). Answers the origin, or a message saying what is wrong.
 */
export function normalizeProxyUrl(input: string): { ok: true; url: string } | { ok: false; message: string } {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return { ok: false, message: t('options.connect.urlInvalid') };
  }
  const local = LOCAL_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)) {
    return { ok: false, message: t('options.connect.urlNotHttps') };
  }
  if (url.username || url.password) return { ok: false, message: t('options.connect.urlCredentials') };
  return { ok: true, url: url.origin };
}

/** The host permission pattern to request for a proxy origin (asked at connect time only). */
export const originPattern = (proxyUrl: string): string => `${new URL(proxyUrl).origin}/*`;

/** Why a pasted member token cannot be right, or null. */
export function tokenProblem(token: string): string | null {
  const trimmed = token.trim();
  if (!trimmed) return t('options.connect.tokenMissing');
  if (!/^abk_m[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/.test(trimmed)) return t('options.connect.tokenMalformed');
  return null;
}
