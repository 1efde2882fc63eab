import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { quoteAnswerSchema, type QuoteAnswer } from './quote';

const QUOTE: QuoteAnswer = { cost: 3.672, currency: 'CNY', priced: true, unit: 'million_tokens', tokens: 229_500, remaining: 10, teamRemaining: null };

describe('quoteAnswerSchema: POST /proxy/quote as read', () => {
  it('reads the answer as it is and ignores fields a newer proxy adds', () => {
    expect(v.parse(quoteAnswerSchema, QUOTE)).toEqual(QUOTE);
    expect(v.parse(quoteAnswerSchema, { ...QUOTE, later: 1 })).toEqual(QUOTE);
  });

  it('a per-second quote has no tokens; an unknown unit or a fractional token count is refused', () => {
    expect(v.parse(quoteAnswerSchema, { ...QUOTE, unit: 'second', tokens: null })).toMatchObject({ unit: 'second', tokens: null });
    expect(v.safeParse(quoteAnswerSchema, { ...QUOTE, unit: 'minute' }).success).toBe(false);
    expect(v.safeParse(quoteAnswerSchema, { ...QUOTE, tokens: 1.5 }).success).toBe(false);
  });
});
