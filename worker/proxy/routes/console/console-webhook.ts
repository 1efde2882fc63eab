import { Hono } from 'hono';
import { html, raw } from 'hono/html';
import { WEBHOOK_EVENTS, WEBHOOK_FORMATS, type WebhookAnswer, type WebhookAttempt } from '../../../../shared';
import { alertWebhookProblem } from '../../infra/settings/proxy-settings';
import { api, date, failure, formOf, note, refused, render, type C, type ConsoleEnv } from './console-kit';
import { csrfField } from './console-page';

/** The team's webhook (docs/webhooks.md): set, rotate, remove, and its last deliveries; over `/admin/webhook`. */
export const webhookPages = new Hono<ConsoleEnv>();

async function webhookPage(c: C, message?: { text: string; ok: boolean }) {
  const t = c.var.t;
  const hook = await api<WebhookAnswer>(c, 'GET', '/webhook');
  const current = hook.status === 200 ? hook.body : null;
  const { body } = await api<{ deliveries: WebhookAttempt[] }>(c, 'GET', '/webhook/deliveries');
  // The operator's setting, refused by the webhooks' rule: said where the alerts are explained.
  const alertRefused = alertWebhookProblem(c.env, new URL(c.req.url).origin);
  const checked = (event: string) => (current?.events.includes(event as never) ?? false ? raw(' checked') : '');
  return render(c, t('webhook.title'), html`<h1>${t('webhook.title')}</h1>
    ${note(message?.text, message?.ok)}
    <p>${t('webhook.intro')}</p>
    ${alertRefused ? note(t('webhook.alertRefused', { problem: alertRefused })) : ''}
    ${current ? '' : html`<p>${t('webhook.none')}</p>`}
    <form method="post" action="/console/webhook">
      ${csrfField(c.var.signed.csrf)}
      <div class="field"><label for="url">${t('webhook.url')}</label><input id="url" name="url" type="url" value="${current?.url ?? ''}" required></div>
      <fieldset><legend>${t('webhook.events')}</legend>
        ${WEBHOOK_EVENTS.map((e) => html`<label><input type="checkbox" name="event" value="${e}"${checked(e)}> ${e}</label> `)}
      </fieldset>
      <div class="field"><label for="format">${t('webhook.format')}</label><select id="format" name="format">
        ${WEBHOOK_FORMATS.map((f) => html`<option value="${f}"${(current?.format ?? 'standard') === f ? raw(' selected') : ''}>${f}</option>`)}</select></div>
      <button type="submit">${t('webhook.save')}</button>
    </form>
    ${current
      ? html`<form method="post" action="/console/webhook/secret" class="inline">${csrfField(c.var.signed.csrf)}<button type="submit" class="secondary">${t('webhook.rotate')}</button></form>
        <form method="post" action="/console/webhook/remove" class="inline">${csrfField(c.var.signed.csrf)}<button type="submit" class="secondary">${t('webhook.remove')}</button></form>`
      : ''}
    <h2>${t('webhook.deliveries')}</h2>
    ${body.deliveries.length
      ? html`<div class="table-wrap"><table><thead><tr><th scope="col">${t('webhook.at')}</th><th scope="col">${t('webhook.type')}</th><th scope="col">${t('webhook.id')}</th><th scope="col" class="num">${t('webhook.attempt')}</th><th scope="col">${t('webhook.status')}</th><th scope="col" class="num">${t('webhook.code')}</th><th scope="col">${t('webhook.next')}</th></tr></thead>
        <tbody>${body.deliveries.map((d) => html`<tr><td>${date(d.at)}</td><td>${d.type}</td><td><code>${d.id}</code></td><td class="num">${d.attempt}</td><td>${d.status}${d.error ? html` <span class="muted">${d.error}</span>` : ''}</td><td class="num">${d.code ?? ''}</td><td>${date(d.nextRetryAt)}</td></tr>`)}</tbody></table></div>`
      : html`<p class="muted">${t('webhook.noDeliveries')}</p>`}`, 'webhook');
}

/** A posted form's repeated checkbox values; read before `formOf` (the body is parsed once, and kept as first parsed). */
async function checkedEvents(c: C): Promise<string[]> {
  let all: Record<string, unknown>;
  try {
    all = await c.req.parseBody({ all: true });
  } catch {
    return [];
  }
  const value = all.event;
  return (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((v): v is string => typeof v === 'string');
}

webhookPages.get('/webhook', (c) => webhookPage(c));

webhookPages.post('/webhook', async (c) => {
  const events = await checkedEvents(c);
  const form = await formOf(c);
  if (!form) return refused(c);
  const saved = await api<WebhookAnswer>(c, 'PUT', '/webhook', { url: form.url ?? '', events, format: form.format || 'standard' });
  if (failure(saved)) return webhookPage(c, { text: failure(saved)!, ok: false });
  return webhookPage(c, { text: saved.body.secret ? c.var.t('webhook.secret', { secret: saved.body.secret }) : c.var.t('saved'), ok: true });
});

webhookPages.post('/webhook/secret', async (c) => {
  if (!(await formOf(c))) return refused(c);
  const rotated = await api<WebhookAnswer>(c, 'POST', '/webhook/secret');
  return webhookPage(c, failure(rotated) ? { text: failure(rotated)!, ok: false } : { text: c.var.t('webhook.secret', { secret: rotated.body.secret ?? '' }), ok: true });
});

webhookPages.post('/webhook/remove', async (c) => {
  if (!(await formOf(c))) return refused(c);
  const removed = await api(c, 'DELETE', '/webhook');
  return webhookPage(c, { text: failure(removed) ?? c.var.t('webhook.removed'), ok: !failure(removed) });
});
