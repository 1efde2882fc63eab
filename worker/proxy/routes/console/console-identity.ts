import { Hono } from 'hono';
import { html } from 'hono/html';
import { MODELS, type AccessKeyInfo, type MemberProfile, type MemberScope, type TokenInfo } from '../../../../shared';
import { api, date, failure, formOf, refused, type C, type ConsoleEnv } from './console-kit';
import { csrfField } from './console-page';
import type { Translate } from './console-i18n';

/**
 * A member's sign-in and access on their console page (docs/identity.md): the email Cloudflare
 * Access names them by, their scope (models, expiry), their tokens and access keys, each revocable. Every
 * change goes through the admin API, as scripts make it.
 */


/** The scope in a few words, for the members list. */
export function scopeSummary(t: Translate, scope: MemberScope): string {
  const models = scope.models === null ? t('identity.allModels') : t('identity.modelCount', { count: scope.models.length });
  if (scope.expiresAt === null) return `${models} · ${t('identity.noExpiry')}`;
  const day = new Date(scope.expiresAt * 1000).toISOString().slice(0, 10);
  return `${models} · ${t(scope.expiresAt * 1000 <= Date.now() ? 'identity.expired' : 'identity.expiresOn', { date: day })}`;
}

/** The section of the member's page: email and scope forms (an active member's), and the tokens. */
export async function identitySection(c: C, profile: MemberProfile) {
  const t = c.var.t;
  const id = profile.id;
  const [tokens, keys] = await Promise.all([
    api<{ tokens: TokenInfo[] }>(c, 'GET', `/members/${encodeURIComponent(id)}/tokens`),
    api<{ keys: AccessKeyInfo[] }>(c, 'GET', `/members/${encodeURIComponent(id)}/access-keys`),
  ]);
  const list = tokens.status === 200 ? tokens.body.tokens : [];
  const expires = profile.scope.expiresAt === null ? '' : new Date(profile.scope.expiresAt * 1000).toISOString().slice(0, 10);
  const csrf = csrfField(c.var.signed.csrf);
  const forms = profile.revoked
    ? ''
    : html`<form method="post" action="/console/members/${id}/email" aria-label="${t('identity.email')}">
        ${csrf}
        <div class="field"><label for="email">${t('identity.email')}</label><input id="email" name="email" type="email" maxlength="254" autocomplete="off" value="${profile.email ?? ''}" aria-describedby="email-hint"><p id="email-hint" class="muted">${t('identity.emailHint')}</p></div>
        <button type="submit" class="secondary">${t('identity.saveEmail')}</button>
      </form>
      <form method="post" action="/console/members/${id}/scope" aria-label="${t('members.access')}">
        ${csrf}
        <div class="field"><label for="models">${t('identity.models')}</label><input id="models" name="models" autocomplete="off" value="${profile.scope.models?.join(', ') ?? ''}" placeholder="${t('identity.allModels')}" aria-describedby="models-hint"><p id="models-hint" class="muted">${t('identity.modelsHint', { models: MODELS.map((m) => m.id).join(', ') })}</p></div>
        <div class="field"><label for="expires">${t('identity.expires')}</label><input id="expires" name="expires" type="date" value="${expires}" aria-describedby="expires-hint"><p id="expires-hint" class="muted">${t('identity.expiresHint')}</p></div>
        <button type="submit" class="secondary">${t('identity.saveScope')}</button>
      </form>`;
  const rows = list.map((token) => html`<tr>
      <td>${token.label} <code>${token.id}</code></td>
      <td>${date(token.createdAt)}</td>
      <td>${token.lastUsedAt ? date(token.lastUsedAt) : t('identity.never')}</td>
      <td><form method="post" action="/console/members/${id}/tokens/${token.id}/revoke" class="inline">${csrf}<button type="submit" class="danger" aria-label="${t('identity.revokeToken')}: ${token.label}">${t('identity.revokeToken')}</button></form></td>
    </tr>`);
  return html`<h2>${t('identity.title')}</h2>
    <p>${profile.email ? html`${t('identity.email')}: ${profile.email} · ` : ''}${scopeSummary(t, profile.scope)}</p>
    ${forms}
    <h3>${t('identity.tokens')}</h3>
    ${rows.length
      ? html`<div class="table-wrap"><table><thead><tr><th scope="col">${t('identity.label')}</th><th scope="col">${t('members.created')}</th><th scope="col">${t('identity.lastUsed')}</th><th scope="col">${t('members.actions')}</th></tr></thead><tbody>${rows}</tbody></table></div>`
      : html`<p>${t('identity.tokensNone')}</p>`}
    ${accessKeyTable(c, id, keys.status === 200 ? keys.body.keys : [])}`;
}

/** The member's access keys: label, access key id, times; each revocable. Never a secret (the admin API lists none). */
function accessKeyTable(c: C, id: string, keys: AccessKeyInfo[]) {
  const t = c.var.t;
  const csrf = csrfField(c.var.signed.csrf);
  const rows = keys.map((key) => html`<tr>
      <td>${key.label} <code>${key.id}</code></td>
      <td><code>${key.accessKeyId}</code></td>
      <td>${date(key.createdAt)}</td>
      <td>${key.lastUsedAt ? date(key.lastUsedAt) : t('identity.never')}</td>
      <td><form method="post" action="/console/members/${id}/access-keys/${key.id}/revoke" class="inline">${csrf}<button type="submit" class="danger" aria-label="${t('identity.revokeToken')}: ${key.label}">${t('identity.revokeToken')}</button></form></td>
    </tr>`);
  return html`<h3>${t('identity.accessKeys')}</h3>
    ${rows.length
      ? html`<div class="table-wrap"><table><thead><tr><th scope="col">${t('identity.label')}</th><th scope="col">${t('identity.accessKeyId')}</th><th scope="col">${t('members.created')}</th><th scope="col">${t('identity.lastUsed')}</th><th scope="col">${t('members.actions')}</th></tr></thead><tbody>${rows}</tbody></table></div>`
      : html`<p>${t('identity.accessKeysNone')}</p>`}`;
}

/** The console's answer to a change: back to the member's page with what happened. */
type Back = (c: C, id: string, message: { text: string; ok: boolean }) => Promise<Response> | Response;

/** The forms' handlers; `back` renders the member's page (console-library.ts) with a message. */
export function identityForms(back: Back) {
  const app = new Hono<ConsoleEnv>();
  const answer = (c: C, id: string, saved: { status: number; body: any }, ok = c.var.t('saved')) => {
    const problem = failure(saved);
    return back(c, id, { text: problem ?? ok, ok: !problem });
  };

  app.post('/members/:id/email', async (c) => {
    const form = await formOf(c);
    if (!form) return refused(c);
    const id = c.req.param('id');
    const email = (form.email ?? '').trim();
    return answer(c, id, await api(c, 'PUT', `/members/${encodeURIComponent(id)}/email`, { email: email || null }));
  });

  app.post('/members/:id/scope', async (c) => {
    const form = await formOf(c);
    if (!form) return refused(c);
    const id = c.req.param('id');
    const models = (form.models ?? '').split(/[\s,]+/).filter(Boolean);
    const day = /^\d{4}-\d{2}-\d{2}$/.exec((form.expires ?? '').trim())?.[0];
    const expiresAt = day ? Date.parse(`${day}T00:00:00Z`) / 1000 : null;
    const body = { models: models.length ? models : null, expiresAt: (form.expires ?? '').trim() && !day ? form.expires : expiresAt };
    return answer(c, id, await api(c, 'PUT', `/members/${encodeURIComponent(id)}/scope`, body));
  });

  app.post('/members/:id/tokens/:tokenId/revoke', async (c) => {
    const form = await formOf(c);
    if (!form) return refused(c);
    const { id, tokenId } = c.req.param();
    return answer(c, id, await api(c, 'DELETE', `/members/${encodeURIComponent(id)}/tokens/${encodeURIComponent(tokenId)}`), c.var.t('identity.tokenRevoked'));
  });

  app.post('/members/:id/access-keys/:keyId/revoke', async (c) => {
    const form = await formOf(c);
    if (!form) return refused(c);
    const { id, keyId } = c.req.param();
    return answer(c, id, await api(c, 'DELETE', `/members/${encodeURIComponent(id)}/access-keys/${encodeURIComponent(keyId)}`), c.var.t('identity.accessKeyRevoked'));
  });
  return app;
}
