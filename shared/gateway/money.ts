/**
 * Money as integer micro-units (millionths of the currency unit): sums of integers never drift,
 * as sums of decimal fractions in floating point do (0.1 + 0.2). Amounts cross the API as JSON
 * numbers with at most six decimals.
 */

export const MICROS_PER_UNIT = 1_000_000;

/** The largest amount accepted anywhere (a price, a limit): far above any real budget, far below 2^53 micros. */
export const MONEY_MAX = 1_000_000_000;

/** A decimal amount as micro-units, rounded to the nearest one. */
export const toMicros = (amount: number): number => Math.round(amount * MICROS_PER_UNIT);

/** Micro-units as a decimal amount (the nearest double, which prints with at most six decimals). */
export const fromMicros = (micros: number): number => micros / MICROS_PER_UNIT;

/** An amount for people: two decimals, more only when they matter (`0.0864 CNY`). */
export function formatMoney(micros: number, currency: string): string {
  const fraction = String(Math.abs(micros) % MICROS_PER_UNIT).padStart(6, '0').replace(/0+$/, '');
  return `${fromMicros(micros).toFixed(Math.max(2, fraction.length))} ${currency}`;
}
