import { Hono } from 'hono';
import { html } from 'hono/html';
import type { MemberGroupList, MemberProfile, ShareRole } from '../../../../shared';
import { api, failure, formOf, note, refused, render, type C, type ConsoleEnv } from './console-kit';
import { identityForms, identitySection } from './console-identity';
import { csrfField } from './console-page';
import type { ConsoleKey } from './console-i18n';

/** A member's page: their groups and the sharing of each; on a revoked member's, the transfer of their groups (docs/team-library.md). */
export const libraryPages = new Hono<ConsoleEnv>();

const roleKey = (role: ShareRole) => `library.role.${role}` as ConsoleKey;

async function memberPage(c: C, id: string, message?: { text: string; ok: boolean }) {
  const t = c.var.t;
  const [{ body: list }, groups] = await Promise.all([
    api<{ members: MemberProfile[] }>(c, 'GET', '/members'),
    api<MemberGroupList>(c, 'GET', `/members/${encodeURIComponent(id)}/groups`),
  ]);
  const profile = list.members.find((m) => m.id === id);
  if (!profile || groups.status !== 200) return c.redirect('/console/members', 303);
  const names = new Map(list.members.map((m) => [m.id, m.name]));
  const rows = groups.body.groups.map((g) => {
    const entries = Object.entries(g.members);
    return html`<tr>
      <td>${g.name ?? t('library.unnamed')} <code>${g.groupId}</code></td>
      <td>${t(roleKey(g.team))}</td>
      <td>${entries.length ? html`<ul class="plain">${entries.map(([member, role]) => html`<li>${names.get(member) ?? member}: ${t(roleKey(role))}</li>`)}</ul>` : ''}</td>
    </tr>`;
  });
  const heirs = list.members.filter((m) => !m.revoked && m.id !== id);
  const transfer = profile.revoked && heirs.length
    ? html`<h2 id="transfer-title">${t('library.transferTitle', { name: profile.name })}</h2>
      <p>${t('library.transferText')}</p>
      <form method="post" action="/console/members/${id}/transfer" aria-labelledby="transfer-title">
        ${csrfField(c.var.signed.csrf)}
        <div class="field"><label for="to">${t('library.transferTo')}</label><select id="to" name="to">${heirs.map((m) => html`<option value="${m.id}">${m.name}</option>`)}</select></div>
        <button type="submit" class="danger">${t('library.transfer')}</button>
      </form>`
    : '';
  return render(c, t('library.title', { name: profile.name }), html`<h1>${t('library.title', { name: profile.name })}${profile.revoked ? html` <span class="muted">(${t('members.revoked')})</span>` : ''}</h1>
    ${note(message?.text, message?.ok)}
    ${await identitySection(c, profile)}
    <h2>${t('library.groups')}</h2>
    ${rows.length
      ? html`<div class="table-wrap"><table><thead><tr><th scope="col">${t('library.group')}</th><th scope="col">${t('library.team')}</th><th scope="col">${t('library.members')}</th></tr></thead><tbody>${rows}</tbody></table></div>`
      : html`<p>${t('library.none')}</p>`}
    ${transfer}
    <p><a href="/console/members">${t('members.back')}</a></p>`, 'members');
}

libraryPages.get('/members/:id', (c) => memberPage(c, c.req.param('id')));
libraryPages.route('/', identityForms(memberPage));

libraryPages.post('/members/:id/transfer', async (c) => {
  const form = await formOf(c);
  if (!form) return refused(c);
  const id = c.req.param('id');
  const moved = await api<{ groups: number; assets: number }>(c, 'POST', `/members/${encodeURIComponent(id)}/transfer`, { to: form.to ?? '' });
  const problem = failure(moved);
  return memberPage(c, id, problem ? { text: problem, ok: false } : { text: c.var.t('library.transferred', { groups: moved.body.groups, assets: moved.body.assets }), ok: true });
});
