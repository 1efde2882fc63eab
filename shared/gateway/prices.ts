import * as v from 'valibot';
import { modelSpec } from '../catalog/models';
import { strictObjectMessage } from '../validation';
import { MONEY_MAX, toMicros } from './money';

/**
 * Prices of video output per model and resolution, and the cost of a task from them (docs/budgets.md).
 * One table for the team, kept by the proxy's ledger; the default below ships with the catalog.
 */

/** Output frames per second of every model of the catalog. */
export const FRAMES_PER_SECOND = 24;

const MODEL_ID_MAX = 128;
const RESOLUTION_MAX = 16;
const MODELS_MAX = 200;

const price = v.pipe(
  v.number('must be a number'),
  v.finite('must be a finite number'),
  v.minValue(0, 'must not be negative'),
  v.maxValue(MONEY_MAX, `must be at most ${MONEY_MAX}`),
);
const byResolution = v.pipe(
  v.record(v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(RESOLUTION_MAX, `must be at most ${RESOLUTION_MAX} characters`)), price, 'must map resolutions (or "*") to a price per second'),
  v.check((r) => Object.keys(r).length <= 8, 'must list at most 8 resolutions'),
);

/** `PUT /admin/prices`: `{"currency":"CNY","models":{"<model id>":{"<resolution>"|"*": <price per second>}}}`. */
export const priceTableSchema = v.strictObject(
  {
    currency: v.pipe(v.string('must be a string'), v.regex(/^[A-Z]{3}$/, 'must be a three-letter currency code such as CNY')),
    models: v.pipe(
      v.record(v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(MODEL_ID_MAX, `must be at most ${MODEL_ID_MAX} characters`)), byResolution, 'must map model ids to prices by resolution'),
      v.check((m) => Object.keys(m).length <= MODELS_MAX, `must list at most ${MODELS_MAX} models`),
    ),
    /** Where the prices come from and as of when: shown with them, not used in any sum. */
    note: v.optional(v.pipe(v.string('must be a string'), v.maxLength(500, 'must be at most 500 characters'))),
  },
  strictObjectMessage('is not a field of a price table'),
);
export type PriceTable = v.InferOutput<typeof priceTableSchema>;

/**
 * The default table: the vendor's public list prices for the Seedance models, which are per
 * million output tokens, turned into a price per second of video with the service's own token
 * count (width x height x frames / 1024 at 24 fps) at the 16:9 size of each resolution
 * (480p 864x480, 720p 1248x704, 1080p 1920x1088; the other ratios differ by under 4 %).
 * Per million tokens: 1.0 Pro 15, 1.0 Pro Fast 4.2, 1.0 Lite 10, 1.5 Pro 16 (with audio; 8
 * without, so silent 1.5 Pro tasks are over-reserved). Seedance 2.0 had no list price in that
 * source: it is left unpriced until the operator sets one (`PUT /admin/prices`).
 */
export const DEFAULT_PRICES: PriceTable = {
  currency: 'CNY',
  note: 'Volcengine Ark public list prices for Seedance (CNY per million tokens), as of 2026-11; per second at 24 fps, 16:9. Seedance 2.0: no public list price in that source, unpriced.',
  models: {
    'doubao-seedance-1-0-pro-250528': { '480p': 0.1458, '720p': 0.30888, '1080p': 0.7344 },
    'doubao-seedance-1-0-pro-fast-251015': { '480p': 0.040824, '720p': 0.086486, '1080p': 0.205632 },
    'doubao-seedance-1-0-lite-t2v-250428': { '480p': 0.0972, '720p': 0.20592, '1080p': 0.4896 },
    'doubao-seedance-1-0-lite-i2v-250428': { '480p': 0.0972, '720p': 0.20592, '1080p': 0.4896 },
    'doubao-seedance-1-5-pro-251215': { '480p': 0.15552, '720p': 0.329472, '1080p': 0.78336 },
  },
};

/** What a create asks for that its price depends on. */
export interface PricedRequest {
  model: string;
  resolution?: string | undefined;
  duration?: number | undefined;
  frames?: number | undefined;
}

/** The cost of one task, as reserved before the create and charged when it completes. */
export interface TaskCost {
  /** Micro-units of the table's currency; 0 when unpriced. */
  micros: number;
  /** Output frames the cost is for (seconds x 24). */
  frames: number;
  resolution: string | null;
  /** False when the table has no price for the model and resolution: the task costs nothing. */
  priced: boolean;
}

/**
 * Frames of output: `duration` x 24; else `frames`; else the model's default duration; for
 * `duration: -1` (the model picks) its longest, so that the reservation covers any choice.
 */
export function outputFrames(request: PricedRequest): number {
  const spec = modelSpec(request.model);
  if (request.duration === -1) {
    const rule = spec.parameters.duration;
    return (rule?.type === 'integer' ? rule.max : (spec.defaults?.duration ?? 0)) * FRAMES_PER_SECOND;
  }
  if (request.duration !== undefined) return request.duration * FRAMES_PER_SECOND;
  if (request.frames !== undefined) return request.frames;
  return (spec.defaults?.duration ?? 0) * FRAMES_PER_SECOND;
}

/** price(model, resolution) x seconds, in micro-units, rounded once at the end. */
export function taskCost(table: PriceTable, request: PricedRequest): TaskCost {
  const resolution = request.resolution ?? modelSpec(request.model).defaults?.resolution ?? null;
  const frames = outputFrames(request);
  const prices = Object.hasOwn(table.models, request.model) ? table.models[request.model]! : undefined;
  const perSecond = prices && resolution !== null && Object.hasOwn(prices, resolution) ? prices[resolution] : prices && Object.hasOwn(prices, '*') ? prices['*'] : undefined;
  if (perSecond === undefined) return { micros: 0, frames, resolution, priced: false };
  return { micros: Math.round((toMicros(perSecond) * frames) / FRAMES_PER_SECOND), frames, resolution, priced: true };
}
