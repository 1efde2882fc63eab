import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PriceTable } from '../../../../shared';
import { scratchLedger } from '../../testing/scratch-objects';

/**
 * The budget is never overspent by queued plus running creates (docs/queue.md), whatever the mix and
 * however many at once: random prices and limits, then random rounds of steps sent to the ledger at
 * once (creates that may be queued, launches taking a slot, the service's 429 giving it back,
 * cancels, refusals, tasks completing or failing). After every round, what the member spent plus
 * what is reserved stays within their limit. A ledger of its own per case (real object and storage).
 */

const MODEL = 'doubao-seedance-2-0-260128';
const MEMBER = 'm-prop';

type Step =
  | { kind: 'create'; seconds: number }
  | { kind: 'launch' | 'busy' | 'cancel' | 'refuse' | 'complete' | 'fail'; pick: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('create' as const), seconds: fc.integer({ min: 4, max: 12 }) }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constantFrom('launch' as const, 'busy' as const, 'cancel' as const, 'refuse' as const, 'complete' as const, 'fail' as const), pick: fc.nat() }), weight: 5 },
);

interface Held {
  id: string;
  /** queued: waiting in the gateway's queue; sent: its create went to the service; task: the service accepted it. */
  state: 'queued' | 'sent' | 'task' | 'ended';
  task: string;
}

describe('queued and running creates against a budget', () => {
  it('spent + reserved never exceeds the member\'s limit, whatever the steps and however many at once', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 5, max: 120 }),
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.array(step, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 8 }),
        async (perSecond, limit, cap, rounds) => {
          const ledger = scratchLedger();
          const prices: PriceTable = { currency: 'CNY', models: { [MODEL]: { '*': perSecond } } };
          await ledger.setPrices(prices, 'test');
          await ledger.setMemberBudget(MEMBER, { limit }, 'test');
          const held: Held[] = [];
          const pick = (n: number, states: Held['state'][]) => {
            const open = held.filter((h) => states.includes(h.state));
            return open.length ? open[n % open.length]! : null;
          };
          const run = async (s: Step): Promise<void> => {
            if (s.kind === 'create') {
              const r = await ledger.reserve(MEMBER, { model: MODEL, duration: s.seconds }, { cap, queueable: true });
              if (r.ok) held.push({ id: r.id, state: r.queued ? 'queued' : 'sent', task: `t-${r.id}` });
              return;
            }
            if (s.kind === 'launch') {
              const h = pick(s.pick, ['queued', 'sent']);
              if (!h) return;
              if (h.state === 'queued' && (await ledger.claimSlot(h.id, cap)) !== 'ok') return;
              h.state = 'task';
              await ledger.bind(h.id, h.task, 'queued');
              return;
            }
            if (s.kind === 'busy') {
              const h = pick(s.pick, ['sent']);
              if (h) (h.state = 'queued'), await ledger.holdSlot(h.id);
              return;
            }
            if (s.kind === 'cancel' || s.kind === 'refuse') {
              const h = pick(s.pick, s.kind === 'cancel' ? ['queued'] : ['sent']);
              if (h) (h.state = 'ended'), await ledger.release(h.id);
              return;
            }
            const h = pick(s.pick, ['task']);
            if (h) (h.state = 'ended'), await ledger.settle(h.id, h.task, s.kind === 'complete' ? 'completed' : 'failed', null);
          };
          for (const round of rounds) {
            await Promise.all(round.map(run));
            const budget = await ledger.memberBudget(MEMBER);
            expect(budget.spent + budget.reserved, JSON.stringify({ perSecond, limit, cap, budget })).toBeLessThanOrEqual(limit + 1e-9);
            expect(budget.reserved).toBeGreaterThanOrEqual(-1e-9);
          }
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);
});
