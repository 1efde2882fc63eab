import { Hono } from 'hono';
import { html, raw } from 'hono/html';
import { MODELS, type BudgetState } from '../../../../shared';
import { api, date, failure, formOf, moneyOf, note, numberOrNull, refused, render, type C, type ConsoleEnv } from './console-kit';
import { csrfField } from './console-page';

/** The settings pages: the price table and the team's budget. */
export const settingPages = new Hono<ConsoleEnv>();

// --- Prices ---

async function pricesPage(c: C, message?: { text: string; ok: boolean }, draft?: string) {
  const t = c.var.t;
  const { body } = await api<{ currency: string; unit: 'second' | 'million_tokens'; note?: string; models: Record<string, Record<string, number>>; isDefault: boolean; updatedAt: string | null }>(c, 'GET', '/prices');
  const rows = Object.entries(body.models).flatMap(([model, byVariant]) => Object.entries(byVariant).map(([variant, price]) => ({ model, variant, price })));
  // Marked, since under any budget a create of them is refused (402 price_unknown) until priced.
  const unpriced = MODELS.map((m) => m.id).filter((id) => !Object.hasOwn(body.models, id));
  const perUnit = body.unit === 'million_tokens' ? t('prices.perMillionTokens') : t('prices.perSecond');
  // What GET answered is what PUT takes back: the editor shows it whole (isDefault and updatedAt are ignored on save).
  const { isDefault: _d, updatedAt: _u, ...table } = body;
  return render(c, t('prices.title'), html`<h1>${t('prices.title')}</h1>
    ${note(message?.text, message?.ok)}
    <p>${body.isDefault ? t('prices.default') : t('prices.custom', { at: date(body.updatedAt) })}</p>
    <p>${t('prices.unit', { unit: body.unit === 'million_tokens' ? t('prices.unitTokens') : t('prices.unitSecond') })}</p>
    ${body.note ? html`<p class="muted">${body.note}</p>` : ''}
    <div class="table-wrap"><table><thead><tr><th scope="col">${t('prices.model')}</th><th scope="col">${t('prices.variant')}</th><th scope="col" class="num">${perUnit}</th></tr></thead>
      <tbody>${rows.map((r) => html`<tr><td>${r.model}</td><td>${r.variant}</td><td class="num">${r.price} ${body.currency}</td></tr>`)}
      ${unpriced.map((id) => html`<tr class="unpriced"><td>${id}</td><td>—</td><td class="num"><strong>${t('prices.none')}</strong></td></tr>`)}</tbody></table></div>
    ${unpriced.length ? html`<p class="muted">${t('prices.unpriced')}</p>` : ''}
    <form method="post" action="/console/prices">
      ${csrfField(c.var.signed.csrf)}
      <div class="field"><label for="table">${t('prices.edit')}</label><textarea id="table" name="table" spellcheck="false">${draft ?? JSON.stringify(table, null, 2)}</textarea></div>
      <button type="submit">${t('prices.save')}</button>
    </form>
    <form method="post" action="/console/prices/reset" class="inline">${csrfField(c.var.signed.csrf)}<button type="submit" class="secondary">${t('prices.reset')}</button></form>`, 'prices');
}

settingPages.get('/prices', (c) => pricesPage(c));

settingPages.post('/prices', async (c) => {
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

settingPages.post('/prices/reset', async (c) => {
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

settingPages.get('/budget', (c) => budgetPage(c));

settingPages.post('/budget', async (c) => {
  const form = await formOf(c);
  if (!form) return refused(c);
  const saved = await api(c, 'PUT', '/budget', { limit: numberOrNull(form.limit), period: form.period });
  return budgetPage(c, { text: failure(saved) ?? c.var.t('saved'), ok: !failure(saved) });
});
