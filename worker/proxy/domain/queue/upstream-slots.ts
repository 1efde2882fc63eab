/**
 * The team's slots at the service (UPSTREAM_MAX_RUNNING, docs/queue.md): the one rule of whether a
 * create may go to the service now. "Running at the service" is what the ledger holds reserved
 * and not queued: creates on their way and tasks not ended. A reservation of a create in the
 * gateway's queue is held (`queued = 1`) and takes no slot until it is launched. Every function is
 * synchronous and runs inside the ledger's object, so a check and its write are one step: no
 * interleaving of creates or launches can pass the cap.
 */

/** The cap: tasks the team may have running at the service; 0 is none. */
export type Cap = number;

export const runningAtService = (sql: SqlStorage): number =>
  sql.exec("SELECT COUNT(*) AS n FROM charges WHERE state = 'reserved' AND queued = 0").one().n as number;

export const queuedReservations = (sql: SqlStorage): number =>
  sql.exec("SELECT COUNT(*) AS n FROM charges WHERE state = 'reserved' AND queued = 1").one().n as number;

const freeSlot = (sql: SqlStorage, cap: Cap): boolean => cap <= 0 || runningAtService(sql) < cap;

/**
 * Whether a new create may go to the service now. One that would be queued (`queueable`) also waits
 * while others are queued, so that it does not pass them.
 */
export const mayStart = (sql: SqlStorage, cap: Cap, queueable: boolean): boolean => freeSlot(sql, cap) && (!queueable || queuedReservations(sql) === 0);

/** Marks a new reservation as going to the service now (`at`), or held for the queue (null). */
export function markStart(sql: SqlStorage, reservation: string, at: number | null): void {
  sql.exec('UPDATE charges SET queued = ?, launched_at = ? WHERE id = ?', at === null ? 1 : 0, at, reservation);
}

export type Claim = 'ok' | 'busy' | 'gone';

/** A queued create's launch takes a slot, if one is free; `gone`: its reservation was released. */
export function claimSlot(sql: SqlStorage, reservation: string, cap: Cap, now: number): Claim {
  const row = sql.exec("SELECT queued FROM charges WHERE id = ? AND state = 'reserved' AND task_id IS NULL", reservation).toArray()[0];
  if (!row) return 'gone';
  if (row.queued === 0) return 'ok'; // claimed before a restart: the launch goes on
  if (!freeSlot(sql, cap)) return 'busy';
  markStart(sql, reservation, now);
  return 'ok';
}

/** The service was busy for this create: its reservation is held again, its slot given back. */
export function holdSlot(sql: SqlStorage, reservation: string): void {
  sql.exec("UPDATE charges SET queued = 1, launched_at = NULL WHERE id = ? AND state = 'reserved' AND task_id IS NULL", reservation);
}

/** When each member last sent a create to the service (ms), for the queue's fair order. */
export function lastLaunches(sql: SqlStorage, members: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const member of members) {
    const at = sql.exec('SELECT MAX(launched_at) AS at FROM charges WHERE member = ?', member).one().at as number | null;
    if (at !== null) out[member] = at;
  }
  return out;
}
