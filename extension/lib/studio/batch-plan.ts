import { fromMicros, type ModelSpec, type QuoteAnswer, toMicros, type VideoCreateBody } from '@@/shared';
import { type GenerateForm, setParam, switchModel } from '@/lib/generate/generate-form';
import type { QuoteFn } from '@/lib/generate/form-quote';

/**
 * A batch: one prompt over N seeds and/or several models. Each model's form is the Generate form's
 * own switch (switchModel: what the model does not take is dropped and said); seeds go only to
 * models that take one. The total is quoted once per request shape (the same body but for its seed
 * costs the same) and summed.
 */

/** At most this many tasks in one batch. */
export const MAX_BATCH_TASKS = 32;
/** The largest seed the catalog allows. */
const SEED_MAX = 4294967295;

export interface BatchSpec {
  models: readonly ModelSpec[];
  /** How many seeds per model (1: the form's own seed, or the service's choice). */
  seeds: number;
  /** The first seed; the others follow it (wrapping within the catalog's range). */
  firstSeed: number;
}

export interface BatchItem {
  model: string;
  /** The seed of this task (none: a model without seeds, or a single run leaving it to the form). */
  seed?: number;
  form: GenerateForm;
  /** What this model does not take, in the member's words. */
  dropped: string[];
}

/** The i-th seed from `first`, within 0 … 4294967295. */
export const seedAt = (first: number, i: number): number => (((Math.trunc(first) + i) % (SEED_MAX + 1)) + SEED_MAX + 1) % (SEED_MAX + 1);

/** A random first seed. */
export const randomSeed = (): number => crypto.getRandomValues(new Uint32Array(1))[0]!;

/** The batch's tasks, model by model, seed by seed. */
export function expandBatch(form: GenerateForm, spec: BatchSpec, options: { allowHttp?: boolean } = {}): BatchItem[] {
  const items: BatchItem[] = [];
  const count = Math.max(1, Math.trunc(spec.seeds));
  for (const model of spec.models) {
    const { form: switched, dropped } = model.id === form.model ? { form: { ...form, model: model.id }, dropped: [] } : switchModel(form, model, options);
    if (!model.parameters.seed || count === 1) {
      items.push({ model: model.id, form: switched, dropped, ...(typeof switched.params.seed === 'number' ? { seed: switched.params.seed } : {}) });
      continue;
    }
    for (let i = 0; i < count; i++) {
      const seed = seedAt(spec.firstSeed, i);
      items.push({ model: model.id, seed, form: setParam(switched, 'seed', seed), dropped });
    }
  }
  return items;
}

/** The same request but for its seed: one quote says what each of them reserves. */
const shapeKey = (body: VideoCreateBody): string => {
  const { seed: _seed, ...rest } = body as VideoCreateBody & { seed?: number };
  return JSON.stringify(rest);
};

/** The distinct request shapes of the bodies, each with how many bodies have it. */
export function requestShapes(bodies: readonly VideoCreateBody[]): { body: VideoCreateBody; count: number }[] {
  const shapes = new Map<string, { body: VideoCreateBody; count: number }>();
  for (const body of bodies) {
    const key = shapeKey(body);
    const known = shapes.get(key);
    if (known) known.count++;
    else shapes.set(key, { body, count: 1 });
  }
  return [...shapes.values()];
}

/**
 * The batch's quote: every shape's cost times its count, summed to the micro-unit as the ledger
 * counts; tokens summed (unknown when one is); what the budgets have left from the last answer.
 */
export function sumQuotes(parts: readonly { answer: QuoteAnswer; count: number }[]): QuoteAnswer {
  const last = parts.at(-1)!.answer;
  const cost = parts.reduce((sum, { answer, count }) => sum + toMicros(answer.cost) * count, 0);
  const tokens = parts.every((p) => p.answer.tokens !== null) ? parts.reduce((sum, { answer, count }) => sum + answer.tokens! * count, 0) : null;
  return {
    ...last,
    cost: fromMicros(cost),
    priced: parts.some((p) => p.answer.priced),
    unit: parts.every((p) => p.answer.unit === 'million_tokens') ? 'million_tokens' : 'second',
    tokens: parts.every((p) => p.answer.unit === 'million_tokens') ? tokens : null,
  };
}

/**
 * Quotes a batch with one `POST /proxy/quote` per shape (quoteOne), summed; null when the proxy has
 * no quotes. For the Generate form's quoter (form-quote), which keeps its debounce and its rules.
 */
export const batchQuote =
  (quoteOne: QuoteFn): QuoteFn<VideoCreateBody[]> =>
  async (bodies, signal) => {
    const parts: { answer: QuoteAnswer; count: number }[] = [];
    for (const { body, count } of requestShapes(bodies)) {
      const answer = await quoteOne(body, signal);
      if (answer === null) return null;
      parts.push({ answer, count });
    }
    return parts.length ? sumQuotes(parts) : null;
  };
