import { backoffMs } from './backoff';
import { forgetEnded, itemById, move, readState, waitingOrder, writeState, type ItemRow } from './queue-book';
import { knownLaunches, noteLaunch, refreshLaunches, undoLaunch } from './launch-times';
import { fairOrder } from './fair-order';
import type { LauncherPort, LaunchResult, SlotPort } from './queue-port';

/**
 * Launches the team's queued creates, one at a time, in the fair order (fair-order.ts), while a slot
 * is free at the service (the ledger says: upstream-slots.ts) and the team is not backing off.
 *
 * Exactly once: before a launch is sent the item is marked `launching`; the member's object keeps
 * what came of each item it was asked to launch (queued-launch.ts), so an item found `launching`
 * after a restart is asked about again and gets the same answer, never a second create.
 */

export interface LauncherHost {
  sql: SqlStorage;
  slots(): SlotPort;
  member(memberId: string): LauncherPort;
  /** How long to wait before looking again while every slot is taken (the tracking interval). */
  pollMs: number;
  /** Points the object's alarm at `at` (null: nothing to do). */
  arm(at: number | null): void;
  random?: () => number;
}

export class QueueLauncher {
  #running: Promise<void> | null = null;

  constructor(private readonly host: LauncherHost) {}

  #again = false;

  /** One pass (a pass already under way is joined, not doubled). */
  run(now = () => Date.now()): Promise<void> {
    this.#running ??= this.#pass(now).finally(() => (this.#running = null));
    return this.#running;
  }

  /**
   * A slot may have freed: a pass under way looks once more before it waits (true), since the ledger
   * may have answered it busy before the slot freed; false when no pass runs (the caller starts one).
   */
  wake(): boolean {
    if (this.#running) this.#again = true;
    return this.#running !== null;
  }

  async #pass(now: () => number): Promise<void> {
    const { sql } = this.host;
    forgetEnded(sql, now());
    this.#again = false;
    // One read of the ledger's launch times per pass (direct launches included); the pass notes its
    // own as it claims slots, so each launch costs no further call for the order.
    if (readState(sql).backoffUntil <= now()) await refreshLaunches(sql, this.host.slots());
    for (;;) {
      const state = readState(sql);
      if (state.backoffUntil > now()) return this.host.arm(state.backoffUntil);
      const first = fairOrder(waitingOrder(sql), knownLaunches(sql))[0];
      if (!first) return this.host.arm(null);
      const next = itemById(sql, first.id)!;
      const step = await this.#launch(next, state.cap, now);
      if (step === 'wait' && !this.#again) return this.host.arm(now() + this.host.pollMs);
      if (step === 'wait') this.#again = false;
    }
  }

  /** One item: `next` when the pass may go on to the next item, `wait` when it must stop. */
  async #launch(item: ItemRow, cap: number, now: () => number): Promise<'next' | 'wait'> {
    const { sql } = this.host;
    const reservation = JSON.parse(item.reservation);
    let launchedBefore: number | undefined | null = null;
    if (item.status === 'queued') {
      const claim = await this.host.slots().claimSlot(reservation.id, cap);
      // Cancelled while the ledger answered: cancel released the reservation.
      if (itemById(sql, item.id)?.status !== 'queued') return 'next';
      if (claim === 'busy') return 'wait';
      if (claim === 'gone') {
        move(sql, item.id, 'queued', 'failed', now(), { error: { code: 'reservation_released', message: 'The reservation of this create was released before it could launch; nothing was created.' } });
        return 'next';
      }
      move(sql, item.id, 'queued', 'launching', now());
      launchedBefore = noteLaunch(sql, item.member, now());
    }
    let result: LaunchResult;
    try {
      result = await this.host.member(item.member).launchQueued({ id: item.id, createdAt: item.created_at, model: item.model, body: item.body, reservation });
    } catch {
      result = { kind: 'pending' };
    }
    // Busy: the ledger clears this launch's time (holdSlot), and so does the queue: the item keeps its place.
    if (result.kind === 'busy' && launchedBefore !== null) undoLaunch(sql, item.member, launchedBefore);
    return this.#record(item, reservation.id, result, now);
  }

  async #record(item: ItemRow, reservation: string, result: LaunchResult, now: () => number): Promise<'next' | 'wait'> {
    const { sql } = this.host;
    if (result.kind === 'pending') return 'wait';
    if (result.kind === 'launched' || result.kind === 'failed') {
      move(sql, item.id, 'launching', result.kind, now(), result.kind === 'launched' ? { taskId: result.taskId } : { error: result.error });
      if (result.kind === 'launched') writeState(sql, { ...readState(sql), attempts: 0 });
      return 'next';
    }
    // Busy: the slot goes back and the item waits in its place; the whole team backs off.
    await this.host.slots().holdSlot(reservation);
    move(sql, item.id, 'launching', 'queued', now());
    this.backOff(result.retryAfter, now());
    return 'next';
  }

  /** The service answered 429/503: nothing launches before the wait is over, then one probes. */
  backOff(retryAfter: number | null, now: number): void {
    const state = readState(this.host.sql);
    const attempts = state.attempts + 1;
    const until = now + backoffMs(retryAfter, attempts, (this.host.random ?? Math.random)());
    writeState(this.host.sql, { ...state, attempts, backoffUntil: Math.max(state.backoffUntil, until) });
  }
}
