import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuditEntry, PriceTable } from '../../../shared';
import { scratchLedger } from '../testing/scratch-objects';

/**
 * The team ledger's money rules, on a ledger of the test's own: reservations, release, charges,
 * and months turning (Date faked; nothing waits on a real clock).
 */

const MODEL = 'doubao-seedance-2-0-260128';
/** 1 CNY a second: a 5-second task costs 5. */
const PRICES: PriceTable = { currency: 'CNY', models: { [MODEL]: { '*': 1 } } };
const FIVE_SECONDS = { model: MODEL, duration: 5 };

async function ledgerWith(budget: { limit?: number | null; period?: 'month' | 'total'; maxRunning?: number | null }) {
  const ledger = scratchLedger();
  await ledger.setPrices(PRICES, 'test');
  await ledger.setMemberBudget('m1', budget, 'test');
  return ledger;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('team ledger: reservations', () => {
  it('concurrent creates never reserve past a limit: price, check and write are one step', async () => {
    const ledger = await ledgerWith({ limit: 15 });
    const all = await Promise.all(Array.from({ length: 10 }, () => ledger.reserve('m1', FIVE_SECONDS)));
    expect(all.filter((r) => r.ok)).toHaveLength(3);
    expect(all.filter((r) => !r.ok)[0]).toMatchObject({ kind: 'budget', scope: 'member', remaining: 0, cost: 5 });
    expect(await ledger.memberBudget('m1')).toMatchObject({ spent: 0, reserved: 15, remaining: 0, running: 3 });
  });

  it('counts reserved tasks against maxRunning until each ends', async () => {
    const ledger = await ledgerWith({ maxRunning: 2 });
    const first = await ledger.reserve('m1', FIVE_SECONDS);
    expect((await ledger.reserve('m1', FIVE_SECONDS)).ok).toBe(true);
    expect(await ledger.reserve('m1', FIVE_SECONDS)).toMatchObject({ ok: false, kind: 'running', running: 2, maxRunning: 2 });
    if (!first.ok) throw new Error('not reserved');
    await ledger.settle(first.id, 't1', 'failed', null);
    expect((await ledger.reserve('m1', FIVE_SECONDS)).ok).toBe(true);
  });

  it('release gives a reservation back, once; one the service accepted (bound to a task) stays', async () => {
    const ledger = await ledgerWith({ limit: 10 });
    const [a, b] = [await ledger.reserve('m1', FIVE_SECONDS), await ledger.reserve('m1', FIVE_SECONDS)];
    if (!a.ok || !b.ok) throw new Error('not reserved');
    await ledger.bind(b.id, 'task-b', 'queued');
    await ledger.release(a.id);
    await ledger.release(a.id);
    await ledger.release(b.id);
    expect(await ledger.memberBudget('m1')).toMatchObject({ reserved: 5, remaining: 5, running: 1 });
  });
});

describe('team ledger: reservations no create stands behind', () => {
  it('the hourly sweep releases a reservation still without a task after an hour, audited; bound and recent ones stay', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.parse('2026-06-10T10:00:00Z');
    vi.setSystemTime(start);
    const ledger = await ledgerWith({ limit: 100, maxRunning: 3 });
    const [lost, bound] = [await ledger.reserve('m1', FIVE_SECONDS), await ledger.reserve('m1', FIVE_SECONDS)];
    if (!lost.ok || !bound.ok) throw new Error('not reserved');
    await ledger.bind(bound.id, 'task-bound', 'running');
    vi.setSystemTime(start + 59 * 60_000);
    const recent = await ledger.reserve('m1', FIVE_SECONDS);
    expect(await ledger.sweepStale()).toBe(0);
    vi.setSystemTime(start + 61 * 60_000);
    expect(await ledger.sweepStale()).toBe(1);
    expect(await ledger.sweepStale()).toBe(0);
    expect(recent.ok).toBe(true);
    expect(await ledger.memberBudget('m1')).toMatchObject({ reserved: 10, running: 2 });
    // The RPC stub's type of a record with `unknown` details is `never`: read as what the ledger returns.
    const entries = (await ledger.auditEntries(10)) as unknown as AuditEntry[];
    expect(entries.find((e) => e.action === 'create.unknown')).toMatchObject({ actor: 'm1', detail: { model: MODEL, cost: 5, keyed: null } });
  });

  it('never releases the reservation of a create still in the gateway\'s queue, however long it waits; a launched one is timed from its launch', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.parse('2026-06-10T10:00:00Z');
    vi.setSystemTime(start);
    const ledger = await ledgerWith({ limit: 100 });
    const slot = { cap: 1, queueable: true };
    const running = await ledger.reserve('m1', FIVE_SECONDS, slot);
    const [waiting, later] = [await ledger.reserve('m1', FIVE_SECONDS, slot), await ledger.reserve('m1', FIVE_SECONDS, slot)];
    if (!running.ok || !waiting.ok || !later.ok) throw new Error('not reserved');
    expect([running.queued, waiting.queued, later.queued]).toEqual([false, true, true]);
    await ledger.bind(running.id, 'task-running', 'running');

    // A day in the queue: the sweep leaves both queued reservations alone.
    vi.setSystemTime(start + 24 * 3600_000);
    expect(await ledger.sweepStale()).toBe(0);
    expect(await ledger.memberBudget('m1')).toMatchObject({ reserved: 15 });

    // One launches now (its slot freed): within the hour after its launch it is not stale either.
    await ledger.settle(running.id, 'task-running', 'failed', null);
    expect(await ledger.claimSlot(waiting.id, 1)).toBe('ok');
    vi.setSystemTime(start + 24 * 3600_000 + 59 * 60_000);
    expect(await ledger.sweepStale()).toBe(0);
    // An hour after its launch with no task, it is: the other, still queued, stays.
    vi.setSystemTime(start + 24 * 3600_000 + 61 * 60_000);
    expect(await ledger.sweepStale()).toBe(1);
    expect(await ledger.memberBudget('m1')).toMatchObject({ reserved: 5 });
    expect(await ledger.claimSlot(later.id, 1)).toBe('ok');
  });
});

describe('team ledger: charges', () => {
  it('a completed task is charged what was reserved; a failed one costs nothing; settling twice changes nothing', async () => {
    const ledger = await ledgerWith({ limit: 100 });
    const [done, failed] = [await ledger.reserve('m1', FIVE_SECONDS), await ledger.reserve('m1', FIVE_SECONDS)];
    if (!done.ok || !failed.ok) throw new Error('not reserved');
    await ledger.settle(done.id, 'task-done', 'completed', 42);
    await ledger.settle(done.id, 'task-done', 'completed', 42);
    await ledger.settle(failed.id, 'task-failed', 'failed', null);
    expect(await ledger.memberBudget('m1')).toMatchObject({ spent: 5, reserved: 0, remaining: 95, running: 0 });
    expect(await ledger.teamBudget()).toMatchObject({ spent: 5, reserved: 0 });
    const tasks = await ledger.tasks({ limit: 10 });
    expect(tasks.map((t) => [t.id, t.status, t.cost]).sort()).toEqual([['task-done', 'completed', 5], ['task-failed', 'failed', 0]]);
  });

  it('a task too old to follow (expired) is charged as reserved: it may have completed', async () => {
    const ledger = await ledgerWith({ limit: 100 });
    const r = await ledger.reserve('m1', FIVE_SECONDS);
    if (!r.ok) throw new Error('not reserved');
    await ledger.settle(r.id, 'task-old', 'expired', null);
    expect(await ledger.memberBudget('m1')).toMatchObject({ spent: 5, reserved: 0 });
  });
});

describe('team ledger: periods', () => {
  it('a monthly budget starts again when the month turns; a charge counts in the month its task was created', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse('2026-03-31T23:58:00Z'));
    const ledger = await ledgerWith({ limit: 10, period: 'month' });
    const march = await ledger.reserve('m1', FIVE_SECONDS);
    expect((await ledger.reserve('m1', FIVE_SECONDS)).ok).toBe(true);
    expect(await ledger.reserve('m1', FIVE_SECONDS)).toMatchObject({ ok: false, kind: 'budget' });

    vi.setSystemTime(Date.parse('2026-04-01T00:02:00Z'));
    expect(await ledger.memberBudget('m1')).toMatchObject({ spent: 0, reserved: 0, remaining: 10 });
    if (!march.ok) throw new Error('not reserved');
    // Settled in April, charged to March: April's budget is untouched.
    await ledger.settle(march.id, 'task-march', 'completed', null);
    expect(await ledger.memberBudget('m1')).toMatchObject({ spent: 0, remaining: 10 });
    expect((await ledger.reserve('m1', FIVE_SECONDS)).ok).toBe(true);
    const report = await ledger.report('2026-03-01', '2026-04-30');
    expect(report.rows.map((r) => [r.day, r.cost])).toEqual([['2026-03-31', 5]]);
  });
});
