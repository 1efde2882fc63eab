import { normalizeProxyUrl, tokenProblem } from '@/lib/connect/proxy-url-rules';
import { t } from '@/lib/i18n/translate';
import '@/lib/i18n/options.en';

/**
 * The connect link the console shows for a new member: `<proxy origin>/connect#token=<member token>`
 * (worker/proxy/routes/console/console-members.ts). Pasted into the options page, it fills in the proxy URL and
 * the member token.
 */

/** Longer than any link the console makes (an origin and a 65-character token); read no further. */
export const CONNECT_LINK_MAX = 4096;

export type ConnectLink = { ok: true; proxyUrl: string; token: string } | { ok: false; message: string };

/** Whether pasted text is meant as a link (rather than a bare token): it starts with a scheme. */
export const looksLikeLink = (text: string): boolean => /^\s*[a-z][a-z0-9+.-]*:/i.test(text.slice(0, 64));

/**
 * Reads a connect link with `URL` and `URLSearchParams` (linear in its length, which is bounded):
 * an http(s) proxy origin under the same rules as the Proxy URL field (https, or http on this
 * machine; no user name or password), and a member token of the usual form in `#token=`.
 * Answers both, or a message naming the field and what is wrong.
 */
export function parseConnectLink(input: string): ConnectLink {
  const text = input.trim();
  if (!text) return { ok: false, message: t('options.link.missing') };
  if (text.length > CONNECT_LINK_MAX) return { ok: false, message: t('options.link.tooLong') };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: t('options.link.invalid') };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, message: t('options.link.invalid') };
  const origin = normalizeProxyUrl(url.href);
  if (!origin.ok) return { ok: false, message: url.username || url.password ? t('options.link.credentials') : t('options.link.notHttps') };
  const token = new URLSearchParams(url.hash.slice(1)).get('token')?.trim() ?? '';
  if (!token) return { ok: false, message: t('options.link.noToken') };
  if (tokenProblem(token)) return { ok: false, message: t('options.link.tokenMalformed') };
  return { ok: true, proxyUrl: origin.url, token };
}
