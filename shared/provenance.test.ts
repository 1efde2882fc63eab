import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { assetSourceInputSchema, SOURCE_BATCH_MAX, sourceLookupSchema, stripSourceText } from './provenance';

/** The shapes of asset sources (shared/provenance.ts), as the proxy checks them and the extension sends them. */

const ok = { pageUrl: 'https://example.com/a', pageTitle: 'A page', capturedAt: '2026-11-26T10:00:00+01:00', how: 'link' };

describe('asset source schemas', () => {
  it('cleans the title and URL and normalises the time to UTC', () => {
    const out = v.parse(assetSourceInputSchema, { ...ok, pageTitle: ' \u202Eab\u0000c\u2069 ', pageUrl: 'https://example.com/\u0085a' });
    expect(out).toEqual({ pageUrl: 'https://example.com/a', pageTitle: 'abc', capturedAt: '2026-11-26T09:00:00.000Z', how: 'link' });
    expect(v.parse(assetSourceInputSchema, { ...ok, pageTitle: '\u202E' }).pageTitle).toBeNull();
    expect(stripSourceText('x\u202Ay\u2066z')).toBe('xyz');
  });

  it('refuses non-http URLs, over-long fields, a time without a zone, an unknown how', () => {
    for (const bad of [
      { ...ok, pageUrl: 'file:///etc/passwd' },
      { ...ok, pageUrl: `https://e.com/${'a'.repeat(2048)}` },
      { ...ok, pageTitle: 'x'.repeat(301) },
      { ...ok, capturedAt: '2026-11-26T10:00:00' },
      { ...ok, how: 'paste' },
    ]) expect(v.safeParse(assetSourceInputSchema, bad).success, JSON.stringify(bad).slice(0, 80)).toBe(false);
  });

  it('a lookup takes 1 to 100 ids', () => {
    expect(v.safeParse(sourceLookupSchema, { ids: [] }).success).toBe(false);
    expect(v.safeParse(sourceLookupSchema, { ids: Array(SOURCE_BATCH_MAX).fill('a') }).success).toBe(true);
    expect(v.safeParse(sourceLookupSchema, { ids: Array(SOURCE_BATCH_MAX + 1).fill('a') }).success).toBe(false);
  });
});
