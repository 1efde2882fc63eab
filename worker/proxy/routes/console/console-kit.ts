import type { Context } from 'hono';
import { html } from 'hono/html';
import { formatMoney, sameSecret, toMicros } from '../../../../shared';
import type { ProxyEnv } from '../../infra/settings/proxy-env';
import { CSRF_HEADER, SESSION_COOKIE } from '../admin/admin-auth';
import { adminRoutes as admin } from '../admin/admin-routes';
import type { ConsoleLang, Translate } from './console-i18n';
import { page, type Html, type PageName } from './console-page';

/**
 * What every page of the console uses: its context, the page frame, forms with their CSRF check,
 * and the admin API as the console calls it (the same routes scripts use, with the session's
 * cookie and CSRF token, so the same gate and the same audit actor).
 */

export interface Signed {
  id: string;
  actor: string;
  csrf: string;
}
export type ConsoleEnv = { Bindings: ProxyEnv; Variables: { t: Translate; lang: ConsoleLang; signed: Signed } };
export type C = Context<ConsoleEnv>;

export const isHttps = (c: C) => new URL(c.req.url).protocol === 'https:';

export const render = (c: C, title: string, content: Html, pageName?: PageName, status = 200) =>
  c.html(page({ t: c.var.t, lang: c.var.lang, env: c.env, page: pageName, csrf: c.var.signed?.csrf, title }, content), status as 200);

/** A posted form's text fields, or null when the body is no form (a malformed multipart body throws). */
export async function formFields(c: C): Promise<Record<string, string> | null> {
  try {
    const body = await c.req.parseBody();
    return Object.fromEntries(Object.entries(body).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return null;
  }
}

/** A changing form: same origin, and the session's CSRF token. */
export async function formOf(c: C): Promise<Record<string, string> | null> {
  if (c.req.header('origin') !== new URL(c.req.url).origin) return null;
  const body = await formFields(c);
  const csrf = body?._csrf ?? '';
  if (!body || !csrf || !sameSecret(csrf, c.var.signed.csrf)) return null;
  return body;
}

export const refused = (c: C) => render(c, c.var.t('error.title'), html`<p class="note note--bad" role="alert">${c.var.t('error.csrf')}</p>`, undefined, 403);

// --- the admin API, as the console uses it ---

export interface Answer<T> {
  status: number;
  body: T;
}

/** One admin API call with this session's credentials: the same gate, the same audit actor. */
export async function api<T = any>(c: C, method: string, path: string, body?: unknown): Promise<Answer<T>> {
  const origin = new URL(c.req.url).origin;
  const headers = new Headers({ Origin: origin, Cookie: `${SESSION_COOKIE}=${c.var.signed.id}`, [CSRF_HEADER]: c.var.signed.csrf });
  if (body !== undefined) headers.set('Content-Type', 'application/json');
  // The admin app's own paths (it is mounted at /admin), on this origin: the same-origin check holds.
  const response = await admin.request(new URL(path, origin).href, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }, c.env, c.executionCtx);
  const text = await response.text();
  return { status: response.status, body: (text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text) as T };
}

export const failure = (a: Answer<any>): string | null => (a.status >= 400 ? (a.body?.error?.message ?? `HTTP ${a.status}`) : null);
export const note = (message: string | null | undefined, ok = false) => (message ? html`<p class="note ${ok ? 'note--ok' : 'note--bad'}" role="${ok ? 'status' : 'alert'}">${message}</p>` : '');
export const date = (iso: string | null) => (iso ? iso.replace('T', ' ').slice(0, 16) : '');
export const moneyOf = (amount: number | null, currency: string) => (amount === null ? '' : formatMoney(toMicros(amount), currency));

/** A form's optional number: empty is null (no limit); anything else is passed on for the API to judge. */
export const numberOrNull = (value: string | undefined): number | null | string => {
  const text = (value ?? '').trim();
  if (!text) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : text;
};
