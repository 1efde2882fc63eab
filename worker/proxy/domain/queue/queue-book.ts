import { randomHex, type QueueItem } from '../../../../shared';
import type { Reservation } from '../ledger/ledger-port';
import { fairOrder, type Queued } from './fair-order';
import { openLaunchTimes } from './launch-times';

/**
 * The queue's storage in the team's queue object (objects/team-queue.ts): its items and its
 * backoff. An item is `queued`, then `launching` (the intent, written before the launch is sent, so
 * that a restart finds it and asks the member's object what came of it rather than sending it
 * again), then `launched`, `failed` or `cancelled`. Members see `launching` as `queued`.
 */

export const QUEUE_SCHEMA = `
CREATE TABLE IF NOT EXISTS queue_items (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  member TEXT NOT NULL,
  model TEXT NOT NULL,
  body TEXT NOT NULL,            -- the create's JSON as the member sent it; emptied once ended
  reservation TEXT NOT NULL,     -- the ledger's reservation (JSON), held while queued
  status TEXT NOT NULL,          -- queued | launching | launched | failed | cancelled
  created_at INTEGER NOT NULL,
  ended_at INTEGER,
  task_id TEXT,
  error TEXT                     -- the service's {code, message} (JSON) when failed
);
CREATE INDEX IF NOT EXISTS queue_items_status ON queue_items (status, seq);
CREATE INDEX IF NOT EXISTS queue_items_member ON queue_items (member, seq);
CREATE TABLE IF NOT EXISTS queue_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  cap INTEGER NOT NULL,          -- UPSTREAM_MAX_RUNNING as the Worker last passed it
  backoff_until INTEGER NOT NULL,
  attempts INTEGER NOT NULL      -- busy answers in a row
);
`;

/** Bounds: the team's queue, one member's share of it, one queued body (a stored row holds 2 MB at most). */
export const QUEUE_LIMITS = { team: 10_000, member: 1_000, bodyBytes: 1_000_000 } as const;
/** How long an ended item stays readable. */
export const ENDED_KEPT_MS = 7 * 24 * 3600 * 1000;

export type ItemStatus = 'queued' | 'launching' | 'launched' | 'failed' | 'cancelled';

export interface ItemRow {
  seq: number;
  id: string;
  member: string;
  model: string;
  body: string;
  reservation: string;
  status: ItemStatus;
  created_at: number;
  ended_at: number | null;
  task_id: string | null;
  error: string | null;
}

export interface NewItem {
  member: string;
  model: string;
  body: string;
  reservation: Reservation;
}

const rowsOf = (sql: SqlStorage, query: string, ...bindings: unknown[]) => sql.exec(query, ...bindings).toArray() as unknown as ItemRow[];

export const newQueueId = (): string => `abq_${randomHex(12)}`;

export function openQueue(sql: SqlStorage): void {
  sql.exec(QUEUE_SCHEMA);
  openLaunchTimes(sql);
  sql.exec('INSERT OR IGNORE INTO queue_state (id, cap, backoff_until, attempts) VALUES (1, 0, 0, 0)');
}

export const waiting = (sql: SqlStorage): ItemRow[] => rowsOf(sql, "SELECT * FROM queue_items WHERE status IN ('queued', 'launching') ORDER BY seq");

/** The waiting items without their bodies: what the fair order needs, read on every launch and enqueue. */
export const waitingOrder = (sql: SqlStorage): Queued[] =>
  sql.exec("SELECT id, member, seq FROM queue_items WHERE status IN ('queued', 'launching') ORDER BY seq").toArray().map((r) => ({ id: String(r.id), member: String(r.member), seq: r.seq as number }));

/** Why the queue takes no more of this member's creates, or null. */
export function fullFor(sql: SqlStorage, member: string): string | null {
  const team = sql.exec("SELECT COUNT(*) AS n FROM queue_items WHERE status IN ('queued', 'launching')").one().n as number;
  if (team >= QUEUE_LIMITS.team) return `the team's queue holds ${QUEUE_LIMITS.team} creates, its most`;
  const own = sql.exec("SELECT COUNT(*) AS n FROM queue_items WHERE member = ? AND status IN ('queued', 'launching')", member).one().n as number;
  return own >= QUEUE_LIMITS.member ? `you have ${QUEUE_LIMITS.member} creates queued, the most one member may` : null;
}

export function addItem(sql: SqlStorage, item: NewItem, now: number): ItemRow {
  const id = newQueueId();
  sql.exec(
    "INSERT INTO queue_items (id, member, model, body, reservation, status, created_at) VALUES (?, ?, ?, ?, ?, 'queued', ?)",
    id, item.member, item.model, item.body, JSON.stringify(item.reservation), now,
  );
  return itemById(sql, id)!;
}

export const itemById = (sql: SqlStorage, id: string): ItemRow | undefined => rowsOf(sql, 'SELECT * FROM queue_items WHERE id = ?', id)[0];

/** Moves an item from `from` to `to` only if it is still `from`: the one way statuses change. */
export function move(sql: SqlStorage, id: string, from: ItemStatus, to: ItemStatus, now: number, end: { taskId?: string; error?: unknown } = {}): boolean {
  const ended = to === 'launched' || to === 'failed' || to === 'cancelled';
  return sql.exec(
    `UPDATE queue_items SET status = ?, ended_at = ?, task_id = COALESCE(?, task_id), error = COALESCE(?, error)${ended ? ", body = ''" : ''} WHERE id = ? AND status = ?`,
    to, ended ? now : null, end.taskId ?? null, end.error === undefined ? null : JSON.stringify(end.error), id, from,
  ).rowsWritten > 0;
}

/** Forgets ended items past their keeping time. */
export const forgetEnded = (sql: SqlStorage, now: number): void => void sql.exec('DELETE FROM queue_items WHERE ended_at IS NOT NULL AND ended_at < ?', now - ENDED_KEPT_MS);

export interface QueueState {
  cap: number;
  backoffUntil: number;
  attempts: number;
}

export function readState(sql: SqlStorage): QueueState {
  const row = sql.exec('SELECT cap, backoff_until, attempts FROM queue_state WHERE id = 1').one();
  return { cap: row.cap as number, backoffUntil: row.backoff_until as number, attempts: row.attempts as number };
}

export function writeState(sql: SqlStorage, state: QueueState): void {
  sql.exec('UPDATE queue_state SET cap = ?, backoff_until = ?, attempts = ? WHERE id = 1', state.cap, state.backoffUntil, state.attempts);
}

/** Positions (1-based) of the waiting items in the fair order. */
export function positions(sql: SqlStorage, lastLaunch: Record<string, number>): Map<string, number> {
  const order = fairOrder(waitingOrder(sql), lastLaunch);
  return new Map(order.map((item, i) => [item.id, i + 1]));
}

/** An item as members and the admin read it (shared/gateway/queue.ts). */
export function itemView(row: ItemRow, position: number | null, withMember: boolean): QueueItem {
  const view: QueueItem = {
    id: row.id,
    status: row.status === 'launching' ? 'queued' : row.status,
    position: row.status === 'queued' || row.status === 'launching' ? position : null,
    model: row.model,
    createdAt: Math.floor(row.created_at / 1000),
    taskId: row.task_id,
    error: row.error === null ? null : (JSON.parse(row.error) as QueueItem['error']),
  };
  return withMember ? { ...view, memberId: row.member } : view;
}

/** The items of one member (or everyone's: null), newest first, at most `limit`. */
export const itemsOf = (sql: SqlStorage, member: string | null, limit: number): ItemRow[] =>
  member === null
    ? rowsOf(sql, 'SELECT * FROM queue_items ORDER BY seq DESC LIMIT ?', limit)
    : rowsOf(sql, 'SELECT * FROM queue_items WHERE member = ? ORDER BY seq DESC LIMIT ?', member, limit);
