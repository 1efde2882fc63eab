import { t } from '@/lib/i18n/translate';
import '@/lib/i18n/options.en';

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
