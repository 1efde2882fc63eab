import { Hono, type Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { html, raw } from 'hono/html';
import { sameSecret, toMicros, formatMoney, usageTotals, type AuditEntry, type BudgetState, type MemberBudgetOverview, type MemberProfile, type TeamTask, type UsageRow } from '../../../../shared';
import { admin } from '../admin/admin-routes';
import { CSRF_HEADER, SESSION_COOKIE } from '../admin/admin-auth';
import type { ProxyEnv } from '../../infra/settings/proxy-env';
import { ACCESS_HEADER, accessConfigured, tokenSigninAllowed, verifyAccess } from '../../domain/admin/access-identity';
import { costByDay, costByModel } from './console-charts';
import { pickLanguage, translator, type ConsoleLang, type Translate } from './console-i18n';
import { csrfField, page, type Html, type PageName } from './console-page';
import { SESSION_MS } from '../../domain/admin/console-sessions';
import { CONSOLE_CSS } from './console-style';
import { qrSvg } from './connect-qr';

/**
 * `/console`: the admin console, server-rendered HTML with no script at all. Every page reads and
 * every form changes through the admin API (the same routes scripts use), carrying the session's
 * cookie and CSRF token. Sign-in with the admin token or Cloudflare Access (docs/console.md).
 */

interface Signed {
  id: string;
  actor: string;
  csrf: string;
}
type ConsoleEnv = { Bindings: ProxyEnv; Variables: { t: Translate; lang: ConsoleLang; signed: Signed } };
type C = Context<ConsoleEnv>;

export const consoleApp = new Hono<ConsoleEnv>();

const LANG_COOKIE = 'arkbridge_lang';
const directory = (env: ProxyEnv) => env.DIRECTORY.get(env.DIRECTORY.idFromName('directory'));
const isHttps = (c: C) => new URL(c.req.url).protocol === 'https:';

/** Strict headers on every console answer: no script, no framing, nothing from elsewhere. */
consoleApp.use('*', async (c, next) => {
  const lang = pickLanguage(c.req.query('lang'), getCookie(c, LANG_COOKIE), c.req.header('accept-language'));
  if (c.req.query('lang') === lang) setCookie(c, LANG_COOKIE, lang, { path: '/console', sameSite: 'Strict', maxAge: 365 * 86_400, secure: isHttps(c) });
  c.set('lang', lang);
  c.set('t', translator(lang));
  await next();
  c.header('Content-Security-Policy', "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'");
  c.header('X-Frame-Options', 'DENY');
  c.header('X-Content-Type-Options', 'nosniff');
  // Not no-referrer: under it browsers send `Origin: null` with a form's POST, which the same-origin check refuses.
  c.header('Referrer-Policy', 'same-origin');
  c.header('Cache-Control', 'no-store');
});

consoleApp.get('/console.css', (c) => c.body(CONSOLE_CSS, 200, { 'Content-Type': 'text/css; charset=utf-8' }));

const render = (c: C, title: string, content: Html, pageName?: PageName, status = 200) =>
  c.html(page({ t: c.var.t, lang: c.var.lang, env: c.env, page: pageName, csrf: c.var.signed?.csrf, title }, content), status as 200);

// --- sign-in and sign-out ---

function signinPage(c: C, message?: string, status = 200) {
  const t = c.var.t;
  const form = tokenSigninAllowed(c.env)
    ? html`<form method="post" action="/console/signin">
        <div class="field"><label for="token">${t('signin.token')}</label><input id="token" name="token" type="password" autocomplete="current-password" required></div>
        <button type="submit">${t('signin.submit')}</button>
      </form>`
    : html`<p>${t('signin.off')}</p>`;
  return render(c, t('signin.title'), html`<section class="signin">
      <h1>${t('signin.title')}</h1>
      ${message ? html`<p class="note note--bad" role="alert">${message}</p>` : ''}
      <p>${accessConfigured(c.env) ? t('signin.access') : ''} ${tokenSigninAllowed(c.env) ? t('signin.intro') : ''}</p>
      ${form}
    </section>`, undefined, status);
}

consoleApp.get('/signin', (c) => signinPage(c));

consoleApp.post('/signin', async (c) => {
  const t = c.var.t;
  if (c.req.header('origin') !== new URL(c.req.url).origin) return signinPage(c, t('error.csrf'), 403);
  if (!tokenSigninAllowed(c.env)) return signinPage(c, t('signin.off'), 403);
  const form = await formFields(c);
  if (!form) return signinPage(c, t('signin.failed'), 400);
  const token = form.token ?? '';
  const ok = Boolean(c.env.ADMIN_TOKEN) && token.length > 0 && token.length <= 512 && sameSecret(token, c.env.ADMIN_TOKEN);
  const source = c.req.header('cf-connecting-ip') ?? c.req.header('x-real-ip') ?? 'local';
  const attempt = await directory(c.env).signinAttempt(source, ok);
  if (attempt === 'throttled') return signinPage(c, t('signin.throttled'), 429);
  if (attempt === 'failed') {
    // Logged without the attempted token.
    console.log(JSON.stringify({ event: 'console_signin_failed', source }));
    return signinPage(c, t('signin.failed'), 401);
  }
  const session = await directory(c.env).openSession('admin');
  setCookie(c, SESSION_COOKIE, session.id, { path: '/', httpOnly: true, sameSite: 'Strict', secure: isHttps(c), maxAge: SESSION_MS / 1000 });
  return c.redirect('/console/members', 303);
});

/** Every other console route: a session, or a valid Access assertion (which opens one). */
consoleApp.use('*', async (c, next) => {
  const id = getCookie(c, SESSION_COOKIE);
  const session = id ? await directory(c.env).session(id) : null;
  if (id && session) {
    c.set('signed', { id, actor: session.actor, csrf: session.csrf });
    return next();
  }
  const assertion = c.req.header(ACCESS_HEADER);
  if (assertion) {
    const identity = await verifyAccess(c.env, assertion);
    if (!identity.ok) return render(c, c.var.t('error.title'), html`<p class="note note--bad" role="alert">${c.var.t('error.forbidden')}</p>`, undefined, 403);
    const opened = await directory(c.env).openSession(identity.email);
    setCookie(c, SESSION_COOKIE, opened.id, { path: '/', httpOnly: true, sameSite: 'Strict', secure: isHttps(c), maxAge: SESSION_MS / 1000 });
    c.set('signed', { id: opened.id, actor: identity.email, csrf: opened.csrf });
    return next();
  }
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return c.redirect('/console/signin', 303);
  return signinPage(c, undefined, 401);
});

/** A posted form's text fields, or null when the body is no form (a malformed multipart body throws). */
async function formFields(c: C): Promise<Record<string, string> | null> {
  try {
    const body = await c.req.parseBody();
    return Object.fromEntries(Object.entries(body).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return null;
  }
}

/** A changing form: same origin, and the session's CSRF token. */
async function formOf(c: C): Promise<Record<string, string> | null> {
  if (c.req.header('origin') !== new URL(c.req.url).origin) return null;
  const body = await formFields(c);
  const csrf = body?._csrf ?? '';
  if (!body || !csrf || !sameSecret(csrf, c.var.signed.csrf)) return null;
  return body;
}

const refused = (c: C) => render(c, c.var.t('error.title'), html`<p class="note note--bad" role="alert">${c.var.t('error.csrf')}</p>`, undefined, 403);

consoleApp.post('/signout', async (c) => {
  if (!(await formOf(c))) return refused(c);
  await directory(c.env).closeSession(c.var.signed.id);
  deleteCookie(c, SESSION_COOKIE, { path: '/', secure: isHttps(c) });
  return c.redirect('/console/signin', 303);
});

// --- the admin API, as the console uses it ---

interface Answer<T> {
  status: number;
  body: T;
}

/** One admin API call with this session's credentials: the same gate, the same audit actor. */
async function api<T = any>(c: C, method: string, path: string, body?: unknown): Promise<Answer<T>> {
  const origin = new URL(c.req.url).origin;
  const headers = new Headers({ Origin: origin, Cookie: `${SESSION_COOKIE}=${c.var.signed.id}`, [CSRF_HEADER]: c.var.signed.csrf });
  if (body !== undefined) headers.set('Content-Type', 'application/json');
  // The admin app's own paths (it is mounted at /admin), on this origin: the same-origin check holds.
  const response = await admin.request(new URL(path, origin).href, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }, c.env, c.executionCtx);
  const text = await response.text();
  return { status: response.status, body: (text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text) as T };
}

const failure = (a: Answer<any>): string | null => (a.status >= 400 ? (a.body?.error?.message ?? `HTTP ${a.status}`) : null);
const note = (message: string | null | undefined, ok = false) => (message ? html`<p class="note ${ok ? 'note--ok' : 'note--bad'}" role="${ok ? 'status' : 'alert'}">${message}</p>` : '');
const date = (iso: string | null) => (iso ? iso.replace('T', ' ').slice(0, 16) : '');
const moneyOf = (amount: number | null, currency: string) => (amount === null ? '' : formatMoney(toMicros(amount), currency));

consoleApp.get('/', (c) => c.redirect('/console/members', 303));

// --- Members ---

async function membersPage(c: C, message?: { text: string; ok: boolean }) {
  const t = c.var.t;
  // Two calls whatever the team's size: the list, and every member's budget and latest task.
  const [{ body }, overview] = await Promise.all([api<{ members: MemberProfile[] }>(c, 'GET', '/members'), api<{ budgets: MemberBudgetOverview[] }>(c, 'GET', '/budgets')]);
  const members = body.members;
  const budgets = new Map(overview.body.budgets.map((b) => [b.member, b]));
  const rows = members.flatMap((m) => {
    const budget = budgets.get(m.id);
    if (!budget) return []; // added between the two reads: shown on the next load
    const last = budget.lastTaskAt;
    const limit = budget.limit === null ? t('members.unlimited') : moneyOf(budget.limit, budget.currency);
    return html`<tr>
      <td>${m.name}${m.revoked ? html` <span class="muted">(${t('members.revoked')})</span>` : ''}</td>
      <td><code>${m.id}</code></td>
      <td>${date(m.createdAt)}</td>
      <td>${date(last)}</td>
      <td class="num">${moneyOf(budget.spent, budget.currency)}</td>
      <td class="num">${budget.running}${budget.maxRunning === null ? '' : ` / ${budget.maxRunning}`}</td>
      <td>${limit} ${t(`period.${budget.period}`)}</td>
      <td>${m.revoked ? '' : html`
        <form method="post" action="/console/members/${m.id}/budget" class="inline" aria-label="${t('members.budget')}: ${m.name}">
          ${csrfField(c.var.signed.csrf)}
          <div class="field"><label for="limit-${m.id}">${t('members.limit')}</label><input id="limit-${m.id}" name="limit" inputmode="decimal" size="7" value="${budget.limit ?? ''}" placeholder="${t('members.unlimited')}"></div>
          <div class="field"><label for="period-${m.id}">${t('members.period')}</label><select id="period-${m.id}" name="period">
            <option value="month"${budget.period === 'month' ? raw(' selected') : ''}>${t('period.month')}</option>
            <option value="total"${budget.period === 'total' ? raw(' selected') : ''}>${t('period.total')}</option></select></div>
          <div class="field"><label for="running-${m.id}">${t('members.maxRunning')}</label><input id="running-${m.id}" name="maxRunning" inputmode="numeric" size="4" value="${budget.maxRunning ?? ''}" placeholder="${t('members.unlimited')}"></div>
          <button type="submit" class="secondary">${t('members.setBudget')}</button>
        </form>
        <form method="post" action="/console/members/${m.id}/rotate" class="inline">${csrfField(c.var.signed.csrf)}<button type="submit" class="secondary" aria-label="${t('members.rotate')}: ${m.name}">${t('members.rotate')}</button></form>
        <a class="button secondary" href="/console/members/${m.id}/revoke" aria-label="${t('members.revoke')}: ${m.name}">${t('members.revoke')}</a>`}
      </td>
    </tr>`;
  });
  return render(c, t('members.title'), html`<h1>${t('members.title')}</h1>
    ${note(message?.text, message?.ok)}
    ${members.length
      ? html`<div class="table-wrap"><table>
          <thead><tr><th scope="col">${t('members.name')}</th><th scope="col">${t('members.id')}</th><th scope="col">${t('members.created')}</th><th scope="col">${t('members.lastActivity')}</th><th scope="col" class="num">${t('members.spent')}</th><th scope="col" class="num">${t('members.running')}</th><th scope="col">${t('members.budget')}</th><th scope="col">${t('members.actions')}</th></tr></thead>
          <tbody>${rows}</tbody></table></div>`
      : html`<p>${t('members.none')}</p>`}
    <h2 id="add-title">${t('members.addTitle')}</h2>
    <form method="post" action="/console/members" aria-labelledby="add-title">
      ${csrfField(c.var.signed.csrf)}
      <div class="field"><label for="name">${t('members.name')}</label><input id="name" name="name" required maxlength="100" autocomplete="off"></div>
      <button type="submit">${t('members.add')}</button>
    </form>`, 'members');
}

consoleApp.get('/members', (c) => membersPage(c));

/** The token of a new or rotated member, shown once, with the connect link and its QR code. */
function tokenPage(c: C, name: string, token: string) {
  const t = c.var.t;
  const origin = new URL(c.req.url).origin;
  const link = `${origin}/connect#token=${encodeURIComponent(token)}`;
  return render(c, t('members.tokenTitle', { name }), html`<h1>${t('members.tokenTitle', { name })}</h1>
    <p class="note note--ok" role="status">${t('members.tokenOnce', { name })}</p>
    <div class="field"><label for="token">${t('members.token')}</label><input id="token" class="secret" readonly value="${token}"></div>
    <div class="field"><label for="link">${t('members.connectLink')}</label><input id="link" class="secret" readonly value="${link}"></div>
    ${raw(qrSvg(link, t('members.qr')))}
    <p><a href="/console/members">${t('members.back')}</a></p>`, 'members');
}

consoleApp.post('/members', async (c) => {
  const form = await formOf(c);
  if (!form) return refused(c);
  const added = await api<{ id: string; name: string; token: string }>(c, 'POST', '/members', { name: form.name ?? '' });
  const problem = failure(added);
  return problem ? membersPage(c, { text: problem, ok: false }) : tokenPage(c, added.body.name, added.body.token);
});

async function memberName(c: C, id: string): Promise<string | null> {
  const { body } = await api<{ members: MemberProfile[] }>(c, 'GET', '/members');
  return body.members.find((m) => m.id === id)?.name ?? null;
}

consoleApp.post('/members/:id/rotate', async (c) => {
  const form = await formOf(c);
  if (!form) return refused(c);
  const id = c.req.param('id');
  const rotated = await api<{ id: string; token: string }>(c, 'POST', `/members/${encodeURIComponent(id)}/token`);
  const problem = failure(rotated);
  return problem ? membersPage(c, { text: problem, ok: false }) : tokenPage(c, (await memberName(c, id)) ?? id, rotated.body.token);
});

consoleApp.get('/members/:id/revoke', async (c) => {
  const t = c.var.t;
  const id = c.req.param('id');
  const name = await memberName(c, id);
  if (!name) return c.redirect('/console/members', 303);
  return render(c, t('members.revokeTitle', { name }), html`<h1>${t('members.revokeTitle', { name })}</h1>
    <p>${t('members.revokeText')}</p>
    <form method="post" action="/console/members/${id}/revoke" class="inline">${csrfField(c.var.signed.csrf)}<button type="submit" class="danger">${t('members.revokeConfirm', { name })}</button></form>
    <a class="button secondary" href="/console/members">${t('members.cancel')}</a>`, 'members');
});

consoleApp.post('/members/:id/revoke', async (c) => {
  const form = await formOf(c);
  if (!form) return refused(c);
  const done = await api(c, 'DELETE', `/members/${encodeURIComponent(c.req.param('id'))}`);
  return membersPage(c, { text: failure(done) ?? c.var.t('saved'), ok: !failure(done) });
});

/** A form's optional number: empty is null (no limit); anything else is passed on for the API to judge. */
const numberOrNull = (value: string | undefined): number | null | string => {
  const text = (value ?? '').trim();
  if (!text) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : text;
};

consoleApp.post('/members/:id/budget', async (c) => {
  const form = await formOf(c);
  if (!form) return refused(c);
  const saved = await api(c, 'PUT', `/members/${encodeURIComponent(c.req.param('id'))}/budget`, {
    limit: numberOrNull(form.limit),
    period: form.period,
    maxRunning: numberOrNull(form.maxRunning),
  });
  return membersPage(c, { text: failure(saved) ?? c.var.t('saved'), ok: !failure(saved) });
});

// --- Usage ---

consoleApp.get('/usage', async (c) => {
  const t = c.var.t;
  const from = c.req.query('from');
  const to = c.req.query('to');
  const query = new URLSearchParams({ ...(from ? { from } : {}), ...(to ? { to } : {}) }).toString();
  const [report, members] = await Promise.all([
    api<{ currency: string; from: string; to: string; rows: UsageRow[]; storage: { member: string; uploads: number; outputs: number }[] }>(c, 'GET', `/usage${query ? `?${query}` : ''}`),
    api<{ members: MemberProfile[] }>(c, 'GET', '/members'),
  ]);
  const problem = failure(report);
  const names = new Map(members.body.members.map((m) => [m.id, m.name]));
  const picker = html`<form method="get" action="/console/usage" class="inline">
      <div class="field"><label for="from">${t('usage.from')}</label><input id="from" name="from" type="date" value="${problem ? (from ?? '') : report.body.from}"></div>
      <div class="field"><label for="to">${t('usage.to')}</label><input id="to" name="to" type="date" value="${problem ? (to ?? '') : report.body.to}"></div>
      <button type="submit" class="secondary">${t('usage.show')}</button>
    </form>`;
  if (problem) return render(c, t('usage.title'), html`<h1>${t('usage.title')}</h1>${picker}${note(problem)}`, 'usage', 400);
  const { rows, currency } = report.body;
  const total = usageTotals(rows);
  const csv = `/admin/usage?${new URLSearchParams({ from: report.body.from, to: report.body.to, format: 'csv' })}`;
  return render(c, t('usage.title'), html`<h1>${t('usage.title')}</h1>
    ${picker}
    <p><a class="button secondary" href="${csv}" download>${t('usage.csv')}</a></p>
    ${rows.length
      ? html`<h2>${t('usage.byDay')}</h2>${costByDay(rows, names, t('usage.byDay'))}
        <h2>${t('usage.byModel')}</h2>${costByModel(rows, t('usage.byModel'))}
        <div class="table-wrap"><table>
          <thead><tr><th scope="col">${t('usage.day')}</th><th scope="col">${t('usage.member')}</th><th scope="col">${t('usage.model')}</th><th scope="col" class="num">${t('usage.tasks')}</th><th scope="col" class="num">${t('usage.completed')}</th><th scope="col" class="num">${t('usage.failed')}</th><th scope="col" class="num">${t('usage.seconds')}</th><th scope="col" class="num">${t('usage.cost')}</th><th scope="col" class="num">${t('usage.tokens')}</th></tr></thead>
          <tbody>${rows.map((r) => html`<tr><td>${r.day}</td><td>${names.get(r.member) ?? r.member}</td><td>${r.model}</td><td class="num">${r.tasks}</td><td class="num">${r.completed}</td><td class="num">${r.failed}</td><td class="num">${r.seconds}</td><td class="num">${moneyOf(r.cost, currency)}</td><td class="num">${r.tokens}</td></tr>`)}</tbody>
          <tfoot><tr><th scope="row" colspan="3">${t('usage.total')}</th><td class="num">${total.tasks}</td><td class="num">${total.completed}</td><td class="num">${total.failed}</td><td class="num">${total.seconds}</td><td class="num">${moneyOf(total.cost, currency)}</td><td class="num">${total.tokens}</td></tr></tfoot>
        </table></div>`
      : html`<p>${t('usage.none')}</p>`}
    ${report.body.storage.length
      ? html`<h2>${t('usage.storage')}</h2><div class="table-wrap"><table><thead><tr><th scope="col">${t('usage.member')}</th><th scope="col" class="num">Uploads</th><th scope="col" class="num">Outputs</th></tr></thead>
        <tbody>${report.body.storage.map((s) => html`<tr><td>${names.get(s.member) ?? s.member}</td><td class="num">${megabytes(s.uploads)}</td><td class="num">${megabytes(s.outputs)}</td></tr>`)}</tbody></table></div>`
      : ''}`, 'usage');
});

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

// --- Tasks ---

const STATUSES = ['creating', 'queued', 'in_progress', 'unknown', 'completed', 'failed', 'expired'];

consoleApp.get('/tasks', async (c) => {
  const t = c.var.t;
  const member = c.req.query('member') ?? '';
  const status = c.req.query('status') ?? '';
  const query = new URLSearchParams({ limit: '200', ...(member ? { member } : {}), ...(status ? { status } : {}) });
  const [tasks, members, prices] = await Promise.all([api<{ tasks: TeamTask[] }>(c, 'GET', `/tasks?${query}`), api<{ members: MemberProfile[] }>(c, 'GET', '/members'), api<{ table: { currency: string } }>(c, 'GET', '/prices')]);
  const names = new Map(members.body.members.map((m) => [m.id, m.name]));
  const currency = prices.body.table.currency;
  const problem = failure(tasks);
  return render(c, t('tasks.title'), html`<h1>${t('tasks.title')}</h1>
    <form method="get" action="/console/tasks" class="inline">
      <div class="field"><label for="member">${t('tasks.member')}</label><select id="member" name="member"><option value="">${t('tasks.any')}</option>
        ${members.body.members.map((m) => html`<option value="${m.id}"${m.id === member ? raw(' selected') : ''}>${m.name}</option>`)}</select></div>
      <div class="field"><label for="status">${t('tasks.status')}</label><select id="status" name="status"><option value="">${t('tasks.any')}</option>
        ${STATUSES.map((s) => html`<option value="${s}"${s === status ? raw(' selected') : ''}>${s}</option>`)}</select></div>
      <button type="submit" class="secondary">${t('tasks.filter')}</button>
    </form>
    ${note(problem)}
    ${!problem && tasks.body.tasks.length
      ? html`<div class="table-wrap"><table>
          <thead><tr><th scope="col">${t('tasks.id')}</th><th scope="col">${t('tasks.member')}</th><th scope="col">${t('tasks.model')}</th><th scope="col">${t('tasks.status')}</th><th scope="col" class="num">${t('tasks.cost')}</th><th scope="col">${t('tasks.created')}</th><th scope="col">${t('tasks.ended')}</th></tr></thead>
          <tbody>${tasks.body.tasks.map((k) => html`<tr><td><code>${k.id}</code></td><td>${names.get(k.member) ?? k.member}</td><td>${k.model}</td><td>${k.status}</td><td class="num">${k.priced ? moneyOf(k.cost, currency) : t('tasks.unpriced')}</td><td>${date(k.createdAt)}</td><td>${date(k.endedAt)}</td></tr>`)}</tbody>
        </table></div>`
      : problem ? '' : html`<p>${t('tasks.none')}</p>`}`, 'tasks', problem ? 400 : 200);
});

// --- Audit log ---

consoleApp.get('/audit', async (c) => {
  const t = c.var.t;
  const { body } = await api<{ entries: AuditEntry[] }>(c, 'GET', '/audit?limit=300');
  return render(c, t('audit.title'), html`<h1>${t('audit.title')}</h1>
    ${body.entries.length
      ? html`<div class="table-wrap"><table>
          <thead><tr><th scope="col">${t('audit.at')}</th><th scope="col">${t('audit.actor')}</th><th scope="col">${t('audit.action')}</th><th scope="col">${t('audit.target')}</th><th scope="col">${t('audit.detail')}</th></tr></thead>
          <tbody>${body.entries.map((e) => html`<tr><td>${date(e.at)}</td><td>${e.actor}</td><td>${e.action}</td><td>${e.target ?? ''}</td><td><code>${JSON.stringify(e.detail)}</code></td></tr>`)}</tbody>
        </table></div>`
      : html`<p>${t('audit.none')}</p>`}`, 'audit');
});

// --- Prices ---

async function pricesPage(c: C, message?: { text: string; ok: boolean }, draft?: string) {
  const t = c.var.t;
  const { body } = await api<{ table: { currency: string; note?: string; models: Record<string, Record<string, number>> }; isDefault: boolean; updatedAt: string | null }>(c, 'GET', '/prices');
  const rows = Object.entries(body.table.models).flatMap(([model, byResolution]) => Object.entries(byResolution).map(([resolution, price]) => ({ model, resolution, price })));
  return render(c, t('prices.title'), html`<h1>${t('prices.title')}</h1>
    ${note(message?.text, message?.ok)}
    <p>${body.isDefault ? t('prices.default') : t('prices.custom', { at: date(body.updatedAt) })}</p>
    ${body.table.note ? html`<p class="muted">${body.table.note}</p>` : ''}
    <div class="table-wrap"><table><thead><tr><th scope="col">${t('prices.model')}</th><th scope="col">${t('prices.resolution')}</th><th scope="col" class="num">${t('prices.perSecond')}</th></tr></thead>
      <tbody>${rows.map((r) => html`<tr><td>${r.model}</td><td>${r.resolution}</td><td class="num">${r.price} ${body.table.currency}</td></tr>`)}</tbody></table></div>
    <form method="post" action="/console/prices">
      ${csrfField(c.var.signed.csrf)}
      <div class="field"><label for="table">${t('prices.edit')}</label><textarea id="table" name="table" spellcheck="false">${draft ?? JSON.stringify(body.table, null, 2)}</textarea></div>
      <button type="submit">${t('prices.save')}</button>
    </form>
    <form method="post" action="/console/prices/reset" class="inline">${csrfField(c.var.signed.csrf)}<button type="submit" class="secondary">${t('prices.reset')}</button></form>`, 'prices');
}

consoleApp.get('/prices', (c) => pricesPage(c));

consoleApp.post('/prices', async (c) => {
  const form = await formOf(c);
  if (!form) return refused(c);
  let table: unknown;
  try {
    table = JSON.parse(form.table ?? '');
  } catch {
    return pricesPage(c, { text: 'table: not valid JSON.', ok: false }, form.table);
  }
  const saved = await api(c, 'PUT', '/prices', table);
  return failure(saved) ? pricesPage(c, { text: failure(saved)!, ok: false }, form.table) : pricesPage(c, { text: c.var.t('saved'), ok: true });
});

consoleApp.post('/prices/reset', async (c) => {
  if (!(await formOf(c))) return refused(c);
  const done = await api(c, 'DELETE', '/prices');
  return pricesPage(c, { text: failure(done) ?? c.var.t('saved'), ok: !failure(done) });
});

// --- Team budget ---

async function budgetPage(c: C, message?: { text: string; ok: boolean }) {
  const t = c.var.t;
  const { body } = await api<BudgetState>(c, 'GET', '/budget');
  const values = { spent: moneyOf(body.spent, body.currency), reserved: moneyOf(body.reserved, body.currency), remaining: moneyOf(body.remaining, body.currency), period: t(`period.${body.period}`) };
  return render(c, t('budget.title'), html`<h1>${t('budget.title')}</h1>
    ${note(message?.text, message?.ok)}
    <p>${body.limit === null ? t('budget.stateUnlimited', values) : t('budget.state', values)}</p>
    <form method="post" action="/console/budget">
      ${csrfField(c.var.signed.csrf)}
      <div class="field"><label for="limit">${t('members.limit')} (${body.currency})</label><input id="limit" name="limit" inputmode="decimal" value="${body.limit ?? ''}" placeholder="${t('members.unlimited')}"></div>
      <div class="field"><label for="period">${t('members.period')}</label><select id="period" name="period">
        <option value="month"${body.period === 'month' ? raw(' selected') : ''}>${t('period.month')}</option>
        <option value="total"${body.period === 'total' ? raw(' selected') : ''}>${t('period.total')}</option></select></div>
      <button type="submit">${t('budget.save')}</button>
    </form>`, 'budget');
}

consoleApp.get('/budget', (c) => budgetPage(c));

consoleApp.post('/budget', async (c) => {
  const form = await formOf(c);
  if (!form) return refused(c);
  const saved = await api(c, 'PUT', '/budget', { limit: numberOrNull(form.limit), period: form.period });
  return budgetPage(c, { text: failure(saved) ?? c.var.t('saved'), ok: !failure(saved) });
});
