import { fromMicros, taskCharge, type PriceUnit, type TaskCost } from '../../../../shared';
import { addToTotals } from './budget-book';
import type { Ending, Settled } from './ledger-port';

/**
 * A task's charge in the ledger (docs/budgets.md): the reservation made before its create, with
 * the price it was made at, and the charge once the task ended. Synchronous, like every money
 * step of the ledger: nothing else runs between the read and the writes.
 */

/** Writes a reservation of `cost` for `member`'s create, and counts it in the totals. */
export function insertReservation(sql: SqlStorage, id: string, member: string, model: string, cost: TaskCost, now: number): void {
  sql.exec(
    `INSERT INTO charges (id, member, model, resolution, frames, cost, priced, state, status, created_at, unit, rate, estimate)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'reserved', 'creating', ?, ?, ?, ?)`,
    id, member, model, cost.resolution, cost.frames, cost.micros, cost.priced ? 1 : 0, now, cost.unit, cost.rate, cost.micros,
  );
  addToTotals(sql, member, now, { spent: 0, reserved: cost.micros });
}

type ChargeRow = {
  member: string;
  cost: number;
  estimate: number | null;
  unit: string | null;
  rate: number | null;
  priced: number;
  state: string;
  tokens: number | null;
  overrun: number;
  created_at: number;
};

/** What a settled charge says, in the currency: the answer of `settle`. */
function settledView(row: Pick<ChargeRow, 'cost' | 'estimate' | 'state' | 'tokens' | 'overrun'>): Settled {
  const estimate = row.estimate ?? row.cost;
  return { cost: row.state === 'released' ? 0 : fromMicros(row.cost), estimate: fromMicros(estimate), tokens: row.tokens, overrun: row.overrun === 1 };
}

/** A charge just settled: whose, and by how much it changed the books (for alerts and the audit log). */
export interface Settlement {
  member: string;
  createdAt: number;
  charged: number;
  reserved: number;
  overrun: boolean;
  view: Settled;
}

/**
 * Settles a reservation by how its task ended: failed costs nothing; completed and priced per
 * token with `usage.completion_tokens` costs exactly tokens x price, the rest released; anything
 * else is charged what was reserved. Null when the charge is already settled (or unknown): settling
 * twice changes nothing.
 */
export function settleCharge(sql: SqlStorage, reservation: string, taskId: string, ending: Ending, tokens: number | null, now: number): Settlement | null {
  const row = sql.exec<ChargeRow>("SELECT * FROM charges WHERE id = ? AND state = 'reserved'", reservation).toArray()[0];
  if (!row) return null;
  const reserved = row.cost;
  const unit: PriceUnit = row.unit === 'million_tokens' ? 'million_tokens' : 'second';
  const charge = taskCharge({ micros: reserved, unit, rate: row.rate ?? 0, priced: row.priced === 1 }, ending, tokens);
  const state = ending === 'failed' ? 'released' : 'charged';
  sql.exec(
    'UPDATE charges SET task_id = ?, state = ?, status = ?, tokens = ?, ended_at = ?, cost = ?, estimate = ?, overrun = ? WHERE id = ?',
    taskId, state, ending, tokens, now, ending === 'failed' ? reserved : charge.micros, reserved, charge.overrun ? 1 : 0, reservation,
  );
  addToTotals(sql, row.member, row.created_at, { spent: charge.micros, reserved: -reserved });
  const view = settledView({ cost: charge.micros, estimate: reserved, state, tokens, overrun: charge.overrun ? 1 : 0 });
  return { member: row.member, createdAt: row.created_at, charged: charge.micros, reserved, overrun: charge.overrun, view };
}

/** A charge already settled, as `settle` answered it; null while it is still reserved or unknown. */
export function settledCharge(sql: SqlStorage, reservation: string): Settled | null {
  const row = sql.exec<ChargeRow>("SELECT * FROM charges WHERE id = ? AND state != 'reserved'", reservation).toArray()[0];
  return row ? settledView(row) : null;
}
