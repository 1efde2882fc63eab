import type { QuoteView } from '@/lib/generate/form-quote';
import { type QuotePeriods, quoteSummary } from '@/lib/generate/quote-summary';
import { t } from '@/lib/i18n/translate';
import '@/lib/i18n/generate.en';

/** The id of the reason generating is refused for the budgets (the Generate button names it: aria-describedby). */
export const OVER_BUDGET_ID = 'gen-over-budget';

interface QuoteLineProps {
  view: QuoteView;
  periods: QuotePeriods;
}

/**
 * Next to the Generate button: "Costs up to 3.67 CNY · 12.50 CNY left this month", and why
 * generating is refused when a budget cannot hold the task. A polite live region that is always
 * in the page (so that what it gains is announced); while the form is quoted again, the last
 * line stays, dimmed, and the region is busy (announced once the new quote is in).
 */
export function QuoteLine({ view, periods }: QuoteLineProps) {
  const answer = view.state === 'quoted' ? view.answer : view.state === 'pending' ? view.previous : null;
  const summary = answer ? quoteSummary(answer, periods) : null;
  const pending = view.state === 'pending';
  const title = summary?.tokens ?? (answer && !answer.priced ? t('generate.quote.notPricedTitle') : undefined);
  return (
    <div class="gen-quote" role="status" aria-live="polite" aria-busy={pending ? 'true' : undefined}>
      {summary && (
        <p class={pending ? 'gen-quote__line gen-quote__line--stale' : 'gen-quote__line'} title={title}>
          {summary.line}
        </p>
      )}
      {summary?.tokens && <p class="gen-muted gen-quote__tokens">{summary.tokens}</p>}
      {!pending && summary?.over && (
        <p class="gen-quote__over" id={OVER_BUDGET_ID}>
          {summary.over}
        </p>
      )}
    </div>
  );
}

/** Why generating is refused for the budgets (the quote of the form as it is), or null. */
export const overBudget = (view: QuoteView, periods: QuotePeriods): string | null => (view.state === 'quoted' ? quoteSummary(view.answer, periods).over : null);
