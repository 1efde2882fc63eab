import { describe, expect, it, vi } from 'vitest';
import { modelSpec, type QuoteAnswer } from '@@/shared';
import { MODEL_IDS as ids } from '@@/shared/catalog/testing/model-ids';
import { emptyForm, toBody } from '@/lib/generate/generate-form';
import { batchQuote, expandBatch, requestShapes, seedAt, sumQuotes } from '@/lib/studio/batch-plan';

const form = { ...emptyForm(ids.s2), prompt: 'A fox in snow', params: { resolution: '720p', duration: 5 } };
const quote = (cost: number, over: Partial<QuoteAnswer> = {}): QuoteAnswer => ({ cost, currency: 'CNY', priced: true, unit: 'second', tokens: null, remaining: 100, teamRemaining: null, ...over });

describe('a batch’s tasks', () => {
  it('runs the prompt once per seed and model, seeds following the first', () => {
    const items = expandBatch(form, { models: [modelSpec(ids.s2), modelSpec(ids.s2fast)], seeds: 3, firstSeed: 10 });
    expect(items.map((i) => [i.model, i.seed])).toEqual([
      [ids.s2, 10],
      [ids.s2, 11],
      [ids.s2, 12],
      [ids.s2fast, 10],
      [ids.s2fast, 11],
      [ids.s2fast, 12],
    ]);
    expect(items.every((i) => i.form.prompt === 'A fox in snow' && i.form.params.seed === i.seed)).toBe(true);
  });

  it('applies each model’s own rules: what it does not take is dropped and said', () => {
    const items = expandBatch({ ...form, params: { resolution: '1080p' } }, { models: [modelSpec(ids.s2fast)], seeds: 1, firstSeed: 0 });
    expect(items[0]!.form.params.resolution).toBeUndefined();
    expect(items[0]!.dropped.join(' ')).toMatch(/1080p/);
  });

  it('wraps seeds within the catalog’s range', () => {
    expect(seedAt(4294967295, 1)).toBe(0);
    expect(seedAt(-1, 1)).toBe(0);
  });
});

describe('a batch’s total', () => {
  it('asks one quote per request shape (a seed changes no price) and multiplies', async () => {
    const items = expandBatch(form, { models: [modelSpec(ids.s2), modelSpec(ids.s2fast)], seeds: 4, firstSeed: 1 });
    const bodies = items.map((i) => toBody(i.form));
    expect(requestShapes(bodies).map((s) => [s.body.model, s.count])).toEqual([
      [ids.s2, 4],
      [ids.s2fast, 4],
    ]);
    const one = vi.fn(async (body: any) => (body.model === ids.s2 ? quote(1.5) : quote(0.25)));
    const total = await batchQuote(one)(bodies, new AbortController().signal);
    expect(one).toHaveBeenCalledTimes(2);
    expect(total).toMatchObject({ cost: 7, currency: 'CNY', remaining: 100 });
  });

  it('sums to the micro-unit and adds tokens of token-priced quotes', () => {
    const total = sumQuotes([
      { answer: quote(0.1, { unit: 'million_tokens', tokens: 1000 }), count: 3 },
      { answer: quote(0.2, { unit: 'million_tokens', tokens: 500 }), count: 1 },
    ]);
    expect(total.cost).toBe(0.5);
    expect(total.tokens).toBe(3500);
  });

  it('is no quote when the proxy has none', async () => {
    expect(await batchQuote(async () => null)([toBody(form)], new AbortController().signal)).toBeNull();
  });
});
