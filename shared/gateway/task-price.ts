import { modelSpec, isKnownModel, type ModelSpec } from '../catalog/models';
import { OUTPUT_SIZES, outputSize, type OutputSize } from '../catalog/output-size';
import { toMicros } from './money';
import { FRAMES_PER_SECOND, outputFrames, parseVariantKey, tableUnit, type PricedRequest, type PriceTable, type VariantKey } from './prices';
import type { PriceUnit } from './quote';

/**
 * What a task costs (docs/budgets.md): the reservation made before its create goes upstream (the
 * most it can cost), and the charge once it ended. Pure functions of the price table and the
 * create, shared by the proxy's ledger and its clients. Money in integer micro-units, products
 * and the one rounding in exact integer arithmetic (BigInt), so nothing drifts or overflows.
 */

/** The reservation of one task. */
export interface TaskCost {
  /** Micro-units of the table's currency reserved: the most the task can cost; 0 when unpriced. */
  micros: number;
  /** Output frames reserved for (seconds x 24). */
  frames: number;
  /** The resolution priced (the create's, else the model's default); null when neither is known. */
  resolution: string | null;
  /** False when the table has no price for the model and variant: the task costs nothing. */
  priced: boolean;
  unit: PriceUnit;
  /** The price used, in micro-units per second or per million output tokens (0 when unpriced). */
  rate: number;
  /** The output tokens reserved for (largest size of the resolution, longest duration); null per second. */
  tokens: number | null;
  /** The variant key whose price was used, or null. */
  variant: string | null;
}

/** What a task is, for its price: the conditions of the variant keys. */
export function taskVariant(request: PricedRequest, spec: ModelSpec = modelSpec(request.model)): VariantKey {
  const known = isKnownModel(request.model);
  const audioRule = spec.parameters.generate_audio;
  // A model of the catalog without generate_audio makes silent video; one with it makes sound unless
  // told not to. A model outside the catalog: unknown, so only keys without audio/silent match.
  const audio = !known ? null : !audioRule ? 'silent' : (request.generate_audio ?? (audioRule.type === 'boolean' ? (audioRule.default ?? true) : true)) ? 'audio' : 'silent';
  return {
    resolution: request.resolution ?? spec.defaults?.resolution ?? null,
    audio,
    draft: request.draft === true,
    flex: request.service_tier === 'flex',
  };
}

const matches = (key: VariantKey, task: VariantKey): boolean =>
  (key.resolution === null || key.resolution === task.resolution) &&
  (key.audio === null || key.audio === task.audio) &&
  (!key.draft || task.draft) &&
  (!key.flex || task.flex);

/** Precedence of a matching key: more conditions first, then flex, draft, audio/silent, resolution. */
const weight = (key: VariantKey): number => {
  const bits = (key.flex ? 8 : 0) + (key.draft ? 4 : 0) + (key.audio ? 2 : 0) + (key.resolution ? 1 : 0);
  const count = Number(key.flex) + Number(key.draft) + Number(key.audio !== null) + Number(key.resolution !== null);
  return count * 16 + bits;
};

/** The key of `prices` that prices a task, or null when none matches. */
export function variantFor(prices: Readonly<Record<string, number>>, task: VariantKey): string | null {
  let best: string | null = null;
  let bestWeight = -1;
  for (const key of Object.keys(prices)) {
    const parsed = parseVariantKey(key);
    if (!parsed || !matches(parsed, task)) continue;
    const w = weight(parsed);
    if (w > bestWeight) [best, bestWeight] = [key, w];
  }
  return best;
}

const area = (s: OutputSize): number => s.width * s.height;

/**
 * The largest output size a task may get: over the model's ratios at its resolution (`adaptive`
 * and an absent ratio count as 16:9, the ratio is the service's to pick), or over every size of
 * the table for a model outside the catalog or a resolution the table does not list.
 */
export function largestOutputSize(resolution: string | null, spec: ModelSpec): OutputSize {
  const rule = spec.parameters.ratio;
  const ratios = rule?.type === 'enum' ? rule.values : null;
  const sizes = resolution !== null && Object.hasOwn(OUTPUT_SIZES, resolution)
    ? ratios ? ratios.map((r) => outputSize(resolution, r)!) : Object.values(OUTPUT_SIZES[resolution]!)
    : Object.values(OUTPUT_SIZES).flatMap((byRatio) => Object.values(byRatio));
  return sizes.reduce((a, b) => (area(b) > area(a) ? b : a));
}

/** Output tokens as the service counts them: width x height x frames / 1024, rounded down. */
export const outputTokens = (size: OutputSize, frames: number): number => Math.floor((size.width * size.height * frames) / 1024);

/** `rate` micro-units per `per` of something, for `amount` of it, rounded half up to the micro-unit. */
const prorate = (rate: number, amount: number, per: number): number => {
  const product = BigInt(rate) * BigInt(amount);
  return Number((product * 2n + BigInt(per)) / (2n * BigInt(per)));
};

/** Exactly `tokens` x price / 1,000,000, with the price in micro-units per million tokens. */
export const tokenCharge = (tokens: number, ratePerMillion: number): number => prorate(ratePerMillion, tokens, 1_000_000);

/**
 * The reservation of a create: price(model, variant) for the most the task can make. Per second:
 * price x seconds (duration, else frames / 24, else the model's default; -1: its longest). Per
 * million tokens: the tokens of the largest output size of the resolution over the model's ratios,
 * for those frames. A model outside the catalog counts the longest duration any catalog model
 * allows (unless the create says `duration`) and the largest size of all.
 */
export function taskCost(table: PriceTable, request: PricedRequest): TaskCost {
  const spec = modelSpec(request.model);
  const unit = tableUnit(table);
  const task = taskVariant(request, spec);
  const frames = outputFrames(request);
  const prices = Object.hasOwn(table.models, request.model) ? table.models[request.model]! : undefined;
  const variant = prices ? variantFor(prices, task) : null;
  const tokens = unit === 'million_tokens' ? outputTokens(largestOutputSize(task.resolution, spec), frames) : null;
  const base = { frames, resolution: task.resolution, unit, tokens };
  if (!prices || variant === null) return { ...base, micros: 0, priced: false, rate: 0, variant: null };
  const rate = toMicros(prices[variant]!);
  const micros = tokens === null ? prorate(rate, frames, FRAMES_PER_SECOND) : tokenCharge(tokens, rate);
  return { ...base, micros, priced: true, rate, variant };
}

/** How a task ended, for its charge. */
export type TaskEnding = 'completed' | 'failed' | 'expired';

/** What a reservation is charged once its task ended. */
export interface TaskCharge {
  micros: number;
  /** The service reported more than was reserved: the actual is charged all the same. */
  overrun: boolean;
}

/**
 * The charge of an ended task: failed costs 0; a completed task priced per token that reports
 * `usage.completion_tokens` costs exactly tokens x price; anything else (per second, no tokens
 * reported, expired) is charged its reservation.
 */
export function taskCharge(reserved: { micros: number; unit: PriceUnit; rate: number; priced: boolean }, ending: TaskEnding, tokens: number | null): TaskCharge {
  if (ending === 'failed') return { micros: 0, overrun: false };
  if (ending !== 'completed' || !reserved.priced || reserved.unit !== 'million_tokens' || tokens === null) return { micros: reserved.micros, overrun: false };
  const micros = tokenCharge(tokens, reserved.rate);
  return { micros, overrun: micros > reserved.micros };
}

