import * as v from 'valibot';
import { amount, amountOrNull } from './budgets';

/** The units a price table may be written in: per second of video, or the vendor's own, per million output tokens. */
export const PRICE_UNITS = ['second', 'million_tokens'] as const;
export type PriceUnit = (typeof PRICE_UNITS)[number];

/**
 * `POST /proxy/quote` (a video create body): what the create would reserve, with nothing created,
 * reserved or sent upstream. `cost` is the reservation (the most the task can cost); `tokens` the
 * output tokens it is reserved for (null when the table is per second); `remaining` and
 * `teamRemaining` what the member's and the team's budgets have left before it (null: no limit).
 * Unknown fields are ignored, so a newer proxy's answer still reads.
 */
export const quoteAnswerSchema = v.object({
  cost: amount,
  currency: v.pipe(v.string(), v.minLength(1), v.maxLength(16)),
  priced: v.boolean(),
  unit: v.picklist(PRICE_UNITS),
  tokens: v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0))),
  remaining: amountOrNull,
  teamRemaining: amountOrNull,
});
export type QuoteAnswer = v.InferOutput<typeof quoteAnswerSchema>;
