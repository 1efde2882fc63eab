/**
 * Accessibility checks of a page with axe-core (WCAG 2.x A and AA rules). axe is evaluated through
 * the DevTools protocol, which extension pages' Content-Security-Policy does not block (a script
 * tag would be).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  /** CSS selectors of the offending elements. */
  targets: string[];
}

/** The page's WCAG 2 A/AA violations as axe reports them (empty when none). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const { violations } = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
  });
}

/** One line per violation, for a failure message. */
export const describeViolations = (violations: AxeViolation[]): string =>
  violations.map((v) => `${v.impact ?? 'n/a'} ${v.id}: ${v.help} (${v.targets.slice(0, 3).join(', ')}${v.targets.length > 3 ? ', …' : ''})`).join('\n');
