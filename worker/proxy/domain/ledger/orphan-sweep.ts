import { fromMicros } from '../../../../shared';
import { appendAudit } from './audit-log';
import { addToTotals, memberScope } from './budget-book';

/**
 * Creates whose outcome is unknown: the proxy (or its isolate) stopped while the create was on its
 * way to the service, so nobody released its reservation. The member's object finds them on its
 * alarm (domain/video/creates-in-flight.ts) and tells the ledger here: the reservation is released
 * (the running count drops with it) and `create.unknown` is written to the audit log, with the
 * model, the cost and when it started, so that an admin can check the service's bill for a task
 * the proxy never heard of (docs/budgets.md, "Orphaned creates").
 */

/** What the member's object knows of the cut-off create. */
export interface UnknownCreate {
  model: string;
  startedAt: number;
  /** Whether it was sent with an `Idempotency-Key` (the key itself is not logged); null when the ledger found it on its own. */
  keyed: boolean | null;
}

/**
 * How old a reservation without a task may grow before the ledger itself calls it cut off. A
 * create in flight is resolved by its member's object within UPSTREAM_TIMEOUT_MS plus one tracking
 * interval (seconds to minutes), so an unbound reservation an hour old has no create behind it:
 * one the proxy lost before creates wrote their deadline down (an older version), or one whose
 * member's object never ran again.
 */
export const STALE_RESERVATION_MS = 60 * 60 * 1000;

/**
 * The ledger's own sweep (hourly, from the Cron Trigger): every reservation still without a task
 * STALE_RESERVATION_MS after its create went to the service is released and audited as
 * `create.unknown`. Answers how many. A reservation held for the gateway's queue (`queued = 1`,
 * docs/queue.md) is never stale: its item stands behind it however long it waits, and the queue
 * releases it when the item is cancelled or fails. A launched one is timed from its launch
 * (`launched_at`), not from when it was queued.
 */
export function sweepStaleReservations(sql: SqlStorage, now: number): number {
  const stale = sql
    .exec(
      "SELECT id, model, created_at FROM charges WHERE state = 'reserved' AND task_id IS NULL AND queued = 0 AND COALESCE(launched_at, created_at) < ? LIMIT 500",
      now - STALE_RESERVATION_MS,
    )
    .toArray();
  let released = 0;
  for (const row of stale) {
    if (releaseUnknown(sql, String(row.id), { model: String(row.model), startedAt: row.created_at as number, keyed: null }, now)) released += 1;
  }
  return released;
}

/**
 * Releases a reservation that never got a task, and audits it as `create.unknown`. Idempotent: a
 * reservation already released, bound to a task or settled is left alone (false).
 */
export function releaseUnknown(sql: SqlStorage, reservation: string, create: UnknownCreate, now: number): boolean {
  const row = sql.exec("SELECT member, cost, created_at FROM charges WHERE id = ? AND state = 'reserved' AND task_id IS NULL", reservation).toArray()[0];
  if (!row) return false;
  const member = String(row.member);
  sql.exec('DELETE FROM charges WHERE id = ?', reservation);
  addToTotals(sql, member, row.created_at as number, { spent: 0, reserved: -(row.cost as number) });
  appendAudit(sql, now, member, 'create.unknown', memberScope(member), {
    reservation,
    model: create.model,
    cost: fromMicros(row.cost as number),
    startedAt: new Date(create.startedAt).toISOString(),
    keyed: create.keyed,
  });
  return true;
}
