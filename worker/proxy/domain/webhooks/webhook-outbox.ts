import { outboundUrlProblem, WEBHOOK_DELIVERIES_MAX, type WebhookAnswer, type WebhookAttempt, type WebhookEventType, type WebhookFormat, type WebhookSet } from '../../../../shared';
import { DELIVERY_TIMEOUT_MS, newMessageId, newWebhookSecret, postSigned } from '../../infra/webhooks/standard-webhooks';
import { deliveryBody } from './chat-format';
import { WEBHOOK_SCHEMA } from './webhook-schema';

/**
 * One object's webhook and its outbox: the one owner of delivery and retry (docs/webhooks.md).
 * An event is written to the outbox in the same synchronous step as the change that raised it,
 * then sent from the object's alarm: a stop of the process at any point loses nothing (a send cut
 * off is sent again, with the same `webhook-id`: at least once). Non-2xx and no answer within
 * DELIVERY_TIMEOUT_MS are retried with exponential backoff for 24 hours, then given up (recorded).
 * Rows for another object (`team`, `member:<id>`) are handed to that object's outbox the same way.
 */

/** Retried for this long after the event, then given up. */
export const RETRY_WINDOW_MS = 24 * 3_600_000;
/** The first retry's wait; each next one doubles, up to MAX_RETRY_WAIT_MS. */
const FIRST_RETRY_MS = 10_000;
const MAX_RETRY_WAIT_MS = 3_600_000;
/** An attempt claims its row this long (a stop mid-send: retried then). */
const CLAIM_MS = DELIVERY_TIMEOUT_MS + 5_000;
/** Rows sent per alarm run, and at once. */
const DUE_PER_RUN = 40;
const PARALLEL = 4;
/** Done rows are kept this long, then deleted. */
const KEEP_DONE_MS = 7 * 86_400_000;

/** An event as it passes from one object's outbox to another's. */
export interface HandedEvent {
  id: string;
  type: WebhookEventType;
  event: string;
}

export interface OutboxHost {
  sql: SqlStorage;
  /** Hands an event to the outbox of `destination` (`team`, `member:<id>`); rejects when it could not. */
  hand(destination: string, event: HandedEvent): Promise<unknown>;
  /** Points the object's one alarm at the earliest of everything it waits for. */
  armAlarm(): void;
  /** Loopback receivers allowed (ALLOW_HTTP_MEDIA=on): the outbound rule is checked again before each send. */
  allowLoopback: boolean;
}

interface ConfigRow {
  url: string;
  events: string;
  format: WebhookFormat;
  secret: string;
  created_at: number;
  updated_at: number;
}

interface OutboxRow {
  id: string;
  destination: string;
  type: WebhookEventType;
  event: string;
  attempts: number;
  created_at: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

export class WebhookOutbox {
  readonly #sending = new Set<string>();

  constructor(private readonly host: OutboxHost) {
    host.sql.exec(WEBHOOK_SCHEMA);
  }

  get #sql(): SqlStorage {
    return this.host.sql;
  }

  #config(): ConfigRow | undefined {
    return this.#sql.exec('SELECT * FROM webhook').toArray()[0] as ConfigRow | undefined;
  }

  #answer(row: ConfigRow, withSecret: boolean): WebhookAnswer {
    return {
      url: row.url,
      events: JSON.parse(row.events),
      format: row.format,
      ...(withSecret ? { secret: row.secret } : {}),
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at),
    };
  }

  // --- the webhook ---

  /** The webhook, without its secret; null when none is set. */
  get(): WebhookAnswer | null {
    const row = this.#config();
    return row ? this.#answer(row, false) : null;
  }

  /** Sets the webhook: a first set makes the secret and shows it; a later one keeps it and does not. */
  set(input: WebhookSet): WebhookAnswer {
    const now = Date.now();
    const before = this.#config();
    if (before) {
      this.#sql.exec('UPDATE webhook SET url = ?, events = ?, format = ?, updated_at = ?', input.url, JSON.stringify(input.events), input.format, now);
    } else {
      this.#sql.exec('INSERT INTO webhook (id, url, events, format, secret, created_at, updated_at) VALUES (1, ?, ?, ?, ?, ?, ?)', input.url, JSON.stringify(input.events), input.format, newWebhookSecret(), now, now);
    }
    return this.#answer(this.#config()!, !before);
  }

  /** A new secret, shown once; the old one signs nothing from now on. Null when no webhook is set. */
  rotate(): WebhookAnswer | null {
    if (this.#sql.exec('UPDATE webhook SET secret = ?, updated_at = ?', newWebhookSecret(), Date.now()).rowsWritten === 0) return null;
    return this.#answer(this.#config()!, true);
  }

  /** Removes the webhook; what it had still to receive is dropped. False when none was set. */
  remove(): boolean {
    const removed = this.#sql.exec('DELETE FROM webhook').rowsWritten > 0;
    this.#sql.exec("UPDATE webhook_outbox SET state = 'dropped', next_at = NULL WHERE destination = 'own' AND next_at IS NOT NULL");
    this.host.armAlarm();
    return removed;
  }

  /** Whether the webhook takes any of these events. */
  wants(types: readonly WebhookEventType[]): boolean {
    const row = this.#config();
    if (!row) return false;
    const events = JSON.parse(row.events) as string[];
    return types.some((t) => events.includes(t));
  }

  // --- events in ---

  /**
   * Writes an event that just happened: for this object's webhook when it takes the type, and for
   * each of `handTo`. Synchronous: call it in the step that made the change. `source` names what
   * raised it; an event of the same source is written once, however often this is called.
   */
  emit(type: WebhookEventType, data: unknown, options: { source?: string; handTo?: readonly string[] } = {}): void {
    const now = Date.now();
    const dataJson = typeof data === 'string' ? data : JSON.stringify(data);
    // A task's data is the proxy's answer text, spliced in as it is.
    const event = `{"type":${JSON.stringify(type)},"timestamp":${JSON.stringify(iso(now))},"data":${dataJson}}`;
    const id = newMessageId();
    const destinations = [...(this.wants([type]) ? ['own'] : []), ...(options.handTo ?? [])];
    for (const destination of destinations) this.#insert({ id, destination, type, event }, options.source ?? null, now);
    if (destinations.length) this.host.armAlarm();
  }

  /** An event handed over by another object: queued for this object's webhook when it takes the type (once per id). */
  accept(handed: HandedEvent): void {
    if (!this.wants([handed.type])) return;
    this.#insert({ ...handed, destination: 'own' }, null, Date.now());
    this.host.armAlarm();
  }

  #insert(row: { id: string; destination: string; type: string; event: string }, source: string | null, now: number): void {
    this.#sql.exec(
      "INSERT OR IGNORE INTO webhook_outbox (id, destination, type, event, source, state, next_at, created_at) VALUES (?, ?, ?, ?, ?, 'pending', ?, ?)",
      row.id, row.destination, row.type, row.event, source, now, now,
    );
  }

  // --- sending, on the alarm ---

  /** When the next row is due, or null. */
  nextAt(): number | null {
    return this.#sql.exec('SELECT MIN(next_at) AS at FROM webhook_outbox WHERE next_at IS NOT NULL').one().at as number | null;
  }

  /** Sends (or hands on) every row that is due; old done rows are deleted. */
  async runDue(): Promise<void> {
    const now = Date.now();
    this.#sql.exec('DELETE FROM webhook_outbox WHERE next_at IS NULL AND created_at < ?', now - KEEP_DONE_MS);
    const due = (this.#sql.exec('SELECT * FROM webhook_outbox WHERE next_at <= ? ORDER BY next_at LIMIT ?', now, DUE_PER_RUN).toArray() as unknown as OutboxRow[])
      .filter((row) => !this.#sending.has(`${row.id} ${row.destination}`));
    for (let i = 0; i < due.length; i += PARALLEL) await Promise.all(due.slice(i, i + PARALLEL).map((row) => this.#attempt(row)));
    this.host.armAlarm();
  }

  async #attempt(row: OutboxRow): Promise<void> {
    const key = `${row.id} ${row.destination}`;
    this.#sending.add(key);
    const started = Date.now();
    // Claimed before sending: a stop mid-send leaves the row due again after the claim.
    this.#sql.exec('UPDATE webhook_outbox SET next_at = ?, attempts = attempts + 1 WHERE id = ? AND destination = ?', started + CLAIM_MS, row.id, row.destination);
    const attempt = row.attempts + 1;
    try {
      if (row.destination === 'own') await this.#deliver(row, attempt, started);
      else await this.#hand(row, attempt, started);
    } finally {
      this.#sending.delete(key);
    }
  }

  /** One POST to this object's webhook; the attempt is recorded in the delivery log. */
  async #deliver(row: OutboxRow, attempt: number, started: number): Promise<void> {
    const config = this.#config();
    if (!config) {
      this.#sql.exec("UPDATE webhook_outbox SET state = 'dropped', next_at = NULL WHERE id = ? AND destination = ?", row.id, row.destination);
      return;
    }
    // Checked again at send time: a URL stored before the rule, or ALLOW_HTTP_MEDIA since turned off.
    // A refusal is final (failed, not retried): the URL will not change its mind.
    const refused = outboundUrlProblem(config.url, { allowLoopback: this.host.allowLoopback });
    const result = refused
      ? { code: null, error: `Not sent: the webhook's url ${refused} (docs/webhooks.md). Set another url.` }
      : await postSigned(config.url, config.secret, row.id, deliveryBody(config.format, row.event), started);
    const ok = result.code !== null && result.code >= 200 && result.code < 300;
    const next = ok || refused ? null : this.#retryAt(row, attempt, Date.now());
    this.#settle(row, ok ? 'delivered' : next === null ? 'failed' : 'pending', next);
    this.#sql.exec(
      'INSERT INTO webhook_attempts (id, type, attempt, status, code, error, at, next_retry_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      row.id, row.type, attempt, ok ? 'delivered' : next === null ? 'failed' : 'retrying', result.code, ok ? null : result.error, started, next,
    );
    this.#sql.exec('DELETE FROM webhook_attempts WHERE seq <= (SELECT MAX(seq) FROM webhook_attempts) - ?', WEBHOOK_DELIVERIES_MAX);
  }

  /** Hands a row to another object's outbox, retried as a delivery is (not in the delivery log). */
  async #hand(row: OutboxRow, attempt: number, started: number): Promise<void> {
    let ok = true;
    try {
      await this.host.hand(row.destination, { id: row.id, type: row.type, event: row.event });
    } catch {
      ok = false;
    }
    const next = ok ? null : this.#retryAt(row, attempt, Math.max(started, Date.now()));
    this.#settle(row, ok ? 'delivered' : next === null ? 'failed' : 'pending', next);
  }

  #settle(row: OutboxRow, state: string, next: number | null): void {
    this.#sql.exec('UPDATE webhook_outbox SET state = ?, next_at = ? WHERE id = ? AND destination = ?', state, next, row.id, row.destination);
  }

  /**
   * The next attempt after `attempt` failed: the wait doubles from 10 s up to an hour; the last
   * attempt is at 24 hours after the event, and after it fails, none (given up).
   */
  #retryAt(row: OutboxRow, attempt: number, now: number): number | null {
    const end = row.created_at + RETRY_WINDOW_MS;
    if (now >= end) return null;
    return Math.min(now + Math.min(FIRST_RETRY_MS * 2 ** Math.min(attempt - 1, 20), MAX_RETRY_WAIT_MS), end);
  }

  // --- the delivery log ---

  /** The last 100 attempts to this object's webhook, newest first. */
  deliveries(): WebhookAttempt[] {
    const rows = this.#sql.exec('SELECT * FROM webhook_attempts ORDER BY seq DESC LIMIT ?', WEBHOOK_DELIVERIES_MAX).toArray();
    return rows.map((r) => ({
      id: String(r.id),
      type: r.type as WebhookEventType,
      attempt: r.attempt as number,
      status: r.status as WebhookAttempt['status'],
      code: r.code as number | null,
      error: r.error as string | null,
      at: iso(r.at as number),
      nextRetryAt: r.next_retry_at === null ? null : iso(r.next_retry_at as number),
    }));
  }
}
