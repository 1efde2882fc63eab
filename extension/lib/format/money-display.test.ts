import { describe, expect, it } from 'vitest';
import { formatAmount } from '@/lib/format/money-display';

describe('amounts in the popup', () => {
  it('shows cents, whole amounts without decimals, and what matters of a small amount', () => {
    expect(formatAmount(83.828, 'CNY')).toBe('83.83 CNY');
    expect(formatAmount(3.672, 'CNY')).toBe('3.67 CNY');
    expect(formatAmount(12.5, 'CNY')).toBe('12.50 CNY');
    expect(formatAmount(100, 'CNY')).toBe('100 CNY');
    expect(formatAmount(1000.004, 'CNY')).toBe('1000 CNY');
    expect(formatAmount(0.1 + 0.2, 'CNY')).toBe('0.30 CNY');
    expect(formatAmount(0, 'USD')).toBe('0 USD');
    expect(formatAmount(0.0864, 'CNY')).toBe('0.0864 CNY');
    expect(formatAmount(0.012345, 'CNY')).toBe('0.0123 CNY');
    expect(formatAmount(0.000012, 'CNY')).toBe('0.000012 CNY');
  });
});
