import { describe, expect, it } from 'vitest';
import { formatMoney, fromMicros, toMicros } from './money';

describe('money in micro-units', () => {
  it('sums without float drift: ten times 0.1 is exactly 1', () => {
    let micros = 0;
    for (let i = 0; i < 10; i++) micros += toMicros(0.1);
    expect(fromMicros(micros)).toBe(1);
  });

  it('rounds to the nearest micro-unit', () => {
    expect(toMicros(0.0864864)).toBe(86_486);
    expect(toMicros(3.672)).toBe(3_672_000);
  });

  it('formats for people with the digits that matter', () => {
    expect(formatMoney(3_672_000, 'CNY')).toBe('3.672 CNY');
    expect(formatMoney(3_670_000, 'CNY')).toBe('3.67 CNY');
    expect(formatMoney(1_000_000, 'CNY')).toBe('1.00 CNY');
    expect(formatMoney(86_486, 'CNY')).toBe('0.086486 CNY');
    expect(formatMoney(0, 'CNY')).toBe('0.00 CNY');
  });
});
