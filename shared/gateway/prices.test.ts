import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { check } from '../validation';
import { DEFAULT_PRICES, outputFrames, priceTableSchema, taskCost, type PriceTable } from './prices';

const table: PriceTable = { currency: 'CNY', models: { m: { '720p': 0.3, '*': 0.1 }, 'doubao-seedance-1-0-pro-250528': { '1080p': 0.7344 } } };

describe('outputFrames', () => {
  it('takes duration first, then frames, then the model default, and the longest for -1', () => {
    expect(outputFrames({ model: 'doubao-seedance-1-0-pro-250528', duration: 5 })).toBe(120);
    expect(outputFrames({ model: 'doubao-seedance-1-0-pro-250528', frames: 29 })).toBe(29);
    expect(outputFrames({ model: 'doubao-seedance-1-0-pro-250528' })).toBe(120);
    expect(outputFrames({ model: 'doubao-seedance-1-5-pro-251215', duration: -1 })).toBe(12 * 24);
    expect(outputFrames({ model: 'doubao-seedance-2-0-260128', duration: -1 })).toBe(15 * 24);
  });
});

describe('taskCost', () => {
  it('is price per second x seconds, in micro-units', () => {
    expect(taskCost(table, { model: 'm', resolution: '720p', duration: 5 })).toEqual({ micros: 1_500_000, frames: 120, resolution: '720p', priced: true });
  });

  it('uses "*" for a resolution the table does not list', () => {
    expect(taskCost(table, { model: 'm', resolution: '480p', duration: 10 }).micros).toBe(1_000_000);
  });

  it("prices frames/24 seconds exactly: 29 frames of 1080p 1.0 Pro", () => {
    // 0.7344 CNY/s x 29/24 s = 0.8874 CNY
    expect(taskCost(table, { model: 'doubao-seedance-1-0-pro-250528', resolution: '1080p', frames: 29 }).micros).toBe(887_400);
  });

  it("uses the model's default resolution and duration when the create leaves them out", () => {
    // 1.0 Pro defaults to 1080p and 5 s: 0.7344 x 5 = 3.672 CNY, the vendor's 3.67 for a 5 s 1080p video.
    expect(taskCost(DEFAULT_PRICES, { model: 'doubao-seedance-1-0-pro-250528' })).toEqual({ micros: 3_672_000, frames: 120, resolution: '1080p', priced: true });
  });

  it('costs nothing and says unpriced for a model or resolution without a price', () => {
    expect(taskCost(table, { model: 'unknown-model', duration: 5 })).toMatchObject({ micros: 0, priced: false });
    expect(taskCost(table, { model: 'doubao-seedance-1-0-pro-250528', resolution: '480p' })).toMatchObject({ micros: 0, priced: false });
    expect(taskCost(DEFAULT_PRICES, { model: 'doubao-seedance-2-0-260128' })).toMatchObject({ micros: 0, priced: false });
  });

  it('never reads prices off the object prototype', () => {
    expect(taskCost(table, { model: 'constructor' }).priced).toBe(false);
    expect(taskCost(table, { model: 'm', resolution: 'toString' }).micros).toBe(0); // "*" applies: 0.1 x 0 s
  });
});

describe('priceTableSchema', () => {
  it('accepts the default table', () => {
    expect(v.safeParse(priceTableSchema, DEFAULT_PRICES).success).toBe(true);
  });

  it('names the field of a bad price', () => {
    const r = check(priceTableSchema, { currency: 'CNY', models: { m: { '720p': -1 } } });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problem.field).toBe('models.m.720p');
    const c = check(priceTableSchema, { currency: 'yuan', models: {} });
    expect(!c.ok && c.problem.field).toBe('currency');
    const extra = check(priceTableSchema, { currency: 'CNY', models: {}, discount: 1 });
    expect(!extra.ok && extra.problem.field).toBe('discount');
  });
});
