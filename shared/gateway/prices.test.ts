import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { check } from '../validation';
import { MODEL_IDS as M } from '../catalog/testing/model-ids';
import { DEFAULT_PRICES, LONGEST_CATALOG_SECONDS, outputFrames, parseVariantKey, priceTableSchema, priceTableUpdateSchema, tableUnit } from './prices';

describe('outputFrames', () => {
  it('takes duration first, then frames, then the model default, and the longest for -1', () => {
    expect(outputFrames({ model: M.pro, duration: 5 })).toBe(120);
    expect(outputFrames({ model: M.pro, frames: 29 })).toBe(29);
    expect(outputFrames({ model: M.pro })).toBe(120);
    expect(outputFrames({ model: M.pro15, duration: -1 })).toBe(12 * 24);
    expect(outputFrames({ model: M.s2, duration: -1 })).toBe(15 * 24);
  });

  it('a model outside the catalog counts the longest duration any catalog model allows, unless the create says duration', () => {
    expect(LONGEST_CATALOG_SECONDS).toBe(15);
    expect(outputFrames({ model: 'acme-video-9' })).toBe(15 * 24);
    expect(outputFrames({ model: 'acme-video-9', duration: -1 })).toBe(15 * 24);
    expect(outputFrames({ model: 'acme-video-9', duration: 3 })).toBe(72);
  });
});

describe('variant keys', () => {
  it('parses "*" and conditions in their order: resolution, audio|silent, draft, flex', () => {
    expect(parseVariantKey('*')).toEqual({ resolution: null, audio: null, draft: false, flex: false });
    expect(parseVariantKey('720p')).toEqual({ resolution: '720p', audio: null, draft: false, flex: false });
    expect(parseVariantKey('480p+silent+draft+flex')).toEqual({ resolution: '480p', audio: 'silent', draft: true, flex: true });
    expect(parseVariantKey('audio+flex')).toEqual({ resolution: null, audio: 'audio', draft: false, flex: true });
  });

  it('refuses keys out of order, repeated, combined with "*", or unknown: each meaning has one spelling', () => {
    for (const key of ['flex+silent', 'silent+720p', 'audio+silent', 'draft+draft', '*+flex', 'hd', '', '720p+', 'toString', 'Flex']) {
      expect(parseVariantKey(key), key).toBeNull();
    }
  });
});

describe('priceTableSchema', () => {
  it('accepts the default table: per million tokens, dated', () => {
    expect(v.safeParse(priceTableSchema, DEFAULT_PRICES).success).toBe(true);
    expect(tableUnit(DEFAULT_PRICES)).toBe('million_tokens');
    expect(DEFAULT_PRICES.note).toMatch(/as of \d{4}-\d{2}/);
    expect(DEFAULT_PRICES.models[M.pro15]).toEqual({ '*': 16, silent: 8 });
    expect(DEFAULT_PRICES.models[M.s2]).toBeUndefined();
  });

  it('a table without unit (written before units) is per second', () => {
    const old = { currency: 'CNY', models: { [M.pro]: { '480p': 0.1458, '720p': 0.30888, '1080p': 0.7344 } } };
    const r = check(priceTableSchema, old);
    expect(r.ok && tableUnit(r.value)).toBe('second');
  });

  it('names the field of a bad price, unit or variant key', () => {
    const r = check(priceTableSchema, { currency: 'CNY', models: { m: { '720p': -1 } } });
    expect(!r.ok && r.problem.field).toBe('models.m.720p');
    const c = check(priceTableSchema, { currency: 'yuan', models: {} });
    expect(!c.ok && c.problem.field).toBe('currency');
    const extra = check(priceTableSchema, { currency: 'CNY', models: {}, discount: 1 });
    expect(!extra.ok && extra.problem.field).toBe('discount');
    const unit = check(priceTableSchema, { currency: 'CNY', unit: 'minute', models: {} });
    expect(!unit.ok && unit.problem.message).toBe('unit: must be second or million_tokens');
    const key = check(priceTableSchema, { currency: 'CNY', models: { m: { 'flex+silent': 1 } } });
    expect(!key.ok && key.problem.field).toBe('models.m.flex+silent');
  });

  it('the update schema takes what GET answers: isDefault and updatedAt are read-only and dropped', () => {
    const answered = { ...DEFAULT_PRICES, isDefault: true, updatedAt: null };
    const r = check(priceTableUpdateSchema, answered);
    expect(r.ok && r.value).toEqual(DEFAULT_PRICES);
    const other = check(priceTableUpdateSchema, { ...answered, table: {} });
    expect(!other.ok && other.problem.field).toBe('table');
  });
});

describe('a price table is what it means', () => {
  const put = (models: unknown) => check(priceTableUpdateSchema, JSON.parse(JSON.stringify({ currency: 'CNY', models })));
  const reserved = (json: string) => check(priceTableUpdateSchema, JSON.parse(`{"currency":"CNY","models":${json}}`));

  it.each([
    ['a list of models', [], 'models'],
    ['a list of prices by variant', [{ '*': 1 }], 'models'],
    ['a model with no price', { m: {} }, 'models.m'],
    ['a list as the prices of a model', { m: [1] }, 'models.m'],
    ['an unknown variant key', { m: { cheap: 1 } }, 'models.m.cheap'],
    ['a price that rounds to 0 micro-units', { m: { '*': 1e-7 } }, 'models.m.*'],
    ['a price that rounds to 0 micro-units under a variant', { m: { '*': 1, silent: 4.9e-7 } }, 'models.m.silent'],
  ])('refuses %s, naming %s', (_why, models, field) => {
    const r = put(models);
    expect(!r.ok && r.problem.field).toBe(field);
  });

  it.each([
    ['{"__proto__":{"*":1}}', 'models.__proto__'],
    ['{"constructor":{"*":1}}', 'models.constructor'],
    ['{"m":{"prototype":1}}', 'models.m.prototype'],
    ['{"m":{"*":1,"__proto__":2}}', 'models.m.__proto__'],
  ])('refuses the reserved key in %s, naming %s', (json, field) => {
    const r = reserved(json);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problem).toEqual({ field, message: `${field}: is a reserved name and cannot be a key` });
  });

  it('takes a free price (0), the smallest micro-unit, and an empty table (every model unpriced)', () => {
    expect(put({ m: { '*': 0, silent: 0.000001 } })).toEqual({ ok: true, value: { currency: 'CNY', models: { m: { '*': 0, silent: 0.000001 } } } });
    expect(put({}).ok).toBe(true);
  });
});
