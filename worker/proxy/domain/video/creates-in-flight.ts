import { fromMicros } from '../../../../shared';
import { rawJsonResponse } from '../../infra/http/responses';
import { trackIntervalMs, upstreamTimeoutMs, type ProxySettings } from '../../infra/settings/proxy-settings';
import type { LedgerPort } from '../ledger/ledger-port';
import { complete, markUnknown } from '../members/idempotency';
import { withArkbridge } from '../tracking/arkbridge-field';

/**
 * Video creates on their way to the service, kept in the member's object so that a stop of the
 * proxy mid-create cannot hold a reservation forever (docs/budgets.md, "Orphaned creates").
 *
 * Before a create goes upstream its reservation is written here with a deadline
 * (UPSTREAM_TIMEOUT_MS + TRACK_INTERVAL_SECONDS from its start) and the object's alarm is armed
 * for it; when the create's outcome is known (a task recorded, or the reservation released) the row
 * goes. A create running in this instance is also held in memory: an instance that restarted has
 * none, so a row past its deadline that no running create owns was cut off. On the alarm such a
 * row is resolved:
 * - a task recorded under its reservation: the create was accepted; the key's record, if the stop
 *   came before it was kept, answers that task from now on;
 * - otherwise its outcome is unknown: the key is marked (its next request is told so once, then it
 *   is free), and the ledger releases the reservation and audits `create.unknown`.
 * The service's interface has no list of tasks to look in, so a create the service accepted just
 * before the stop is not found: that risk is documented, and the audit entry is there to check
 * the service's bill against.
 */

export interface CreatesHost {
  sql: SqlStorage;
  env: ProxySettings;
  /** The team's ledger (a fresh handle per call). */
  ledger(): LedgerPort;
  /** Points the object's one alarm at the earliest thing due (deadlines here, tracked tasks). */
  armAlarm(): void;
}

interface InFlightRow {
  reservation: string;
  idempotency_key: string | null;
  model: string;
  started_at: number;
  deadline_at: number;
  state: 'sending' | 'unknown';
}

export class CreatesInFlight {
  /** Reservations of the creates running in this instance (a restarted instance has none). */
  readonly #running = new Set<string>();

  constructor(private readonly host: CreatesHost) {}

  /** How long after its start a create that has not ended is resolved as unknown. */
  get #bound(): number {
    return upstreamTimeoutMs(this.host.env) + trackIntervalMs(this.host.env);
  }

  /** Before the create goes upstream: its deadline in storage, the alarm armed for it. */
  begin(reservation: string, idempotencyKey: string | null, model: string, now = Date.now()): void {
    this.#running.add(reservation);
    this.host.sql.exec(
      "INSERT OR REPLACE INTO creates_in_flight (reservation, idempotency_key, model, started_at, deadline_at, state) VALUES (?, ?, ?, ?, ?, 'sending')",
      reservation, idempotencyKey, model, now, now + this.#bound,
    );
    this.host.armAlarm();
  }

  /**
   * The create ended here. `resolved`: its outcome is in place (a task recorded, or the
   * reservation released), so the row goes; otherwise (the release failed) the alarm resolves it.
   */
  end(reservation: string, resolved: boolean): void {
    this.#running.delete(reservation);
    if (resolved) this.host.sql.exec('DELETE FROM creates_in_flight WHERE reservation = ?', reservation);
  }

  /** The earliest deadline, or null. */
  nextDeadline(): number | null {
    return this.host.sql.exec('SELECT MIN(deadline_at) AS at FROM creates_in_flight').one().at as number | null;
  }

  /** On the alarm: resolves every create past its deadline that no create running here owns. */
  async sweep(now = Date.now()): Promise<void> {
    const due = this.host.sql.exec('SELECT * FROM creates_in_flight WHERE deadline_at <= ? ORDER BY deadline_at LIMIT 50', now).toArray() as unknown as InFlightRow[];
    for (const row of due) {
      if (this.#running.has(row.reservation)) {
        // Still waiting on the service here (its call may run past the member's deadline): look again later.
        this.#postpone(row.reservation, now);
        continue;
      }
      if (row.state === 'sending' && this.#accepted(row)) continue;
      await this.#unknown(row, now);
    }
    this.host.armAlarm();
  }

  /** A task was recorded under the reservation before the stop: the create was accepted. */
  #accepted(row: InFlightRow): boolean {
    const task = this.host.sql
      .exec('SELECT body, cost, currency, priced FROM tasks WHERE reservation = ?', row.reservation)
      .toArray()[0] as { body: string; cost: number; currency: string; priced: number } | undefined;
    if (!task) return false;
    if (row.idempotency_key) {
      const field = { cost: fromMicros(task.cost), currency: task.currency, priced: task.priced === 1 };
      const kept = this.host.sql.exec("SELECT 1 FROM idempotency WHERE key = ? AND state = 'in_progress'", row.idempotency_key).toArray().length > 0;
      if (kept) complete(this.host.sql, row.idempotency_key, rawJsonResponse(200, withArkbridge(task.body, field)));
    }
    this.host.sql.exec('DELETE FROM creates_in_flight WHERE reservation = ?', row.reservation);
    return true;
  }

  /** Outcome unknown: the key marked first (in one step with the row), then the ledger told. */
  async #unknown(row: InFlightRow, now: number): Promise<void> {
    if (row.state === 'sending') {
      if (row.idempotency_key) markUnknown(this.host.sql, row.idempotency_key);
      this.host.sql.exec("UPDATE creates_in_flight SET state = 'unknown' WHERE reservation = ?", row.reservation);
    }
    try {
      await this.host.ledger().unknownCreate(row.reservation, { model: row.model, startedAt: row.started_at, keyed: row.idempotency_key !== null });
      this.host.sql.exec('DELETE FROM creates_in_flight WHERE reservation = ?', row.reservation);
    } catch {
      // The ledger could not be reached: the next alarm tries again.
      this.#postpone(row.reservation, now);
    }
  }

  #postpone(reservation: string, now: number): void {
    this.host.sql.exec('UPDATE creates_in_flight SET deadline_at = ? WHERE reservation = ?', now + trackIntervalMs(this.host.env), reservation);
  }
}
