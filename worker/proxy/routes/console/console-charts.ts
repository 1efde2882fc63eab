import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import type { UsageRow } from '../../../../shared';

/**
 * Charts of the usage report as server-drawn SVG: no script, readable without colour (each chart
 * has a text alternative and the table below it has every number).
 */

const COLOURS = 8;
const money = (n: number) => (Math.round(n * 100) / 100).toFixed(2);

/** Cost by day, stacked by member. */
export function costByDay(rows: UsageRow[], names: Map<string, string>, label: string): HtmlEscapedString | Promise<HtmlEscapedString> {
  const days = [...new Set(rows.map((r) => r.day))].sort();
  const members = [...new Set(rows.map((r) => r.member))];
  const colour = (m: string) => `c${members.indexOf(m) % COLOURS}`;
  const byDay = new Map(days.map((d) => [d, new Map<string, number>()]));
  for (const r of rows) byDay.get(r.day)!.set(r.member, (byDay.get(r.day)!.get(r.member) ?? 0) + r.cost);
  const max = Math.max(0.01, ...[...byDay.values()].map((m) => [...m.values()].reduce((a, b) => a + b, 0)));
  const width = 960;
  const height = 240;
  const left = 48;
  const bottom = 24;
  const slot = (width - left) / Math.max(1, days.length);
  const bar = Math.max(2, Math.min(40, slot * 0.7));
  const parts: string[] = [];
  days.forEach((day, i) => {
    let y = height - bottom;
    for (const m of members) {
      const cost = byDay.get(day)!.get(m) ?? 0;
      if (!cost) continue;
      const h = (cost / max) * (height - bottom - 10);
      y -= h;
      parts.push(`<rect class="${colour(m)}" x="${(left + i * slot + (slot - bar) / 2).toFixed(1)}" y="${y.toFixed(1)}" width="${bar.toFixed(1)}" height="${h.toFixed(1)}"><title>${escape(day)} · ${escape(names.get(m) ?? m)}: ${money(cost)}</title></rect>`);
    }
    if (days.length <= 31 || i % Math.ceil(days.length / 31) === 0) {
      parts.push(`<text x="${(left + i * slot + slot / 2).toFixed(1)}" y="${height - 6}" text-anchor="middle">${escape(day.slice(8))}</text>`);
    }
  });
  const axis = `<line class="axis" x1="${left}" y1="${height - bottom}" x2="${width}" y2="${height - bottom}"/><text x="${left - 6}" y="16" text-anchor="end">${money(max)}</text><text x="${left - 6}" y="${height - bottom}" text-anchor="end">0</text>`;
  const legend = members.map((m) => html`<li><span class="swatch ${colour(m)}" aria-hidden="true"></span>${names.get(m) ?? m}</li>`);
  return html`<figure>
    <svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="${label}">${raw(axis + parts.join(''))}</svg>
    <ul class="legend">${legend}</ul>
  </figure>`;
}

/** Cost by model, one horizontal bar each. */
export function costByModel(rows: UsageRow[], label: string): HtmlEscapedString | Promise<HtmlEscapedString> {
  const totals = new Map<string, number>();
  for (const r of rows) totals.set(r.model, (totals.get(r.model) ?? 0) + r.cost);
  const models = [...totals.entries()].sort((a, b) => b[1] - a[1]);
  const max = Math.max(0.01, ...models.map(([, c]) => c));
  const rowHeight = 26;
  const width = 960;
  const labelWidth = 300;
  const height = Math.max(rowHeight, models.length * rowHeight);
  const parts = models.map(([model, cost], i) => {
    const w = ((width - labelWidth - 80) * cost) / max;
    const y = i * rowHeight;
    return `<text x="${labelWidth - 8}" y="${y + 17}" text-anchor="end">${escape(model.slice(0, 48))}</text><rect class="c${i % COLOURS}" x="${labelWidth}" y="${y + 5}" width="${w.toFixed(1)}" height="${rowHeight - 10}"><title>${escape(model)}: ${money(cost)}</title></rect><text x="${(labelWidth + w + 6).toFixed(1)}" y="${y + 17}">${money(cost)}</text>`;
  });
  return html`<figure><svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="${label}">${raw(parts.join(''))}</svg></figure>`;
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
