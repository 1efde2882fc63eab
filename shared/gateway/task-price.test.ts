import { describe, expect, it } from 'vitest';
import { completionTokens } from '../catalog/output-size';
import { MODEL_IDS as M } from '../catalog/testing/model-ids';
import { DEFAULT_PRICES, type PriceTable } from './prices';
import { largestOutputSize, taskCharge, taskCost, taskVariant, tokenCharge, variantFor } from './task-price';
import { modelSpec } from '../catalog/models';

/** What a task costs: reservation (the most it can cost) and settlement (what the service reports). */

const PER_SECOND: PriceTable = { currency: 'CNY', models: { m: { '720p': 0.3, '*': 0.1 }, [M.pro]: { '480p': 0.1458, '720p': 0.30888, '1080p': 0.7344 } } };

/** The charge of a completed task that reported what the service bills for this create. */
const settled = (table: PriceTable, request: Parameters<typeof completionTokens>[0]) => {
  const reserved = taskCost(table, request);
  const tokens = completionTokens(request);
  return { reserved, tokens, charged: taskCharge(reserved, 'completed', tokens) };
};

describe('the defects of per-second prices, fixed by per-token settlement', () => {
  it.each([
    ['21:9', 1504 * 640],
    ['4:3', 1120 * 832],
    ['1:1', 960 * 960],
  ])('720p %s on 1.5 Pro is charged tokens x list price exactly (the 16:9 per-second price undercharged it)', (ratio, pixels) => {
    const { reserved, tokens, charged } = settled(DEFAULT_PRICES, { model: M.pro15, resolution: '720p', ratio, duration: 5 });
    expect(tokens).toBe((pixels * 120) / 1024);
    expect(charged).toEqual({ micros: tokens * 16, overrun: false }); // 16 CNY per million tokens = 16 micro-units a token
    expect(reserved.micros).toBeGreaterThanOrEqual(charged.micros);
  });

  it('a silent 1.5 Pro task is charged the silent price (8), one with audio or left to the model 16', () => {
    const silent = settled(DEFAULT_PRICES, { model: M.pro15, resolution: '720p', ratio: '16:9', duration: 5, generate_audio: false });
    expect(silent.reserved).toMatchObject({ variant: 'silent', rate: 8_000_000 });
    expect(silent.charged.micros).toBe(silent.tokens * 8);
    expect(taskCost(DEFAULT_PRICES, { model: M.pro15, duration: 5 })).toMatchObject({ variant: '*', rate: 16_000_000 });
    expect(taskCost(DEFAULT_PRICES, { model: M.pro15, duration: 5, generate_audio: true })).toMatchObject({ variant: '*', rate: 16_000_000 });
  });

  it('draft and service_tier are priced by their variants', () => {
    const table: PriceTable = { currency: 'CNY', unit: 'million_tokens', models: { [M.pro15]: { '*': 16, silent: 8, draft: 6, flex: 8, 'silent+flex': 4, '480p+draft+flex': 2 } } };
    const at = (extra: object) => taskCost(table, { model: M.pro15, resolution: '480p', duration: 5, ...extra });
    expect(at({ draft: true })).toMatchObject({ variant: 'draft', rate: 6_000_000 });
    expect(at({ service_tier: 'flex' })).toMatchObject({ variant: 'flex', rate: 8_000_000 });
    expect(at({ service_tier: 'flex', generate_audio: false })).toMatchObject({ variant: 'silent+flex', rate: 4_000_000 });
    expect(at({ service_tier: 'flex', draft: true })).toMatchObject({ variant: '480p+draft+flex', rate: 2_000_000 });
    expect(at({ service_tier: 'default' })).toMatchObject({ variant: '*' });
  });

  it('a priced model outside the catalog is reserved for the longest catalog duration at the largest size: never free', () => {
    const table: PriceTable = { currency: 'CNY', models: { 'acme-video-9': { '*': 1 } } };
    expect(taskCost(table, { model: 'acme-video-9' })).toMatchObject({ micros: 15_000_000, priced: true, frames: 360, resolution: null });
    expect(taskCost(table, { model: 'acme-video-9', duration: 4 }).micros).toBe(4_000_000);
    const tokens = taskCost({ ...table, unit: 'million_tokens' }, { model: 'acme-video-9' });
    expect(tokens).toMatchObject({ tokens: (1920 * 1088 * 360) / 1024, priced: true });
    expect(tokens.micros).toBeGreaterThan(0);
  });
});

describe('variant precedence', () => {
  const task = taskVariant({ model: M.pro15, resolution: '720p', generate_audio: false, service_tier: 'flex' });

  it('the matching key with the most conditions wins; ties go to flex, then draft, then audio/silent, then resolution', () => {
    expect(variantFor({ '*': 1, silent: 2, flex: 3 }, task)).toBe('flex');
    expect(variantFor({ '*': 1, '720p': 2, silent: 3 }, task)).toBe('silent');
    expect(variantFor({ '*': 1, flex: 2, '720p+silent': 3 }, task)).toBe('720p+silent');
    expect(variantFor({ audio: 1, '1080p': 2 }, task)).toBeNull();
  });

  it('a catalog model without generate_audio is silent; a model outside the catalog matches neither audio nor silent', () => {
    expect(taskVariant({ model: M.pro }).audio).toBe('silent');
    expect(taskVariant({ model: 'acme-video-9' })).toEqual({ resolution: null, audio: null, draft: false, flex: false });
  });
});

describe('reservation', () => {
  it('per million tokens: the largest output size of the resolution over the model ratios, for the longest duration', () => {
    expect(largestOutputSize('720p', modelSpec(M.pro15))).toEqual({ width: 1504, height: 640 });
    expect(largestOutputSize('1080p', modelSpec(M.pro))).toEqual({ width: 1920, height: 1088 });
    // 1.5 Pro, 720p, duration -1 (the model picks, up to 12 s): 1504 x 640 x 288 / 1024 tokens x 16.
    const r = taskCost(DEFAULT_PRICES, { model: M.pro15, resolution: '720p', duration: -1 });
    expect(r).toMatchObject({ unit: 'million_tokens', tokens: 270_720, frames: 288, micros: 270_720 * 16 });
  });

  it('per second (a table without unit): price x seconds as before, "*" for a resolution not listed', () => {
    expect(taskCost(PER_SECOND, { model: 'm', resolution: '720p', duration: 5 })).toMatchObject({ micros: 1_500_000, frames: 120, unit: 'second', tokens: null });
    expect(taskCost(PER_SECOND, { model: M.pro })).toMatchObject({ micros: 3_672_000, resolution: '1080p' });
    expect(taskCost(PER_SECOND, { model: M.pro, resolution: '1080p', frames: 29 }).micros).toBe(887_400);
  });

  it('the default table keeps 1.0 Pro 1080p 5 s at 3.672 CNY (16:9 is its largest 1080p size)', () => {
    expect(taskCost(DEFAULT_PRICES, { model: M.pro })).toMatchObject({ micros: 3_672_000, tokens: 244_800 });
  });

  it('costs nothing and says unpriced for a model or variant without a price; never reads the prototype', () => {
    expect(taskCost(PER_SECOND, { model: 'unknown-model', duration: 5 })).toMatchObject({ micros: 0, priced: false });
    expect(taskCost(PER_SECOND, { model: M.pro, resolution: 'toString' })).toMatchObject({ micros: 0, priced: false });
    expect(taskCost(DEFAULT_PRICES, { model: M.s2 })).toMatchObject({ micros: 0, priced: false });
    expect(taskCost(PER_SECOND, { model: 'constructor' }).priced).toBe(false);
  });
});

describe('settlement', () => {
  const reserved = { micros: 1_000_000, unit: 'million_tokens' as const, rate: 16_000_000, priced: true };

  it('tokens x price to the micro-unit, rounded half up; the rest of the reservation is released', () => {
    expect(tokenCharge(102_960, 16_000_000)).toBe(1_647_360);
    expect(tokenCharge(1, 4_200_000)).toBe(4); // 4.2 micro-units
    expect(tokenCharge(1, 4_500_000)).toBe(5); // half up
    expect(taskCharge(reserved, 'completed', 50_000)).toEqual({ micros: 800_000, overrun: false });
  });

  it('more tokens than reserved: the actual is charged and flagged as an overrun', () => {
    expect(taskCharge(reserved, 'completed', 100_000)).toEqual({ micros: 1_600_000, overrun: true });
  });

  it('no tokens reported, per second, or expired: the reservation; failed: nothing', () => {
    expect(taskCharge(reserved, 'completed', null)).toEqual({ micros: 1_000_000, overrun: false });
    expect(taskCharge({ ...reserved, unit: 'second' }, 'completed', 50_000)).toEqual({ micros: 1_000_000, overrun: false });
    expect(taskCharge(reserved, 'expired', 50_000)).toEqual({ micros: 1_000_000, overrun: false });
    expect(taskCharge(reserved, 'failed', 50_000)).toEqual({ micros: 0, overrun: false });
  });
});
