import { describe, expect, it } from 'vitest';
import type { QuoteAnswer } from '@@/shared';
import { quoteSummary } from '@/lib/generate/quote-summary';

const QUOTE: QuoteAnswer = { cost: 3.672, currency: 'CNY', priced: true, unit: 'second', tokens: null, remaining: 12.5, teamRemaining: null };
const quote = (over: Partial<QuoteAnswer> = {}): QuoteAnswer => ({ ...QUOTE, ...over });
const MONTHS = { member: 'month', team: 'month' } as const;

describe('the quote as the Generate form shows it', () => {
  it('the most it costs and what the member’s budget has left, in its period', () => {
    expect(quoteSummary(quote(), MONTHS)).toEqual({ line: 'Costs up to 3.67 CNY · 12.50 CNY left this month', tokens: null, over: null });
    expect(quoteSummary(quote(), { member: 'total' }).line).toBe('Costs up to 3.67 CNY · 12.50 CNY left in total');
    // The budget's period not read yet: no period named.
    expect(quoteSummary(quote()).line).toBe('Costs up to 3.67 CNY · 12.50 CNY left');
    expect(quoteSummary(quote({ remaining: null })).line).toBe('Costs up to 3.67 CNY');
  });

  it('the team’s budget too when it is the tighter one', () => {
    expect(quoteSummary(quote({ teamRemaining: 5 }), MONTHS).line).toBe('Costs up to 3.67 CNY · 12.50 CNY left this month · team: 5 CNY left this month');
    expect(quoteSummary(quote({ teamRemaining: 40 }), MONTHS).line).toBe('Costs up to 3.67 CNY · 12.50 CNY left this month');
    expect(quoteSummary(quote({ remaining: null, teamRemaining: 40 }), MONTHS).line).toBe('Costs up to 3.67 CNY · team: 40 CNY left this month');
  });

  it('an unpriced model reads "Not priced"', () => {
    expect(quoteSummary(quote({ priced: false, cost: 0 }), MONTHS)).toEqual({ line: 'Not priced · 12.50 CNY left this month', tokens: null, over: null });
  });

  it('a price table per million tokens: the tokens the task is reserved for', () => {
    expect(quoteSummary(quote({ unit: 'million_tokens', tokens: 1_234_567 })).tokens).toBe('Reserved for up to 1,234,567 output tokens');
  });

  it('a budget that cannot hold the task: which, what is left, what it costs, ask the admin', () => {
    expect(quoteSummary(quote({ remaining: 1.2 })).over).toBe(
      'Your budget cannot cover this task: 1.20 CNY left, and it costs up to 3.67 CNY. Generating is off until the budget is raised (a monthly budget starts again on the 1st, UTC): ask your team’s admin.',
    );
    expect(quoteSummary(quote({ teamRemaining: 2 })).over).toMatch(/^The team’s budget cannot cover this task: 2 CNY left, and it costs up to 3.67 CNY\. .*ask your team’s admin\.$/);
    // Both short: the one with less left.
    expect(quoteSummary(quote({ remaining: 2, teamRemaining: 1 })).over).toMatch(/^The team’s budget cannot cover this task: 1 CNY left/);
    expect(quoteSummary(quote({ remaining: 1, teamRemaining: 2 })).over).toMatch(/^Your budget cannot cover this task: 1 CNY left/);
    // Past its limit for a moment (reserved costs): nothing left.
    expect(quoteSummary(quote({ remaining: -0.5 })).over).toMatch(/: 0 CNY left/);
  });

  it('exactly what is left still fits', () => {
    expect(quoteSummary(quote({ remaining: 3.672, teamRemaining: 3.672 })).over).toBeNull();
    expect(quoteSummary(quote({ remaining: 3.671999 })).over).not.toBeNull();
  });
});
