import { type Period, type QuoteAnswer, toMicros } from '@@/shared';
import { formatAmount } from '@/lib/format/money-display';
import { currentLocale, type MessageKey, t } from '@/lib/i18n/translate';
import '@/lib/i18n/generate.en';

/**
 * The Generate form's quote as words, next to its button: what the task can cost at most, what
 * the member's budget has left (and the team's, when it is the tighter one), and whether a budget
 * cannot hold it (then generating is refused before anything is sent). Pure, so each case is
 * tested without a page.
 */

export interface QuoteSummary {
  /** `Costs up to 3.67 CNY · 12.50 CNY left this month`, `Not priced · …`. */
  line: string;
  /** `Reserved for up to 1,234,567 output tokens`: a price table per million tokens. */
  tokens: string | null;
  /** Why generating is refused: a budget cannot hold the task (which, what is left, what it costs, ask the admin). */
  over: string | null;
}

/** The periods of the member's and the team's budgets, as last read (`GET /proxy/usage`); unknown: the line names none. */
export interface QuotePeriods {
  member?: Period;
  team?: Period;
}

const LEFT: Record<Period | 'unknown', MessageKey> = { month: 'generate.quote.left.month', total: 'generate.quote.left.total', unknown: 'generate.quote.left' };
const TEAM_LEFT: Record<Period | 'unknown', MessageKey> = { month: 'generate.quote.team.month', total: 'generate.quote.team.total', unknown: 'generate.quote.team' };

/** Whether `cost` is more than `remaining` leaves (null: no limit), to the millionth as the ledger counts. */
const exceeds = (cost: number, remaining: number | null) => remaining !== null && toMicros(cost) > toMicros(remaining);

export function quoteSummary(quote: QuoteAnswer, periods: QuotePeriods = {}): QuoteSummary {
  const money = (amount: number) => formatAmount(amount, quote.currency);
  // Reserved costs of running tasks can take a budget past its limit for a moment: nothing is left.
  const left = (remaining: number) => money(Math.max(0, remaining));
  const { remaining, teamRemaining } = quote;
  const teamTighter = teamRemaining !== null && (remaining === null || teamRemaining < remaining);

  const parts = [quote.priced ? t('generate.quote.costs', { cost: money(quote.cost) }) : t('generate.quote.notPriced')];
  if (remaining !== null) parts.push(t(LEFT[periods.member ?? 'unknown'], { remaining: left(remaining) }));
  if (teamTighter) parts.push(t(TEAM_LEFT[periods.team ?? 'unknown'], { remaining: left(teamRemaining) }));

  const tokens =
    quote.unit === 'million_tokens' && quote.tokens !== null
      ? t('generate.quote.tokens', { tokens: new Intl.NumberFormat(currentLocale()).format(quote.tokens) })
      : null;

  // Of two budgets that cannot hold it, the one with less left names what must change first.
  const memberOver = exceeds(quote.cost, remaining);
  const teamOver = exceeds(quote.cost, teamRemaining);
  const scope = memberOver && (!teamOver || remaining! <= teamRemaining!) ? 'member' : teamOver ? 'team' : null;
  const over =
    scope === null
      ? null
      : t(scope === 'team' ? 'generate.quote.over.team' : 'generate.quote.over.member', {
          remaining: left(scope === 'team' ? teamRemaining! : remaining!),
          cost: money(quote.cost),
        });
  return { line: parts.join(' · '), tokens, over };
}
