import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { toMicros } from '../../../../shared';
import { scratchLedger } from '../../testing/scratch-objects';
import { addToTotals, budgetState, memberScope, refusalFor, TEAM, writeBudget } from './budget-book';

/** The budget book's rules over a ledger's real storage (a ledger of the test's own), at times the test names. */

const MARCH = Date.parse('2026-03-31T23:59:00Z');
const APRIL = Date.parse('2026-04-01T00:01:00Z');
const inBook = <T>(fn: (sql: SqlStorage) => T) => runInDurableObject(scratchLedger(), (_instance, state) => fn(state.storage.sql));
const money = toMicros;

describe('budget book', () => {
  it('refuses a cost that would take spent plus reserved past the limit, and allows one that reaches it exactly', () =>
    inBook((sql) => {
      writeBudget(sql, memberScope('m1'), { limit: money(10), period: 'month', maxRunning: null }, MARCH);
      addToTotals(sql, 'm1', MARCH, { spent: money(4), reserved: money(3) });
      expect(refusalFor(sql, 'm1', money(3), MARCH)).toBeNull();
      expect(refusalFor(sql, 'm1', money(3) + 1, MARCH)).toMatchObject({ kind: 'budget', scope: 'member', remaining: money(3), cost: money(3) + 1 });
    }));

  it("the team's budget binds every member, whatever their own", () =>
    inBook((sql) => {
      writeBudget(sql, TEAM, { limit: money(5), period: 'total', maxRunning: null }, MARCH);
      addToTotals(sql, 'm1', MARCH, { spent: money(4), reserved: 0 });
      expect(refusalFor(sql, 'm2', money(2), MARCH)).toMatchObject({ kind: 'budget', scope: 'team', remaining: money(1) });
      expect(refusalFor(sql, 'm2', money(1), MARCH)).toBeNull();
    }));

  it('a monthly budget starts again when the month turns (UTC); a total one does not', () =>
    inBook((sql) => {
      writeBudget(sql, memberScope('m1'), { limit: money(10), period: 'month', maxRunning: null }, MARCH);
      addToTotals(sql, 'm1', MARCH, { spent: money(9), reserved: 0 });
      expect(refusalFor(sql, 'm1', money(5), MARCH)).toMatchObject({ kind: 'budget', period: 'month' });
      expect(refusalFor(sql, 'm1', money(5), APRIL)).toBeNull();
      expect(budgetState(sql, memberScope('m1'), 'CNY', APRIL)).toMatchObject({ spent: 0, remaining: 10 });

      writeBudget(sql, memberScope('m1'), { limit: money(10), period: 'total', maxRunning: null }, APRIL);
      expect(refusalFor(sql, 'm1', money(5), APRIL)).toMatchObject({ kind: 'budget', period: 'total', remaining: money(1) });
      expect(budgetState(sql, memberScope('m1'), 'CNY', APRIL)).toMatchObject({ spent: 9, remaining: 1 });
    }));

  it('a charge adds to its member and the team, in the month it was created and in all time', () =>
    inBook((sql) => {
      addToTotals(sql, 'm1', MARCH, { spent: money(2), reserved: money(1) });
      const rows = sql.exec('SELECT scope, period_key, spent, reserved FROM totals ORDER BY scope, period_key').toArray();
      expect(rows).toEqual([
        { scope: 'member:m1', period_key: '2026-03', spent: money(2), reserved: money(1) },
        { scope: 'member:m1', period_key: 'total', spent: money(2), reserved: money(1) },
        { scope: 'team', period_key: '2026-03', spent: money(2), reserved: money(1) },
        { scope: 'team', period_key: 'total', spent: money(2), reserved: money(1) },
      ]);
    }));
});
