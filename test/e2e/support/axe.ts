/**
 * Accessibility checks of a page with axe-core (WCAG 2.x A and AA rules), in Chromium (playwright)
 * and in Firefox (puppeteer over WebDriver BiDi) alike: axe's source is evaluated through the
 * driver, which extension pages' Content-Security-Policy does not block (a script tag would be).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** What axe needs of a page: evaluating a script in it (a playwright or a puppeteer Page). */
export interface EvaluatingPage {
  evaluate(script: string): Promise<unknown>;
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  /** CSS selectors of the offending elements. */
  targets: string[];
}

/** Evaluated in the page: axe's run over the document, with the rules checked here. */
async function runAxeInPage(): Promise<AxeViolation[]> {
  const axe = (globalThis as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[] }> } }).axe;
  const { violations } = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
  return violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
}

/** The page's WCAG 2 A/AA violations as axe reports them (empty when none). */
export async function axeViolations(page: EvaluatingPage): Promise<AxeViolation[]> {
  if (!(await page.evaluate(`'axe' in globalThis`))) await page.evaluate(AXE_SOURCE);
  // Both drivers evaluate a string as an expression and await the promise it gives.
  return (await page.evaluate(`(${runAxeInPage.toString()})()`)) as AxeViolation[];
}

/** One line per violation, for a failure message. */
export const describeViolations = (violations: AxeViolation[]): string =>
  violations.map((v) => `${v.impact ?? 'n/a'} ${v.id}: ${v.help} (${v.targets.slice(0, 3).join(', ')}${v.targets.length > 3 ? ', …' : ''})`).join('\n');
