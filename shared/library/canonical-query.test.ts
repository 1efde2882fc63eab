import { describe, expect, it } from 'vitest';
import { canonicalQuery } from './canonical-query';

const of = (query: string) => canonicalQuery(new URLSearchParams(query));

describe('canonicalQuery', () => {
  it('sorts pairs by key, and encodes keys and values as RFC 3986 says', () => {
    expect(of('Version=2024-01-01&Action=List Assets')).toBe('Action=List%20Assets&Version=2024-01-01');
    expect(of("a=it's(1)*!")).toBe('a=it%27s%281%29%2A%21');
  });

  it('orders by key before value: a=1 comes before a-b=2 (sorting joined "k=v" text would not)', () => {
    expect(of('a-b=2&a=1')).toBe('a=1&a-b=2');
  });

  it('orders the values of a repeated key', () => {
    expect(of('a=2&b=0&a=1')).toBe('a=1&a=2&b=0');
  });
});
