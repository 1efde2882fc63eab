import { Hono } from 'hono';
import { html, raw } from 'hono/html';
import { usageTotals, type AuditEntry, type MemberProfile, type TeamTask, type UsageRow } from '../../../../shared';
import { costByDay, costByModel } from './console-charts';
import { api, date, failure, moneyOf, note, render, type ConsoleEnv } from './console-kit';

/** The report pages: usage (charts, table, CSV), tasks with their cost, the audit log. */
export const reportPages = new Hono<ConsoleEnv>();

// --- Usage ---

reportPages.get('/usage', async (c) => {
  const t = c.var.t;
  const from = c.req.query('from');
  const to = c.req.query('to');
  const query = new URLSearchParams({ ...(from ? { from } : {}), ...(to ? { to } : {}) }).toString();
  const [report, members] = await Promise.all([
    api<{ currency: string; from: string; to: string; rows: UsageRow[]; drift: Drift; storage: { member: string; uploads: number; outputs: number }[] }>(c, 'GET', `/usage${query ? `?${query}` : ''}`),
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
    ${driftNote(t, report.body.drift, currency)}
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

/** What the charged tasks of the period were charged against what was reserved for them. */
interface Drift {
  tasks: number;
  charged: number;
  estimated: number;
  overruns: number;
}

function driftNote(t: ConsoleEnv['Variables']['t'], drift: Drift | undefined, currency: string) {
  if (!drift?.tasks) return '';
  const difference = Math.round((drift.charged - drift.estimated) * 1e6) / 1e6;
  const ratio = drift.estimated > 0 ? `${((drift.charged / drift.estimated) * 100).toFixed(1)} %` : '—';
  const sign = difference > 0 ? '+' : difference < 0 ? '−' : '';
  return html`<p class="drift">${t('usage.drift', { charged: moneyOf(drift.charged, currency), estimated: moneyOf(drift.estimated, currency), tasks: String(drift.tasks), drift: `${sign}${moneyOf(Math.abs(difference), currency)}`, ratio })}</p>
    ${drift.overruns ? html`<p class="muted">${t('usage.overruns', { count: String(drift.overruns) })}</p>` : ''}`;
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

// --- Tasks ---

const STATUSES = ['creating', 'queued', 'in_progress', 'unknown', 'completed', 'failed', 'expired'];

reportPages.get('/tasks', async (c) => {
  const t = c.var.t;
  const member = c.req.query('member') ?? '';
  const status = c.req.query('status') ?? '';
  const query = new URLSearchParams({ limit: '200', ...(member ? { member } : {}), ...(status ? { status } : {}) });
  const [tasks, members, prices] = await Promise.all([api<{ tasks: TeamTask[] }>(c, 'GET', `/tasks?${query}`), api<{ members: MemberProfile[] }>(c, 'GET', '/members'), api<{ currency: string }>(c, 'GET', '/prices')]);
  const names = new Map(members.body.members.map((m) => [m.id, m.name]));
  const currency = prices.body.currency;
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
          <thead><tr><th scope="col">${t('tasks.id')}</th><th scope="col">${t('tasks.member')}</th><th scope="col">${t('tasks.model')}</th><th scope="col">${t('tasks.status')}</th><th scope="col" class="num">${t('tasks.estimate')}</th><th scope="col" class="num">${t('tasks.cost')}</th><th scope="col" class="num">${t('tasks.tokens')}</th><th scope="col">${t('tasks.created')}</th><th scope="col">${t('tasks.ended')}</th></tr></thead>
          <tbody>${tasks.body.tasks.map((k) => html`<tr><td><code>${k.id}</code></td><td>${names.get(k.member) ?? k.member}</td><td>${k.model}</td><td>${k.status}</td><td class="num">${k.priced ? moneyOf(k.estimate, currency) : t('tasks.unpriced')}</td><td class="num">${k.priced ? moneyOf(k.cost, currency) : ''}${k.overrun ? html` <strong>(${t('tasks.overrun')})</strong>` : ''}</td><td class="num">${k.tokens ?? ''}</td><td>${date(k.createdAt)}</td><td>${date(k.endedAt)}</td></tr>`)}</tbody>
        </table></div>`
      : problem ? '' : html`<p>${t('tasks.none')}</p>`}`, 'tasks', problem ? 400 : 200);
});

// --- Audit log ---

reportPages.get('/audit', async (c) => {
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
