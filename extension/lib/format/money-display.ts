import { formatMoney, toMicros } from '@@/shared';

const CENT_MICROS = 10_000;
/** Below this (0.1 of the currency), cents say too little: four decimals. */
const SMALL_MICROS = 100_000;

const roundTo = (micros: number, step: number) => Math.round(micros / step) * step;

/**
 * An amount of the proxy's (a decimal number in `currency`) as the popup shows it: to the cent
 * (`3.672` -> `3.67 CNY`), whole amounts without decimals (`100 CNY`), and a small amount with
 * the decimals that matter (`0.0864 CNY`, never `0.09` or `0.00`).
 */
export function formatAmount(amount: number, currency: string): string {
  const micros = toMicros(amount);
  if (Math.abs(micros) >= SMALL_MICROS) return formatMoney(roundTo(micros, CENT_MICROS), currency).replace(/\.00 /, ' ');
  if (micros === 0) return `0 ${currency}`;
  const fourDecimals = roundTo(micros, 100);
  return formatMoney(fourDecimals === 0 ? micros : fourDecimals, currency);
}
