import { describe, expect, it } from 'vitest';
import { bodyHash, canonicalJson } from './idempotency';

describe('canonicalJson', () => {
  it('sorts object keys at every level and drops whitespace', () => {
    expect(canonicalJson(JSON.parse('{ "b": [1, {"y": 2, "x": [true, null]}], "a": "s\\"" }'))).toBe('{"a":"s\\"","b":[1,{"x":[true,null],"y":2}]}');
  });

  it('writes what JSON.stringify writes for sorted input', () => {
    const value = { a: [1.5, -0, 1e308, 'é', [[]], {}], b: { c: null, d: false }, z__proto__: 1 };
    expect(canonicalJson(value)).toBe(JSON.stringify(value));
  });

  it('keeps a "__proto__" key as data', () => {
    expect(canonicalJson(JSON.parse('{"__proto__":{"polluted":1},"a":1}'))).toBe('{"__proto__":{"polluted":1},"a":1}');
  });

  it('walks a value nested 200,000 deep without recursion', () => {
    let value: unknown = 0;
    for (let i = 0; i < 200_000; i++) value = [value];
    const text = canonicalJson(value);
    expect(text.length).toBe(400_001);
  });
});

describe('bodyHash', () => {
  it('is the same for the same body in another key order, different for another body', async () => {
    expect(await bodyHash({ a: 1, b: [2] })).toBe(await bodyHash({ b: [2], a: 1 }));
    expect(await bodyHash({ a: 1 })).not.toBe(await bodyHash({ a: 2 }));
  });
});
