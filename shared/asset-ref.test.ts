import { describe, expect, it } from 'vitest';
import { ASSET_SCHEME, isAssetRef, parseAssetRef, toAssetRef } from './asset-ref';

describe('toAssetRef', () => {
  it('prefixes the asset id with asset://', () => {
    expect(ASSET_SCHEME).toBe('asset://');
    expect(toAssetRef('asset-20260101-abc')).toBe('asset://asset-20260101-abc');
  });

  it('round-trips through parseAssetRef', () => {
    for (const id of ['a', 'abc_DEF-123', 'x'.repeat(128)]) expect(parseAssetRef(toAssetRef(id))).toBe(id);
  });
});

describe('isAssetRef', () => {
  it('is true for anything starting with asset://, well-formed or not', () => {
    expect(isAssetRef('asset://abc')).toBe(true);
    expect(isAssetRef('asset://')).toBe(true);
    expect(isAssetRef('asset://a/b')).toBe(true);
  });

  it('is false for other schemes and for a missing //', () => {
    expect(isAssetRef('https://example.com/a.png')).toBe(false);
    expect(isAssetRef('asset:abc')).toBe(false);
    expect(isAssetRef('ASSET://abc')).toBe(false);
    expect(isAssetRef(' asset://abc')).toBe(false);
  });
});

describe('parseAssetRef', () => {
  it('returns the id of a well-formed reference', () => {
    expect(parseAssetRef('asset://abc123')).toBe('abc123');
    expect(parseAssetRef('asset://A-b_9')).toBe('A-b_9');
  });

  it('returns null for a non-asset URL', () => {
    expect(parseAssetRef('https://example.com/asset://abc')).toBeNull();
    expect(parseAssetRef('abc')).toBeNull();
  });

  it('returns null for an empty id', () => {
    expect(parseAssetRef('asset://')).toBeNull();
  });

  it('returns null for an id with path, query, space or other characters', () => {
    for (const bad of ['asset://a/b', 'asset://a?b', 'asset://a b', 'asset://a.b', 'asset://a:b', 'asset://a@b', 'asset://abc/'])
      expect(parseAssetRef(bad), bad).toBeNull();
  });

  it('accepts ids up to 128 characters and rejects 129', () => {
    expect(parseAssetRef(`asset://${'x'.repeat(128)}`)).toBe('x'.repeat(128));
    expect(parseAssetRef(`asset://${'x'.repeat(129)}`)).toBeNull();
  });

  it('rejects two references in one string', () => {
    expect(parseAssetRef('asset://a,asset://b')).toBeNull();
  });
});
