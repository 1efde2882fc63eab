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
  /** Whether it was sent with an `Idempotency-Key` (the key itself is not logged). */
  keyed: boolean;
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
