import { Hono } from 'hono';
import { html } from 'hono/html';
import type { MemberProfile, QueueItem, TeamQueueState } from '../../../../shared';
import { api, date, failure, formOf, note, refused, render, type C, type ConsoleEnv } from './console-kit';
import type { Translate } from './console-i18n';
import { csrfField } from './console-page';

/** The gateway's queue (docs/queue.md): every member's items, the settings in force, and Cancel; over `/admin/queue`. */
export const queuePages = new Hono<ConsoleEnv>();

/** How long ago `createdAt` (Unix seconds) was, in its largest whole unit. */
function ageOf(t: Translate, createdAt: number, nowMs: number): string {
  const s = Math.max(0, Math.floor(nowMs / 1000) - createdAt);
  if (s < 60) return t('queue.ageSeconds', { n: s });
  if (s < 3600) return t('queue.ageMinutes', { n: Math.floor(s / 60) });
  if (s < 86_400) return t('queue.ageHours', { n: Math.floor(s / 3600) });
  return t('queue.ageDays', { n: Math.floor(s / 86_400) });
}

function outcome(item: QueueItem) {
  if (item.taskId) return html`<code>${item.taskId}</code>`;
  if (item.error) return html`<code>${item.error.code}</code> <span class="muted">${item.error.message}</span>`;
  return '';
}

async function queuePage(c: C, message?: { text: string; ok: boolean }) {
  const t = c.var.t;
  const [queue, members] = await Promise.all([api<TeamQueueState>(c, 'GET', '/queue'), api<{ members: MemberProfile[] }>(c, 'GET', '/members')]);
  const problem = failure(queue);
  const names = new Map(members.body.members.map((m) => [m.id, m.name]));
  const now = Date.now();
  const items = problem ? [] : queue.body.items;
  const rows = items.map((item) => html`<tr>
    <td class="num">${item.position ?? ''}</td>
    <td>${names.get(item.memberId ?? '') ?? item.memberId ?? ''}</td>
    <td>${item.model}</td>
    <td>${t(`queue.status.${item.status}`)}</td>
    <td class="num">${ageOf(t, item.createdAt, now)}</td>
    <td>${outcome(item)}</td>
    <td>${item.status === 'queued'
      ? html`<form method="post" action="/console/queue/${item.id}/cancel" class="inline">${csrfField(c.var.signed.csrf)}<button type="submit" class="secondary" aria-label="${t('queue.cancelLabel', { id: item.id })}">${t('queue.cancel')}</button></form>`
      : ''}</td>
  </tr>`);
  const settings = problem
    ? ''
    : html`<h2>${t('queue.settings')}</h2>
      <dl class="facts">
        <dt>${t('queue.cap')}</dt><dd>${queue.body.cap || t('queue.noCap')}</dd>
        <dt>${t('queue.running')}</dt><dd>${queue.body.running}</dd>
        <dt>${t('queue.backoff')}</dt><dd>${queue.body.backoffUntil ? `${date(queue.body.backoffUntil)} UTC` : t('queue.notBackingOff')}</dd>
      </dl>`;
  return render(c, t('queue.title'), html`<h1>${t('queue.title')}</h1>
    ${note(message?.text ?? problem, message?.ok)}
    <p>${t('queue.intro')}</p>
    ${settings}
    <h2>${t('queue.items')}</h2>
    ${rows.length
      ? html`<div class="table-wrap"><table><thead><tr><th scope="col" class="num">${t('queue.position')}</th><th scope="col">${t('queue.member')}</th><th scope="col">${t('queue.model')}</th><th scope="col">${t('queue.status')}</th><th scope="col" class="num">${t('queue.age')}</th><th scope="col">${t('queue.outcome')}</th><th scope="col">${t('queue.actions')}</th></tr></thead><tbody>${rows}</tbody></table></div>`
      : html`<p class="muted">${t('queue.none')}</p>`}`, 'queue');
}

queuePages.get('/queue', (c) => queuePage(c));

queuePages.post('/queue/:id/cancel', async (c) => {
  if (!(await formOf(c))) return refused(c);
  const id = c.req.param('id');
  const cancelled = await api<QueueItem>(c, 'DELETE', `/queue/${encodeURIComponent(id)}`);
  const problem = failure(cancelled);
  return queuePage(c, problem ? { text: problem, ok: false } : { text: c.var.t('queue.cancelled', { id: cancelled.body.id }), ok: true });
});
