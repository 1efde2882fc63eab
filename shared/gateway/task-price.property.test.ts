import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MODELS, RATIOS, SERVICE_TIERS } from '../catalog/models';
import { completionTokens } from '../catalog/output-size';
import { FRAMES_PER_SECOND, type PricedRequest, type PriceTable } from './prices';
import { PRICE_UNITS } from './quote';
import { taskCharge, taskCost, type TaskEnding } from './task-price';

/**
 * Properties of pricing over random tables (both units), models (of the catalog and not),
 * resolutions, ratios, durations and reported tokens: the reservation covers the charge unless the
 * charge is flagged as an overrun, and a per-token charge is tokens x price to the micro-unit.
 */

const UNKNOWN = 'acme-video-9';
const KEYS = ['*', '480p', '720p', '1080p', 'audio', 'silent', 'draft', 'flex', 'silent+flex', '720p+audio', '480p+draft'];
const price = fc.integer({ min: 0, max: 100_000_000 }).map((micros) => micros / 1_000_000);

const table = fc.record({
  unit: fc.constantFrom(...PRICE_UNITS, undefined),
  models: fc.dictionary(fc.constantFrom(...MODELS.map((m) => m.id), UNKNOWN), fc.dictionary(fc.constantFrom(...KEYS), price, { minKeys: 1 })),
}).map(({ unit, models }): PriceTable => ({ currency: 'CNY', ...(unit ? { unit } : {}), models }));

const request = fc.record(
  {
    model: fc.constantFrom(...MODELS.map((m) => m.id), UNKNOWN),
    resolution: fc.constantFrom('480p', '720p', '1080p'),
    ratio: fc.constantFrom(...RATIOS),
    duration: fc.oneof(fc.integer({ min: 2, max: 15 }), fc.constant(-1)),
    frames: fc.integer({ min: 7, max: 72 }).map((n) => 25 + 4 * n),
    generate_audio: fc.boolean(),
    draft: fc.boolean(),
    service_tier: fc.constantFrom(...SERVICE_TIERS),
  },
  { requiredKeys: ['model'] },
).map((r): PricedRequest => (r.frames !== undefined && r.duration !== undefined ? { ...r, frames: undefined } : r));

/** What the service reports for a create: its real output (the sandbox's count), or any number (a service that surprises). */
const reported = (r: PricedRequest) =>
  fc.oneof(fc.constant(serviceTokens(r)), fc.integer({ min: 0, max: 2_000_000 }), fc.constant(null));

/** The tokens of the video the service makes: the asked ratio, and for -1 any duration the model allows. */
function serviceTokens(r: PricedRequest): number {
  const duration = r.duration === -1 ? undefined : r.duration;
  return completionTokens({ ...r, duration, frames: r.duration === -1 ? 5 * FRAMES_PER_SECOND : r.frames, resolution: r.resolution ?? undefined });
}

describe('pricing properties', () => {
  it('reserved >= charged unless flagged overrun; per token, charged = tokens x price exactly; failed costs 0', () => {
    fc.assert(
      fc.property(table, request.chain((r) => fc.tuple(fc.constant(r), reported(r))), fc.constantFrom<TaskEnding>('completed', 'failed', 'expired'), (t, [r, tokens], ending) => {
        const reserved = taskCost(t, r);
        const charged = taskCharge(reserved, ending, tokens);
        expect(Number.isSafeInteger(reserved.micros) && Number.isSafeInteger(charged.micros)).toBe(true);
        if (ending === 'failed') expect(charged.micros).toBe(0);
        expect(charged.overrun).toBe(charged.micros > reserved.micros);
        if (!charged.overrun) expect(charged.micros).toBeLessThanOrEqual(reserved.micros);
        if (ending === 'completed' && reserved.priced && reserved.unit === 'million_tokens' && tokens !== null) {
          // charged - tokens x price in (-half, +half] of a micro-unit, in exact integers: rounded half up.
          const exact = BigInt(tokens) * BigInt(reserved.rate);
          const diff = BigInt(charged.micros) * 1_000_000n - exact;
          expect(diff > -500_000n && diff <= 500_000n, `${diff}`).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('a charge of exactly half a micro-unit is rounded up (the case a run of the property above found)', () => {
    // 108,000 tokens at 58.689875 CNY per million: 6,338,506.5 micro-CNY.
    expect(taskCharge({ micros: 10_000_000, unit: 'million_tokens', rate: 58_689_875, priced: true }, 'completed', 108_000)).toEqual({ micros: 6_338_507, overrun: false });
  });

  it("the service's real output never overruns a reservation made from the catalog", () => {
    fc.assert(
      fc.property(table, request, (t, r) => {
        const reserved = taskCost(t, r);
        const charged = taskCharge(reserved, 'completed', serviceTokens(r));
        expect(charged.overrun).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });
});
