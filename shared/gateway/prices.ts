import * as v from 'valibot';
import { MODELS, modelSpec } from '../catalog/models';
import { recordOf, strictObjectMessage } from '../validation';
import { MONEY_MAX, toMicros } from './money';
import { PRICE_UNITS, type PriceUnit } from './quote';

/**
 * The team's price table (docs/budgets.md, "Prices"): per model, prices by variant, in one of two
 * units: per second of video (`"unit":"second"`, the default when `unit` is absent, as in tables
 * written before units existed) or per million output tokens (`"million_tokens"`, the vendor's own
 * unit). One table for the team, kept by the proxy's ledger; the default below ships with the catalog.
 * What a task costs from it is in task-price.ts.
 */

/** Output frames per second of every model of the catalog. */
export const FRAMES_PER_SECOND = 24;

const MODEL_ID_MAX = 128;
const MODELS_MAX = 200;
const VARIANTS_MAX = 16;

// --- variant keys ---

/**
 * A variant key: `*` (any task of the model), or conditions joined by `+`, at most one of each,
 * in this order: a resolution (`480p`, `720p`, `1080p`, ...), `audio` or `silent`, `draft`, `flex`
 * (`service_tier: "flex"`). Examples: `720p`, `silent`, `480p+draft`, `silent+flex`,
 * `1080p+audio+flex`. A task is priced by the matching key with the most conditions; between two
 * matching keys with as many, the one whose condition comes first in `flex`, `draft`,
 * `audio`/`silent`, resolution wins (so `flex` beats `silent` for a silent flex task). `*` matches
 * every task and is the last resort; no match: the task is unpriced.
 */
export interface VariantKey {
  resolution: string | null;
  audio: 'audio' | 'silent' | null;
  draft: boolean;
  flex: boolean;
}

export const ANY_VARIANT = '*';
const RESOLUTION_KEY = /^(\d{3,4}p|\dk)$/;

/** The conditions of a variant key, or null when it is not one (`*` is every field empty). */
export function parseVariantKey(key: string): VariantKey | null {
  const out: VariantKey = { resolution: null, audio: null, draft: false, flex: false };
  if (key === ANY_VARIANT) return out;
  // The position each condition must come after: resolution 0, audio/silent 1, draft 2, flex 3.
  let next = 0;
  for (const part of key.split('+')) {
    const rank = RESOLUTION_KEY.test(part) ? 0 : part === 'audio' || part === 'silent' ? 1 : part === 'draft' ? 2 : part === 'flex' ? 3 : -1;
    if (rank < next) return null;
    next = rank + 1;
    if (rank === 0) out.resolution = part;
    else if (rank === 1) out.audio = part as 'audio' | 'silent';
    else if (rank === 2) out.draft = true;
    else out.flex = true;
  }
  return out;
}

const VARIANT_KEY_RULE =
  'must be "*" or conditions joined by "+" in this order: a resolution (720p), audio or silent, draft, flex';

// --- the table ---

const price = v.pipe(
  v.number('must be a number'),
  v.finite('must be a finite number'),
  v.minValue(0, 'must not be negative'),
  v.maxValue(MONEY_MAX, `must be at most ${MONEY_MAX}`),
  // Amounts are kept in micro-units (money.ts): a smaller price would be stored as free.
  v.check((p) => p === 0 || toMicros(p) > 0, 'must be 0 or at least 0.000001 (smaller rounds to nothing)'),
);
const byVariant = v.pipe(
  recordOf(v.pipe(v.string(), v.check((key) => parseVariantKey(key) !== null, VARIANT_KEY_RULE)), price, 'must map variant keys ("*", "720p", "silent", ...) to a price'),
  // A model listed with no price would read as priced while pricing nothing.
  v.check((r) => Object.keys(r).length > 0, 'must list at least one price (remove the model to leave it unpriced)'),
  v.check((r) => Object.keys(r).length <= VARIANTS_MAX, `must list at most ${VARIANTS_MAX} variants`),
);

const tableEntries = {
  currency: v.pipe(v.string('must be a string'), v.regex(/^[A-Z]{3}$/, 'must be a three-letter currency code such as CNY')),
  /** What a price is for: a second of video (the default) or a million output tokens. */
  unit: v.optional(v.picklist(PRICE_UNITS, `must be ${PRICE_UNITS.join(' or ')}`)),
  models: v.pipe(
    recordOf(v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(MODEL_ID_MAX, `must be at most ${MODEL_ID_MAX} characters`)), byVariant, 'must map model ids to prices by variant'),
    v.check((m) => Object.keys(m).length <= MODELS_MAX, `must list at most ${MODELS_MAX} models`),
  ),
  /** Where the prices come from and as of when: shown with them, not used in any sum. */
  note: v.optional(v.pipe(v.string('must be a string'), v.maxLength(500, 'must be at most 500 characters'))),
};

/** A price table: `{"currency":"CNY","unit":"million_tokens","models":{"<model id>":{"*":16,"silent":8}},"note":"..."}`. */
export const priceTableSchema = v.strictObject(tableEntries, strictObjectMessage('is not a field of a price table'));
export type PriceTable = v.InferOutput<typeof priceTableSchema>;

/**
 * `PUT /admin/prices`: a price table, or exactly what `GET /admin/prices` answered (the table with
 * `isDefault` and `updatedAt` beside it: read-only, ignored), so that GET, edit, PUT round-trips.
 */
export const priceTableUpdateSchema = v.pipe(
  v.strictObject(
    { ...tableEntries, isDefault: v.optional(v.unknown()), updatedAt: v.optional(v.unknown()) },
    strictObjectMessage('is not a field of a price table'),
  ),
  v.transform(({ isDefault: _d, updatedAt: _u, ...table }): PriceTable => table),
);

/** The unit of a table: `second` when it says none (tables written before units existed). */
export const tableUnit = (table: PriceTable): PriceUnit => table.unit ?? 'second';

/**
 * The default table: the vendor's public list prices for the Seedance models, per million output
 * tokens (the service bills `usage.completion_tokens`). 1.5 Pro: 16 with audio, 8 silent. Draft
 * and the flex service tier had no public list price in that source: they are priced as `*`
 * (and `silent`), and a completed task is charged for the tokens it really used. Seedance 2.0 and
 * 2.0 Fast: no list price in that source, unpriced until the operator sets one (`PUT /admin/prices`).
 */
export const DEFAULT_PRICES: PriceTable = {
  currency: 'CNY',
  unit: 'million_tokens',
  note: 'Volcengine Ark public list prices for Seedance, CNY per million output tokens, as of 2026-11. 1.5 Pro draft and flex tier: no public figure in that source, priced as "*"/"silent". Seedance 2.0: no public list price, unpriced.',
  models: {
    'doubao-seedance-1-0-pro-250528': { '*': 15 },
    'doubao-seedance-1-0-pro-fast-251015': { '*': 4.2 },
    'doubao-seedance-1-0-lite-t2v-250428': { '*': 10 },
    'doubao-seedance-1-0-lite-i2v-250428': { '*': 10 },
    'doubao-seedance-1-5-pro-251215': { '*': 16, silent: 8 },
  },
};

/** What a create asks for that its price depends on (from the create body: `pricedRequest`). */
export interface PricedRequest {
  model: string;
  resolution?: string | undefined;
  ratio?: string | undefined;
  duration?: number | undefined;
  frames?: number | undefined;
  generate_audio?: boolean | undefined;
  draft?: boolean | undefined;
  service_tier?: string | undefined;
}

/** The fields of a create body a price depends on. */
export function pricedRequest(body: PricedRequest): PricedRequest {
  const { model, resolution, ratio, duration, frames, generate_audio, draft, service_tier } = body;
  return { model, resolution, ratio, duration, frames, generate_audio, draft, service_tier };
}

/** The longest duration, in seconds, that any model of the catalog allows (15). */
export const LONGEST_CATALOG_SECONDS = Math.max(
  ...MODELS.map((m) => (m.parameters.duration?.type === 'integer' ? m.parameters.duration.max : (m.defaults?.duration ?? 0))),
);

/**
 * Frames of output: `duration` x 24; else `frames`; else the model's default duration; for
 * `duration: -1` (the model picks) its longest, so that the reservation covers any choice.
 * A model the catalog does not know has no default: without a `duration` it counts the longest
 * duration any catalog model allows, so that a priced unknown model is never free.
 */
export function outputFrames(request: PricedRequest): number {
  const spec = modelSpec(request.model);
  const longest = (): number => {
    const rule = spec.parameters.duration;
    if (rule?.type === 'integer') return rule.max;
    return spec.defaults?.duration ?? LONGEST_CATALOG_SECONDS;
  };
  if (request.duration === -1) return longest() * FRAMES_PER_SECOND;
  if (request.duration !== undefined) return request.duration * FRAMES_PER_SECOND;
  if (request.frames !== undefined) return request.frames;
  return (spec.defaults?.duration ?? LONGEST_CATALOG_SECONDS) * FRAMES_PER_SECOND;
}
