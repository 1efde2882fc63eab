import { storage } from '#imports';

/** How the extension reaches the team's proxy. */
export interface Connection {
  /** Origin of the proxy, e.g. `https://arkbridge.example.workers.dev` (no trailing slash). */
  proxyUrl: string;
  /** The member token; kept in `storage.local`, which content scripts cannot read in MV3. */
  token: string;
  /** The member's display name, from `/proxy/me` at connect time. */
  memberName?: string;
}

export const connectionItem = storage.defineItem<Connection | null>('local:connection', { fallback: null });

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
    return { ok: false, message: 'Proxy URL: enter a full address such as https://arkbridge.example.workers.dev' };
  }
  const local = LOCAL_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)) {
    return { ok: false, message: 'Proxy URL: must start with https:// (http:// only for localhost)' };
  }
  if (url.username || url.password) return { ok: false, message: 'Proxy URL: must not contain a user name or password' };
  return { ok: true, url: url.origin };
}

/** The host permission pattern to request for a proxy origin (asked at connect time only). */
export const originPattern = (proxyUrl: string): string => `${new URL(proxyUrl).origin}/*`;
