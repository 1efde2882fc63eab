import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MODELS, taskCharge, taskCost, toMicros, usageTotals, type PricedRequest, type PriceTable, type TaskEnding } from '../../../shared';
import { scratchLedger } from '../testing/scratch-objects';

/**
 * The ledger's settlement of token prices, on ledgers of the test's own: a completed task is
 * charged tokens x price, an overrun is charged and flagged, and the books (budgets, task list,
 * usage report) always agree with the sum of the charges.
 */

const PRO15 = 'doubao-seedance-1-5-pro-251215';
const TOKENS: PriceTable = { currency: 'CNY', unit: 'million_tokens', models: { [PRO15]: { '*': 16, silent: 8 } } };
/** 720p 5 s on 1.5 Pro: reserved for 21:9, its largest 720p size (1504 x 640 x 120 / 1024 tokens). */
const FIVE_SECONDS_720P: PricedRequest = { model: PRO15, resolution: '720p', duration: 5 };
const RESERVED_TOKENS = (1504 * 640 * 120) / 1024;

async function reserved(ledger: ReturnType<typeof scratchLedger>, request = FIVE_SECONDS_720P) {
  const r = await ledger.reserve('m1', request);
  if (!r.ok) throw new Error('not reserved');
  return r;
}

describe('team ledger: settling token prices', () => {
  it('a completed task is charged tokens x price exactly and the rest of its reservation is released', async () => {
    const ledger = scratchLedger();
    await ledger.setPrices(TOKENS, 'test');
    const r = await reserved(ledger);
    expect(r).toMatchObject({ cost: (RESERVED_TOKENS * 16) / 1e6, unit: 'million_tokens', tokens: RESERVED_TOKENS });
    const tokens16x9 = (1248 * 704 * 120) / 1024; // what the service reports for 16:9
    await ledger.bind(r.id, 'task-1', 'queued');
    expect(await ledger.settle(r.id, 'task-1', 'completed', tokens16x9)).toEqual({ cost: (tokens16x9 * 16) / 1e6, estimate: r.cost, tokens: tokens16x9, overrun: false });
    expect(await ledger.memberBudget('m1')).toMatchObject({ spent: (tokens16x9 * 16) / 1e6, reserved: 0 });
    expect((await ledger.tasks({ limit: 1 }))[0]).toMatchObject({ id: 'task-1', cost: 1.64736, estimate: 1.8048, tokens: 102_960, overrun: false });
    // Settling again changes nothing and answers the same figures.
    expect(await ledger.settle(r.id, 'task-1', 'completed', 1)).toMatchObject({ cost: 1.64736, estimate: 1.8048 });
  });

  it('no tokens reported: the reservation is charged; failed: nothing, the estimate still shown', async () => {
    const ledger = scratchLedger();
    await ledger.setPrices(TOKENS, 'test');
    const [a, b] = [await reserved(ledger), await reserved(ledger)];
    expect(await ledger.settle(a.id, 'task-a', 'completed', null)).toMatchObject({ cost: 1.8048, estimate: 1.8048 });
    expect(await ledger.settle(b.id, 'task-b', 'failed', null)).toMatchObject({ cost: 0, estimate: 1.8048 });
    expect(await ledger.memberBudget('m1')).toMatchObject({ spent: 1.8048, reserved: 0 });
  });

  it('more tokens than reserved: the actual is charged, flagged overrun in the task list and the audit log', async () => {
    const ledger = scratchLedger();
    await ledger.setPrices(TOKENS, 'test');
    const r = await reserved(ledger);
    const settled = await ledger.settle(r.id, 'task-big', 'completed', 200_000);
    expect(settled).toEqual({ cost: 3.2, estimate: 1.8048, tokens: 200_000, overrun: true });
    expect(await ledger.memberBudget('m1')).toMatchObject({ spent: 3.2, reserved: 0 });
    expect((await ledger.tasks({ limit: 1 }))[0]).toMatchObject({ cost: 3.2, estimate: 1.8048, overrun: true });
    const entries: { action: string }[] = await ledger.auditEntries(5);
    const audit = entries.find((e) => e.action === 'task.overrun');
    expect(audit).toMatchObject({ target: 'member:m1', detail: { task: 'task-big', estimate: 1.8048, cost: 3.2, tokens: 200_000 } });
  });

  it('a quote is the reservation, with nothing reserved', async () => {
    const ledger = scratchLedger();
    await ledger.setPrices(TOKENS, 'test');
    await ledger.setMemberBudget('m1', { limit: 10 }, 'test');
    const quote = await ledger.quote('m1', FIVE_SECONDS_720P);
    expect(quote).toEqual({ cost: 1.8048, currency: 'CNY', priced: true, unit: 'million_tokens', tokens: RESERVED_TOKENS, remaining: 10, teamRemaining: null });
    expect(await ledger.memberBudget('m1')).toMatchObject({ reserved: 0, running: 0 });
    expect((await reserved(ledger)).cost).toBe(quote.cost);
  });
});

const UNKNOWN = 'acme-video-9';
const MODEL_IDS = [...MODELS.map((m) => m.id), UNKNOWN];
const table = fc.record({
  unit: fc.constantFrom('second' as const, 'million_tokens' as const),
  prices: fc.dictionary(fc.constantFrom(...MODEL_IDS), fc.dictionary(fc.constantFrom('*', '720p', 'silent', 'flex', 'draft'), fc.integer({ min: 0, max: 50_000_000 }).map((n) => n / 1e6), { minKeys: 1 })),
}).map(({ unit, prices }): PriceTable => ({ currency: 'CNY', unit, models: prices }));
const task = fc.record({
  request: fc.record(
    {
      model: fc.constantFrom(...MODEL_IDS),
      resolution: fc.constantFrom('480p', '720p', '1080p'),
      ratio: fc.constantFrom('16:9', '21:9', '1:1', 'adaptive'),
      duration: fc.oneof(fc.integer({ min: 2, max: 15 }), fc.constant(-1)),
      generate_audio: fc.boolean(),
      service_tier: fc.constantFrom('default', 'flex'),
    },
    { requiredKeys: ['model'] },
  ),
  ending: fc.constantFrom<TaskEnding>('completed', 'failed', 'expired'),
  tokens: fc.option(fc.integer({ min: 0, max: 1_000_000 })),
});

const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('team ledger: pricing properties (bounded runs in workerd)', () => {
  it('reserved >= charged unless flagged overrun; charged = tokens x price; the usage report and budgets sum the charges', async () => {
    await fc.assert(
      fc.asyncProperty(table, fc.array(task, { minLength: 1, maxLength: 6 }), async (generatedPrices, generatedTasks) => {
        // Plain objects for the RPC (fast-check builds some without a prototype, which cannot be sent).
        const [prices, tasks] = plain([generatedPrices, generatedTasks]);
        const ledger = scratchLedger();
        await ledger.setPrices(prices, 'test');
        let sum = 0;
        for (const [i, t] of tasks.entries()) {
          const r = await ledger.reserve('m1', t.request);
          if (!r.ok) throw new Error('refused without a budget');
          const expected = taskCost(prices, t.request);
          expect(toMicros(r.cost)).toBe(expected.micros);
          const settled = (await ledger.settle(r.id, `task-${i}`, t.ending, t.tokens))!;
          const charge = taskCharge(expected, t.ending, t.tokens);
          expect(toMicros(settled.cost)).toBe(charge.micros);
          expect(settled.overrun).toBe(toMicros(settled.cost) > expected.micros);
          if (!settled.overrun) expect(toMicros(settled.cost)).toBeLessThanOrEqual(toMicros(settled.estimate));
          if (t.ending === 'completed' && expected.priced && prices.unit === 'million_tokens' && t.tokens !== null) {
            const diff = BigInt(toMicros(settled.cost)) * 1_000_000n - BigInt(t.tokens) * BigInt(expected.rate);
            expect(diff >= -500_000n && diff < 500_000n).toBe(true);
          }
          sum += toMicros(settled.cost);
        }
        const day = new Date().toISOString().slice(0, 10);
        const report = await ledger.report(day, day);
        expect(toMicros(usageTotals(report.rows).cost)).toBe(sum);
        expect(toMicros(report.drift.charged)).toBe(sum);
        expect(toMicros((await ledger.memberBudget('m1')).spent)).toBe(sum);
        const listed = await ledger.tasks({ limit: 10 });
        expect(listed.reduce((s, x) => s + toMicros(x.cost), 0)).toBe(sum);
      }),
      { numRuns: 25 },
    );
  });
});
