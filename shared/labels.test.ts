import { afterEach, describe, expect, it, vi } from 'vitest';
import * as v from 'valibot';
import { cleanLabel, cutLabel, labelField, labelOrNullField, LABEL_UNITS_PER_CHARACTER } from './labels';
import { check } from './validation';

/** The one label rule (shared/labels.ts): what every stored member name, token label, source title and upload name goes through. */

const field = (max: number) => v.object({ label: labelField(max) });

afterEach(() => vi.restoreAllMocks());

describe('cleanLabel', () => {
  it('removes control characters, C0, DEL and C1 alike', () => {
    expect(cleanLabel('a\u0000b\u0007c\u001fd\u007fe\u0080f\u009fg\th\ni')).toBe('abcdefghi');
  });

  it('removes bidirectional embeddings, overrides and isolates, and keeps the direction marks', () => {
    expect(cleanLabel('photo\u202Egpj.exe')).toBe('photogpj.exe');
    expect(cleanLabel('\u202Aa\u202Bb\u202Cc\u202Dd\u2066e\u2067f\u2068g\u2069')).toBe('abcdefg');
    expect(cleanLabel('\u05D0\u200E1\u200F\u061C')).toBe('\u05D0\u200E1\u200F\u061C');
  });

  it('normalises to NFC, also where a removed character stood between the two that compose', () => {
    expect(cleanLabel('e\u0301')).toBe('\u00E9');
    expect(cleanLabel('e\u0000\u0301')).toBe('\u00E9');
  });

  it('trims spaces left at either end once the rest is removed', () => {
    expect(cleanLabel(' \u202E Ada \u0007 ')).toBe('Ada');
  });

  it('removes unpaired surrogates and keeps pairs', () => {
    expect(cleanLabel('a\uD800b\uDC00c\uD83D\uDE00')).toBe('abc\uD83D\uDE00');
  });

  it('is one linear pass on a long hostile input', () => {
    const hostile = '\uD800\u0007\u202E x\uDC00'.repeat(200_000);
    // Compared as a boolean: a failure must not print megabytes.
    expect(cleanLabel(hostile) === ' x'.repeat(200_000).trim()).toBe(true);
  });
});

describe('labelField', () => {
  it('stores the cleaned label', () => {
    expect(check(field(64), { label: ' Ada\u0000\u0007\u202E ' })).toEqual({ ok: true, value: { label: 'Ada' } });
  });

  it('refuses a label with nothing left, naming the field', () => {
    for (const empty of ['', '   ', '\u0000\u0007\u202E', ' \u2066\u2069 '])
      expect(check(field(64), { label: empty })).toMatchObject({ ok: false, problem: { field: 'label', message: expect.stringMatching(/^label: must not be empty/) } });
  });

  it('counts characters as people see them: 300 emoji are 300 characters', () => {
    expect(check(field(300), { label: '\u{1F600}'.repeat(300) }).ok).toBe(true);
    expect(check(field(300), { label: '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}'.repeat(300) }).ok).toBe(true);
    expect(check(field(300), { label: '\u{1F600}'.repeat(301) })).toMatchObject({ ok: false, problem: { field: 'label', message: 'label: must be at most 300 characters' } });
  });

  it('counts after cleaning: removed characters and composed accents do not count', () => {
    expect(check(field(3), { label: '\u202Ee\u0301\u0000ab ' })).toEqual({ ok: true, value: { label: '\u00E9ab' } });
    expect(check(field(3), { label: 'abcd' }).ok).toBe(false);
  });

  it('refuses a raw text over its bound before cleaning it (bounded work for any input)', () => {
    const normalize = vi.spyOn(String.prototype, 'normalize');
    const result = check(field(2), { label: 'a'.repeat(2 * LABEL_UNITS_PER_CHARACTER + 1) });
    expect(result).toMatchObject({ ok: false, problem: { field: 'label', message: 'label: must be at most 2 characters' } });
    expect(normalize).not.toHaveBeenCalled();
    // One character of a thousand stacked accents is over the bound too.
    expect(check(field(100), { label: `a${'\u0301'.repeat(100 * LABEL_UNITS_PER_CHARACTER)}` }).ok).toBe(false);
  });

  it('says a non-string is not a string', () => {
    expect(check(field(8), { label: 7 })).toMatchObject({ ok: false, problem: { field: 'label', message: 'label: must be a string' } });
  });
});

describe('labelOrNullField', () => {
  it('is null when nothing is left, the cleaned text otherwise', () => {
    expect(v.parse(labelOrNullField(10), '\u202E \u0000')).toBeNull();
    expect(v.parse(labelOrNullField(10), ' x\u0007y ')).toBe('xy');
  });
});

describe('cutLabel', () => {
  it('cuts at whole characters, never half an emoji', () => {
    expect(cutLabel('\u{1F600}\u{1F600}\u{1F600}', 2)).toBe('\u{1F600}\u{1F600}');
    expect(cutLabel('abc', 5)).toBe('abc');
  });
});
