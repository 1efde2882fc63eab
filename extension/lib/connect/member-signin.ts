import * as v from 'valibot';
import { browser } from 'wxt/browser';
import { connectMethodsSchema } from '@@/shared';
import { tokenProblem } from '@/lib/connect/proxy-url-rules';
import { t } from '@/lib/i18n/translate';
import '@/lib/i18n/options.en';

/**
 * Member sign-in with the team's account (Cloudflare Access in front of the proxy; docs/identity.md
 * on the proxy's side). The proxy says whether it is set up (`GET /connect/methods`); signing in
 * opens `/connect/access` in the browser's identity flow, which hands a token for this browser
 * back in its redirect URL's fragment. The token is then checked and stored as a pasted one is.
 */

/** Whether the proxy at `proxyUrl` signs members in with Cloudflare Access; false when it cannot say. */
export async function accessSignInAvailable(proxyUrl: string, fetchImpl: typeof fetch = (...args) => fetch(...args), signal?: AbortSignal): Promise<boolean> {
  try {
    const response = await fetchImpl(`${proxyUrl}/connect/methods`, { signal, credentials: 'omit' });
    if (!response.ok) return false;
    const read = v.safeParse(connectMethodsSchema, await response.json());
    return read.success && read.output.access;
  } catch {
    return false;
  }
}

/** The sign-in address the identity flow opens: the proxy's `/connect/access`, back to `redirectUrl`. */
export const signInUrl = (proxyUrl: string, redirectUrl: string): string => `${proxyUrl}/connect/access?redirect=${encodeURIComponent(redirectUrl)}`;

/** The member token in the fragment of the URL the flow ended on (`#token=...`), or null. */
export function tokenFromRedirect(url: string, redirectUrl: string): string | null {
  if (!url.startsWith(redirectUrl.replace(/\/?$/, ''))) return null;
  const hash = url.indexOf('#');
  if (hash < 0) return null;
  const token = new URLSearchParams(url.slice(hash + 1)).get('token')?.trim() ?? '';
  return token && !tokenProblem(token) ? token : null;
}

export type SignIn = { ok: true; token: string } | { ok: false; message: string };

/** What opens the flow: the browser's identity API (tests and the e2e hand in the same call). */
export interface IdentityFlow {
  getRedirectURL(): string;
  launchWebAuthFlow(details: { url: string; interactive: boolean }): Promise<string | undefined>;
}

export const browserIdentity = (): IdentityFlow => browser.identity as unknown as IdentityFlow;

/** Runs the identity flow against the proxy: the token for this browser, or why there is none. */
export async function signInWithAccess(proxyUrl: string, identity: IdentityFlow = browserIdentity()): Promise<SignIn> {
  let redirectUrl: string;
  let ended: string | undefined;
  try {
    redirectUrl = identity.getRedirectURL();
    ended = await identity.launchWebAuthFlow({ url: signInUrl(proxyUrl, redirectUrl), interactive: true });
  } catch (error) {
    return { ok: false, message: t('options.signin.failed', { message: error instanceof Error ? error.message : String(error) }) };
  }
  const token = ended ? tokenFromRedirect(ended, redirectUrl) : null;
  return token ? { ok: true, token } : { ok: false, message: t('options.signin.noToken') };
}
