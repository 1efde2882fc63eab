import { Hono } from 'hono';
import { html, raw } from 'hono/html';
import type { MemberBudgetOverview, MemberProfile } from '../../../../shared';
import { qrSvg } from './connect-qr';
import { api, date, failure, formOf, moneyOf, note, numberOrNull, refused, render, type C, type ConsoleEnv } from './console-kit';
import { scopeSummary } from './console-identity';
import { csrfField } from './console-page';

/** The Members page: the team with budgets and latest tasks; add, rotate, revoke, set a budget. */
export const memberPages = new Hono<ConsoleEnv>();

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
      <td><a href="/console/members/${m.id}" aria-label="${t('library.open')}: ${m.name}">${m.name}</a>${m.revoked ? html` <span class="muted">(${t('members.revoked')})</span>` : ''}${m.email ? html`<br><span class="muted">${m.email}</span>` : ''}</td>
      <td><code>${m.id}</code></td>
      <td>${date(m.createdAt)}</td>
      <td>${date(last)}</td>
      <td class="num">${moneyOf(budget.spent, budget.currency)}</td>
      <td class="num">${budget.running}${budget.maxRunning === null ? '' : ` / ${budget.maxRunning}`}</td>
      <td>${limit} ${t(`period.${budget.period}`)}</td>
      <td>${m.scope ? scopeSummary(t, m.scope) : ''}</td>
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
          <thead><tr><th scope="col">${t('members.name')}</th><th scope="col">${t('members.id')}</th><th scope="col">${t('members.created')}</th><th scope="col">${t('members.lastActivity')}</th><th scope="col" class="num">${t('members.spent')}</th><th scope="col" class="num">${t('members.running')}</th><th scope="col">${t('members.budget')}</th><th scope="col">${t('members.access')}</th><th scope="col">${t('members.actions')}</th></tr></thead>
          <tbody>${rows}</tbody></table></div>`
      : html`<p>${t('members.none')}</p>`}
    <h2 id="add-title">${t('members.addTitle')}</h2>
    <form method="post" action="/console/members" aria-labelledby="add-title">
      ${csrfField(c.var.signed.csrf)}
      <div class="field"><label for="name">${t('members.name')}</label><input id="name" name="name" required maxlength="100" autocomplete="off"></div>
      <div class="field"><label for="new-email">${t('members.emailOptional')}</label><input id="new-email" name="email" type="email" maxlength="254" autocomplete="off"></div>
      <button type="submit">${t('members.add')}</button>
    </form>`, 'members');
}

memberPages.get('/members', (c) => membersPage(c));

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

memberPages.post('/members', async (c) => {
  const form = await formOf(c);
  if (!form) return refused(c);
  const email = (form.email ?? '').trim();
  const added = await api<{ id: string; name: string; token: string }>(c, 'POST', '/members', { name: form.name ?? '', ...(email ? { email } : {}) });
  const problem = failure(added);
  return problem ? membersPage(c, { text: problem, ok: false }) : tokenPage(c, added.body.name, added.body.token);
});

async function memberName(c: C, id: string): Promise<string | null> {
  const { body } = await api<{ members: MemberProfile[] }>(c, 'GET', '/members');
  return body.members.find((m) => m.id === id)?.name ?? null;
}

memberPages.post('/members/:id/rotate', async (c) => {
  const form = await formOf(c);
  if (!form) return refused(c);
  const id = c.req.param('id');
  const rotated = await api<{ id: string; token: string }>(c, 'POST', `/members/${encodeURIComponent(id)}/token`);
  const problem = failure(rotated);
  return problem ? membersPage(c, { text: problem, ok: false }) : tokenPage(c, (await memberName(c, id)) ?? id, rotated.body.token);
});

memberPages.get('/members/:id/revoke', async (c) => {
  const t = c.var.t;
  const id = c.req.param('id');
  const name = await memberName(c, id);
  if (!name) return c.redirect('/console/members', 303);
  return render(c, t('members.revokeTitle', { name }), html`<h1>${t('members.revokeTitle', { name })}</h1>
    <p>${t('members.revokeText')}</p>
    <form method="post" action="/console/members/${id}/revoke" class="inline">${csrfField(c.var.signed.csrf)}<button type="submit" class="danger">${t('members.revokeConfirm', { name })}</button></form>
    <a class="button secondary" href="/console/members">${t('members.cancel')}</a>`, 'members');
});

memberPages.post('/members/:id/revoke', async (c) => {
  const form = await formOf(c);
  if (!form) return refused(c);
  const done = await api(c, 'DELETE', `/members/${encodeURIComponent(c.req.param('id'))}`);
  return membersPage(c, { text: failure(done) ?? c.var.t('saved'), ok: !failure(done) });
});

memberPages.post('/members/:id/budget', async (c) => {
  const form = await formOf(c);
  if (!form) return refused(c);
  const saved = await api(c, 'PUT', `/members/${encodeURIComponent(c.req.param('id'))}/budget`, {
    limit: numberOrNull(form.limit),
    period: form.period,
    maxRunning: numberOrNull(form.maxRunning),
  });
  return membersPage(c, { text: failure(saved) ?? c.var.t('saved'), ok: !failure(saved) });
});
