import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { modelSpec, MODELS } from '../catalog/models';
import { check } from '../validation';
import { toMicros } from './money';
import { parseVariantKey, priceTableUpdateSchema, type PricedRequest, type PriceTable } from './prices';
import { PRICE_UNITS } from './quote';
import { outputTokens, largestOutputSize, taskCost } from './task-price';

/**
 * Properties of the price table's schema over tables written as an operator might (good and bad keys,
 * prices of every size, lists where objects belong): a table it accepts reads back the same from its
 * JSON, and prices every create it lists a price for, at that price to the micro-unit.
 */

const GOOD_KEYS = ['*', '480p', '720p', '1080p', 'audio', 'silent', 'draft', 'flex', 'silent+flex', '720p+audio', '480p+draft', '1080p+audio+flex'];
const BAD_KEYS = ['__proto__', 'constructor', 'prototype', 'flex+silent', 'cheap', '', '720P'];
const OUTSIDE = 'acme-video-9';
const PRO15 = 'doubao-seedance-1-5-pro-251215';
const MODEL_IDS = [...MODELS.map((m) => m.id), OUTSIDE];

const price = fc.oneof(
  { arbitrary: fc.integer({ min: 0, max: 100_000_000 }).map((micros) => micros / 1_000_000), weight: 8 },
  { arbitrary: fc.double(), weight: 1 },
  { arbitrary: fc.constantFrom(1e-7, 4.9e-7, -0, Number.MIN_VALUE), weight: 4 },
);
const variants = fc.oneof(
  fc.dictionary(fc.constantFrom(...GOOD_KEYS, ...BAD_KEYS), price, { maxKeys: 4 }),
  fc.array(price, { maxLength: 2 }),
);
/** JSON as a client sends it: reserved keys become the object's own properties, as JSON.parse makes them. */
const table = fc
  .record({
    unit: fc.constantFrom(...PRICE_UNITS, undefined),
    models: fc.oneof(fc.dictionary(fc.constantFrom(...MODEL_IDS, ...BAD_KEYS), variants, { maxKeys: 4 }), fc.array(variants, { maxLength: 2 })),
  })
  .map(({ unit, models }) => JSON.parse(JSON.stringify({ currency: 'CNY', ...(unit ? { unit } : {}), models })) as unknown);

/** A create whose conditions are exactly those of a variant key. */
function requestFor(model: string, key: string): PricedRequest {
  const k = parseVariantKey(key)!;
  return {
    model,
    duration: 5,
    ...(k.resolution ? { resolution: k.resolution } : {}),
    ...(k.audio ? { generate_audio: k.audio === 'audio' } : {}),
    ...(k.draft ? { draft: true } : {}),
    ...(k.flex ? { service_tier: 'flex' } : {}),
  };
}

describe('the price table schema', () => {
  it('a table it accepts reads back the same from its JSON and prices what it lists at that price', () => {
    fc.assert(
      fc.property(table, (input) => {
        const parsed = check(priceTableUpdateSchema, input);
        if (!parsed.ok) return;
        const accepted: PriceTable = parsed.value;
        const again = check(priceTableUpdateSchema, JSON.parse(JSON.stringify(accepted)));
        expect(again).toEqual({ ok: true, value: accepted });
        for (const [, byVariant] of Object.entries(accepted.models)) {
          expect(Object.keys(byVariant).length).toBeGreaterThan(0);
          for (const [key, amount] of Object.entries(byVariant)) {
            expect(parseVariantKey(key)).not.toBeNull();
            expect(amount === 0 || toMicros(amount) > 0).toBe(true);
            // That price alone, for a model whose creates have exactly the conditions they ask for
            // (one outside the catalog has no sound to ask for; 1.5 Pro does): a create with the
            // key's conditions costs exactly it.
            const model = parseVariantKey(key)!.audio ? PRO15 : OUTSIDE;
            const alone: PriceTable = { ...accepted, models: { [model]: { [key]: amount } } };
            const request = requestFor(model, key);
            const cost = taskCost(alone, request);
            expect(cost.priced).toBe(true);
            const rate = toMicros(amount);
            const expected = cost.unit === 'second'
              ? rate * 5
              : Math.round((outputTokens(largestOutputSize(cost.resolution, modelSpec(model)), 5 * 24) * rate) / 1_000_000);
            expect(cost.micros).toBe(expected);
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('accepts some tables and refuses others among those generated (the property is not vacuous)', () => {
    const outcomes = fc.sample(table, { numRuns: 300, seed: 7 }).map((t) => check(priceTableUpdateSchema, t).ok);
    expect(outcomes.filter(Boolean).length).toBeGreaterThan(10);
    expect(outcomes.filter((ok) => !ok).length).toBeGreaterThan(10);
  });
});
