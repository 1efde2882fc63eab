import { DurableObject } from 'cloudflare:workers';
import {
  formatMoney,
  fromMicros,
  randomHex,
  tableUnit,
  taskCost,
  toMicros,
  type AuditEntry,
  type BudgetAlert,
  type BudgetState,
  type MemberBudgetChange,
  type MemberBudgetOverview,
  type MemberBudgetState,
  type PricedRequest,
  type PriceTable,
  type QuoteAnswer,
  type StorageUse,
  type TeamBudgetChange,
  type TeamTask,
  type UsageRow,
  type UsageView,
} from '../../../shared';
import type { ProxyEnv } from '../infra/settings/proxy-env';
import { alertWebhookProblem, allowHttpMedia, trackIntervalMs } from '../infra/settings/proxy-settings';
import { WebhookOutbox, type HandedEvent } from '../domain/webhooks/webhook-outbox';
import { answerWebhookCall, type WebhookCall } from '../domain/webhooks/webhook-calls';
import { memberWebhookPort } from './object-stubs';
import type { Ending, Refused, Reservation, Settled, SlotRequest, StorageKind, UpstreamBusy } from '../domain/ledger/ledger-port';
import * as slots from '../domain/queue/upstream-slots';
import { alertsFor, raiseAlerts, webhookPayload } from '../domain/ledger/alerts';
import { appendAudit, readAudit } from '../domain/ledger/audit-log';
import { addToTotals, budgetState, memberBudgetState, memberScope, readBudget, refusalFor, TEAM, writeBudget, type Refusal } from '../domain/ledger/budget-book';
import { insertReservation, settleCharge, settledCharge } from '../domain/ledger/charges';
import { openLedgerSchema } from '../domain/ledger/ledger-schema';
import { refusalDetail, refused } from '../domain/ledger/refusals';
import { releaseUnknown, sweepStaleReservations, type UnknownCreate } from '../domain/ledger/orphan-sweep';
import { PriceBook, type StoredPrices } from '../domain/ledger/price-book';
import { chargeDrift, storageByMember, storageOf, teamTasks, usageCsv, usageRows, type ChargeDrift, type TaskFilter } from '../domain/ledger/usage-report';

/**
 * The team's money, in one Durable Object so that every decision about it is serialised: prices,
 * budgets of the team and of each member, reservations and charges, alerts and the audit log.
 * A create costs one call here before it goes upstream (`reserve`); reads of tasks never come
 * here. One object handles on the order of a thousand reservations a second (docs/budgets.md).
 */
export class TeamLedger extends DurableObject<ProxyEnv> {
  readonly #sql: SqlStorage;
  readonly #prices: PriceBook;
  /** The team's webhook: every member's events, and every budget alert (docs/webhooks.md). */
  readonly #webhooks: WebhookOutbox;
  #alarmAt: number | null | undefined;
  /** Webhook posts still being sent; the next ones wait for them. */
  #webhookQueue: Promise<void> = Promise.resolve();

  constructor(state: DurableObjectState, env: ProxyEnv) {
    super(state, env);
    this.#sql = this.ctx.storage.sql;
    openLedgerSchema(this.#sql);
    this.#prices = new PriceBook(this.#sql);
    this.#webhooks = new WebhookOutbox({
      sql: this.#sql,
      // `member:<id>`: an alert of that member's budget, for the member's own webhook.
      hand: (destination, event) => memberWebhookPort(env, destination.slice('member:'.length)).acceptEvent(event),
      armAlarm: () => this.#armAlarm(),
      allowLoopback: allowHttpMedia(env),
    });
  }

  // --- the team's webhook (its outbox is sent from this object's alarm) ---

  override async alarm(): Promise<void> {
    this.#alarmAt = undefined;
    await this.#webhooks.runDue();
  }

  #armAlarm(): void {
    const next = this.#webhooks?.nextAt() ?? null;
    if (next === this.#alarmAt) return;
    this.#alarmAt = next;
    void (next === null ? this.ctx.storage.deleteAlarm() : this.ctx.storage.setAlarm(Math.max(next, Date.now())));
  }

  /** `/admin/webhook` and its deliveries. */
  teamWebhook(call: WebhookCall) {
    return answerWebhookCall(this.#webhooks, call);
  }

  /** A member's event (task, asset), for the team's webhook. */
  acceptEvent(event: HandedEvent): void {
    this.#webhooks.accept(event);
  }

  webhookWants(types: string[]): boolean {
    return this.#webhooks.wants(types as HandedEvent['type'][]);
  }

  get #currency(): string {
    return this.#prices.table().currency;
  }

  // --- the create path (called by members' objects) ---

  /**
   * Prices a create and reserves its cost against the member's and the team's budgets, or
   * refuses it. Check and write happen in one synchronous step: no interleaving of concurrent
   * creates can spend past a limit.
   */
  reserve(member: string, request: PricedRequest, slot: SlotRequest = { cap: 0, queueable: false }): Reservation | Refused | UpstreamBusy {
    const now = Date.now();
    const currency = this.#currency;
    const cost = taskCost(this.#prices.table(), request);
    const refusal = refusalFor(this.#sql, member, cost.micros, now, cost.priced ? null : request.model);
    if (refusal) return this.#refuse(member, request.model, refusal, currency, now);
    // The team's cap at the service (domain/queue/upstream-slots.ts), in the same step as the reservation.
    const start = slots.mayStart(this.#sql, slot.cap, slot.queueable);
    if (!start && !slot.queueable) return { ok: false, kind: 'busy', running: slots.runningAtService(this.#sql), cap: slot.cap, retryAfter: trackIntervalMs(this.env) / 1000 };
    const id = `r${randomHex(12)}`;
    insertReservation(this.#sql, id, member, request.model, cost, now);
    slots.markStart(this.#sql, id, start ? now : null);
    return { ok: true, id, cost: fromMicros(cost.micros), currency, priced: cost.priced, unit: cost.unit, tokens: cost.tokens, queued: !start };
  }

  // --- the gateway's queue (objects/team-queue.ts) takes slots here, where they are counted ---

  claimSlot(reservation: string, cap: number): slots.Claim {
    return slots.claimSlot(this.#sql, reservation, cap, Date.now());
  }

  holdSlot(reservation: string): void {
    slots.holdSlot(this.#sql, reservation);
  }

  lastLaunches(members: string[]): Record<string, number> {
    return slots.lastLaunches(this.#sql, members);
  }

  /** The team's tasks running at the service now (GET /admin/queue). */
  runningAtService(): number {
    return slots.runningAtService(this.#sql);
  }

  /**
   * What `reserve` would reserve for this create, and what the member's and the team's budgets
   * have left before it: nothing is written (POST /proxy/quote).
   */
  quote(member: string, request: PricedRequest): QuoteAnswer {
    const now = Date.now();
    const table = this.#prices.table();
    const cost = taskCost(table, request);
    return {
      cost: fromMicros(cost.micros),
      currency: table.currency,
      priced: cost.priced,
      unit: tableUnit(table),
      tokens: cost.tokens,
      remaining: budgetState(this.#sql, memberScope(member), table.currency, now).remaining,
      teamRemaining: budgetState(this.#sql, TEAM, table.currency, now).remaining,
    };
  }

  /** `quote`, or the refusal `reserve` would answer (same rule: `refusalFor`), with nothing written. */
  quoteCreate(member: string, request: PricedRequest): QuoteAnswer | Refused {
    const cost = taskCost(this.#prices.table(), request);
    const refusal = refusalFor(this.#sql, member, cost.micros, Date.now(), cost.priced ? null : request.model);
    return refusal ? refused(refusal, this.#currency) : this.quote(member, request);
  }

  #refuse(member: string, model: string, refusal: Refusal, currency: string, now: number): Refused {
    appendAudit(this.#sql, now, member, 'create.refused', refusal.kind === 'budget' && refusal.scope === 'team' ? TEAM : memberScope(member), refusalDetail(refusal, model));
    return refused(refusal, currency);
  }

  /** The service accepted the create: the reservation now belongs to this task. */
  bind(reservation: string, taskId: string, status: string): void {
    this.#sql.exec("UPDATE charges SET task_id = ?, status = ? WHERE id = ? AND state = 'reserved'", taskId, status, reservation);
  }

  /** The create was refused, or failed without a task: the reservation is released and forgotten. */
  release(reservation: string): void {
    const row = this.#sql.exec("SELECT member, cost, created_at FROM charges WHERE id = ? AND state = 'reserved' AND task_id IS NULL", reservation).toArray()[0];
    if (!row) return;
    this.#sql.exec('DELETE FROM charges WHERE id = ?', reservation);
    addToTotals(this.#sql, String(row.member), row.created_at as number, { spent: 0, reserved: -(row.cost as number) });
  }

  /** A create cut off with its outcome unknown: released and audited (domain/ledger/orphan-sweep.ts). */
  unknownCreate(reservation: string, create: UnknownCreate): boolean {
    return releaseUnknown(this.#sql, reservation, create, Date.now());
  }

  /** The hourly sweep of reservations no create stands behind any more (domain/ledger/orphan-sweep.ts). */
  sweepStale(): number {
    return sweepStaleReservations(this.#sql, Date.now());
  }

  /** A tracked task's status changed (not yet ended). */
  status(reservation: string, status: string): void {
    this.#sql.exec("UPDATE charges SET status = ? WHERE id = ? AND state = 'reserved'", status, reservation);
  }

  /**
   * A tracked task ended (domain/ledger/charges.ts): failed costs nothing; completed is charged the
   * tokens the service reported x the price when priced per token (the rest released), else what
   * was reserved; expired is charged as reserved, since it may have completed. More tokens than
   * reserved are charged all the same and flagged `overrun` (and audited). Settling twice changes
   * nothing and answers the same figures.
   */
  settle(reservation: string, taskId: string, ending: Ending, tokens: number | null, memberName: string | null = null): Settled | null {
    const now = Date.now();
    const settled = settleCharge(this.#sql, reservation, taskId, ending, tokens, now);
    if (!settled) return settledCharge(this.#sql, reservation);
    const { member, createdAt, charged, reserved } = settled;
    if (settled.overrun) {
      appendAudit(this.#sql, now, 'ledger', 'task.overrun', memberScope(member), { task: taskId, estimate: fromMicros(reserved), cost: fromMicros(charged), tokens });
    }
    if (charged > 0) this.#alert([...raiseAlerts(this.#sql, memberScope(member), createdAt), ...raiseAlerts(this.#sql, TEAM, createdAt)], memberName);
    return settled.view;
  }

  /** Records new alerts in the audit log and sends them to ALERT_WEBHOOK_URL (in the background). */
  #alert(alerts: BudgetAlert[], memberName: string | null): void {
    if (!alerts.length) return;
    const currency = this.#currency;
    for (const alert of alerts) {
      appendAudit(this.#sql, Date.now(), 'ledger', 'budget.alert', alert.scope === 'team' ? TEAM : memberScope(alert.member!), { threshold: alert.threshold, period: alert.periodKey, limit: alert.limit, spent: alert.spent });
      // In the step that raised it: to the team's webhook, and a member's budget's to the member's.
      this.#webhooks.emit('budget.alert', alert, { handTo: alert.scope === 'member' && alert.member ? [`member:${alert.member}`] : [] });
    }
    const url = this.env.ALERT_WEBHOOK_URL;
    if (!url) return;
    const refused = alertWebhookProblem(this.env);
    if (refused) return this.#alertUrlRefused(refused);
    // One after another, in the order raised, so a chat channel reads 80 % before 95 %.
    const sent = this.#webhookQueue.then(async () => {
      for (const alert of alerts) await postWebhook(url, webhookPayload(alert, currency, alert.scope === 'team' ? null : memberName));
    });
    this.#webhookQueue = sent;
    this.ctx.waitUntil(sent);
  }

  #alertRefusalLogged: string | null = null;

  /** A refused ALERT_WEBHOOK_URL is never posted to; said once per object and reason in the log (and on the console's webhook page). */
  #alertUrlRefused(problem: string): void {
    if (this.#alertRefusalLogged === problem) return;
    this.#alertRefusalLogged = problem;
    console.error(JSON.stringify({ level: 'error', message: `ALERT_WEBHOOK_URL is not posted to: it ${problem} (docs/webhooks.md).` }));
  }

  // --- what members see ---

  usage(member: string): UsageView {
    const now = Date.now();
    const own = memberBudgetState(this.#sql, member, this.#currency, now);
    const { currency: _c, period, ...team } = budgetState(this.#sql, TEAM, this.#currency, now);
    const { member: _m, ...rest } = own;
    return { ...rest, team: { ...team, period }, alerts: alertsFor(this.#sql, member, now), storage: storageOf(this.#sql, member) };
  }

  // --- the media store's bytes (uploads and kept outputs) per member ---

  addStorage(member: string, kind: StorageKind, delta: number): void {
    // Never below zero: a cleanup and a delete of the same object may both report it.
    if (this.#sql.exec('UPDATE storage SET bytes = MAX(0, bytes + ?) WHERE member = ? AND kind = ?', delta, member, kind).rowsWritten === 0) {
      this.#sql.exec('INSERT INTO storage (member, kind, bytes) VALUES (?, ?, ?)', member, kind, Math.max(0, delta));
    }
  }

  // --- administration ---

  prices(): StoredPrices {
    return this.#prices.current();
  }

  setPrices(table: PriceTable, actor: string): StoredPrices {
    const now = Date.now();
    const stored = this.#prices.replace(table, now);
    appendAudit(this.#sql, now, actor, 'prices.set', null, { currency: table.currency, unit: tableUnit(table), models: Object.keys(table.models).length });
    return stored;
  }

  resetPrices(actor: string): StoredPrices {
    const stored = this.#prices.reset();
    appendAudit(this.#sql, Date.now(), actor, 'prices.reset', null, {});
    return stored;
  }

  memberBudget(member: string): MemberBudgetState {
    return memberBudgetState(this.#sql, member, this.#currency, Date.now());
  }

  /** The budgets of `members` and when each last created a task: one call for a whole team (the console's Members page). */
  memberBudgets(members: readonly string[]): MemberBudgetOverview[] {
    const now = Date.now();
    const last = new Map(
      this.#sql
        .exec<{ member: string; at: number }>('SELECT member, MAX(created_at) AS at FROM charges WHERE task_id IS NOT NULL GROUP BY member')
        .toArray()
        .map((r) => [r.member, r.at]),
    );
    return members.map((member) => {
      const at = last.get(member);
      return { ...memberBudgetState(this.#sql, member, this.#currency, now), lastTaskAt: at === undefined ? null : new Date(at).toISOString() };
    });
  }

  setMemberBudget(member: string, change: MemberBudgetChange, actor: string): MemberBudgetState {
    const now = Date.now();
    const scope = memberScope(member);
    const before = readBudget(this.#sql, scope);
    const after = {
      limit: change.limit === undefined ? before.limit : change.limit === null ? null : toMicros(change.limit),
      period: change.period ?? before.period,
      maxRunning: change.maxRunning === undefined ? before.maxRunning : change.maxRunning,
    };
    writeBudget(this.#sql, scope, after, now);
    appendAudit(this.#sql, now, actor, 'budget.set', scope, { limit: after.limit === null ? null : fromMicros(after.limit), period: after.period, maxRunning: after.maxRunning });
    // A lowered limit may already be crossed: say so now, not at the next charge.
    this.#alert(raiseAlerts(this.#sql, scope, now), null);
    return this.memberBudget(member);
  }

  teamBudget(): BudgetState {
    return budgetState(this.#sql, TEAM, this.#currency, Date.now());
  }

  setTeamBudget(change: TeamBudgetChange, actor: string): BudgetState {
    const now = Date.now();
    const before = readBudget(this.#sql, TEAM);
    const after = { limit: change.limit === undefined ? before.limit : change.limit === null ? null : toMicros(change.limit), period: change.period ?? before.period, maxRunning: null };
    writeBudget(this.#sql, TEAM, after, now);
    appendAudit(this.#sql, now, actor, 'team_budget.set', TEAM, { limit: after.limit === null ? null : fromMicros(after.limit), period: after.period });
    this.#alert(raiseAlerts(this.#sql, TEAM, now), null);
    return this.teamBudget();
  }

  /** Records an admin change made elsewhere (members are added, rotated and revoked by the directory). */
  audit(actor: string, action: string, target: string | null, detail: Record<string, unknown>): void {
    appendAudit(this.#sql, Date.now(), actor, action, target, detail);
  }

  auditEntries(limit: number): AuditEntry[] {
    return readAudit(this.#sql, limit);
  }

  report(from: string, to: string): { currency: string; from: string; to: string; rows: UsageRow[]; drift: ChargeDrift; storage: (StorageUse & { member: string })[] } {
    return { currency: this.#currency, from, to, rows: usageRows(this.#sql, from, to), drift: chargeDrift(this.#sql, from, to), storage: storageByMember(this.#sql) };
  }

  reportCsv(from: string, to: string): string {
    return usageCsv(usageRows(this.#sql, from, to));
  }

  tasks(filter: TaskFilter): TeamTask[] {
    return teamTasks(this.#sql, filter);
  }
}

/** Posts an alert; one retry after a second. A webhook that fails is logged, never fatal: the alert is in the audit log. */
async function postWebhook(url: string, payload: unknown): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(payload), signal: AbortSignal.timeout(10_000) });
      await response.body?.cancel();
      if (response.ok) return;
    } catch {
      // retried below
    }
    if (attempt === 0) await new Promise((r) => setTimeout(r, 1000));
  }
  console.error(JSON.stringify({ level: 'error', message: 'The budget alert webhook (ALERT_WEBHOOK_URL) did not accept an alert.' }));
}
