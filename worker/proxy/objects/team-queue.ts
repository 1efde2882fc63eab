import { DurableObject } from 'cloudflare:workers';
import type { QueueItem } from '../../../shared';
import type { ProxyEnv } from '../infra/settings/proxy-env';
import { trackIntervalMs } from '../infra/settings/proxy-settings';
import { addItem, fullFor, itemById, itemsOf, itemView, move, openQueue, positions, readState, writeState, type NewItem } from '../domain/queue/queue-book';
import { QueueLauncher } from '../domain/queue/queue-launcher';
import { knownLaunches, refreshLaunches } from '../domain/queue/launch-times';
import type { Enqueued, LauncherPort, SlotPort } from '../domain/queue/queue-port';
import { launcherPort, slotPort } from './object-stubs';

/** How many items one listing answers at most (newest first). */
const LIST_MAX = 1_000;

/**
 * The team's queue of creates that could not start at once (docs/queue.md), in one object so that
 * its order and launches are serialised. Its items are in this object's storage, so a restart
 * loses none; its alarm launches them when a slot frees (domain/queue/queue-launcher.ts).
 */
export class TeamQueue extends DurableObject<ProxyEnv> {
  readonly #sql: SqlStorage;
  readonly #launcher: QueueLauncher;
  #alarmAt: number | null | undefined;
  /**
   * The queue's time (ms): its backoff and its items' times are read from it. A test holds it
   * (queue-test-steps.ts) so that a backoff ends when the test says, not when the machine gets
   * there. An instance property, so not reachable over RPC.
   */
  clock: () => number = () => Date.now();

  constructor(state: DurableObjectState, env: ProxyEnv) {
    super(state, env);
    this.#sql = this.ctx.storage.sql;
    openQueue(this.#sql);
    this.#launcher = new QueueLauncher({
      sql: this.#sql,
      slots: (): SlotPort => slotPort(env),
      member: (id): LauncherPort => launcherPort(env, id),
      pollMs: trackIntervalMs(env),
      arm: (at) => this.#arm(at),
    });
  }

  override async alarm(): Promise<void> {
    this.#alarmAt = undefined;
    await this.#launcher.run(() => this.clock());
  }

  #arm(at: number | null): void {
    if (at === this.#alarmAt) return;
    this.#alarmAt = at;
    // The runtime's alarm runs on its own clock: set as far ahead as `at` is on the queue's (the same with no clock held).
    void (at === null ? this.ctx.storage.deleteAlarm() : this.ctx.storage.setAlarm(Date.now() + Math.max(0, at - this.clock())));
  }

  /** A create that could not start: queued with its reservation; the launcher looks at once. */
  enqueue(item: NewItem, cap: number, busy: { retryAfter: number | null } | null): Enqueued {
    const full = fullFor(this.#sql, item.member);
    if (full) return { ok: false, full };
    const now = this.clock();
    writeState(this.#sql, { ...readState(this.#sql), cap });
    if (busy) this.#launcher.backOff(busy.retryAfter, now);
    const row = addItem(this.#sql, item, now);
    // A pass already due (the alarm set) sees the item: arming again would only add a pass, with its
    // calls to the ledger, per create while many arrive.
    if (this.#alarmAt === null || this.#alarmAt === undefined || busy) this.#arm(now);
    // The answer's position from the launch times the queue keeps: no call to the ledger per enqueue.
    return { ok: true, item: itemView(row, positions(this.#sql, knownLaunches(this.#sql)).get(row.id) ?? null, false) };
  }

  /** A slot may have freed: look now. */
  nudge(): void {
    const now = this.clock();
    // A pass under way looks once more before it waits (the ledger may have answered it busy before
    // this slot freed); otherwise a pass now.
    if (readState(this.#sql).backoffUntil <= now && !this.#launcher.wake()) this.#arm(now);
  }

  /** Positions on a read: from the ledger's launch times (one call), so direct launches count at once. */
  async #positions(): Promise<Map<string, number>> {
    return positions(this.#sql, await refreshLaunches(this.#sql, slotPort(this.env)));
  }

  async #view(id: string, member: string | null, withMember: boolean): Promise<QueueItem | null> {
    const row = itemById(this.#sql, id);
    if (!row || (member !== null && row.member !== member)) return null;
    return itemView(row, (await this.#positions()).get(id) ?? null, withMember);
  }

  /** A member's items (`member`), or everyone's (null, the admin's), newest first. */
  async list(member: string | null): Promise<QueueItem[]> {
    const places = await this.#positions();
    return itemsOf(this.#sql, member, LIST_MAX).map((row) => itemView(row, places.get(row.id) ?? null, member === null));
  }

  /** One item of the member's; null for none (another member's reads as none). */
  item(member: string, id: string): Promise<QueueItem | null> {
    return this.#view(id, member, false);
  }

  /** Until when the team backs off after the service answered busy (ms), or null (GET /admin/queue). */
  backoffUntil(): number | null {
    const until = readState(this.#sql).backoffUntil;
    return until > this.clock() ? until : null;
  }

  /**
   * Cancels a queued item of the member's (or anyone's: null, the admin's) and releases its
   * reservation: null for none, `not_queued` when it already left the queue (or is being launched).
   */
  async cancel(member: string | null, id: string): Promise<QueueItem | 'not_queued' | null> {
    const row = itemById(this.#sql, id);
    if (!row || (member !== null && row.member !== member)) return null;
    if (!move(this.#sql, id, 'queued', 'cancelled', this.clock())) return 'not_queued';
    await slotPort(this.env).release(JSON.parse(row.reservation).id);
    return this.#view(id, member, member === null);
  }
}
