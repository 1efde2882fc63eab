import { rows } from './state-context';

/** Test helpers' state: injected faults, request counters and the clock offset. */

export const FAULT_TARGETS = ['api/v3', 'v1-create', 'v1-get', 'v1-models'] as const;
export type FaultTarget = (typeof FAULT_TARGETS)[number];

export interface Fault {
  status: number;
  retryAfter: number | null;
  /** For v1-get with status 200: report the task with this status (e.g. `unknown`). */
  taskStatus: string | null;
  /** Wait this long before answering (with status 200: then answer normally), to simulate a slow service. */
  delayMs: number;
}

export interface FaultSpec extends Fault {
  target: FaultTarget;
  count: number;
}

export function setFault(sql: SqlStorage, f: FaultSpec): void {
  sql.exec('INSERT OR REPLACE INTO faults VALUES (?, ?, ?, ?, ?, ?)', f.target, f.status, f.count, f.retryAfter, f.taskStatus, f.delayMs);
}

/** Consumes one use of the target's fault, if any remain. */
export function takeFault(sql: SqlStorage, target: FaultTarget): Fault | null {
  const row = rows<{ status: number; remaining: number; retry_after: number | null; task_status: string | null; delay_ms: number }>(
    sql, 'SELECT * FROM faults WHERE target = ?', target,
  )[0];
  if (!row || row.remaining <= 0) return null;
  if (row.remaining === 1) sql.exec('DELETE FROM faults WHERE target = ?', target);
  else sql.exec('UPDATE faults SET remaining = remaining - 1 WHERE target = ?', target);
  return { status: row.status, retryAfter: row.retry_after, taskStatus: row.task_status, delayMs: row.delay_ms };
}

export function countRequest(sql: SqlStorage, target: string, action: string): void {
  sql.exec(
    'INSERT INTO stats VALUES (?, ?, 1) ON CONFLICT (target, action) DO UPDATE SET count = count + 1',
    target, action,
  );
}

export type Stats = Record<string, { total: number; actions: Record<string, number> }>;

/** Request counts per target, with per-action counts (`/api/v3` actions, downloads...). */
export function readStats(sql: SqlStorage): Stats {
  const out: Stats = {};
  for (const { target, action, count } of rows<{ target: string; action: string; count: number }>(sql, 'SELECT * FROM stats')) {
    const entry = (out[target] ??= { total: 0, actions: {} });
    entry.total += count;
    entry.actions[action] = count;
  }
  return out;
}

export const resetStats = (sql: SqlStorage): void => void sql.exec('DELETE FROM stats');

/** How far the clock may run ahead in all: 100 years keeps every time a valid date. */
export const CLOCK_OFFSET_MAX_SECONDS = 100 * 365 * 24 * 3600;

export const clearFaults = (sql: SqlStorage): void => void sql.exec('DELETE FROM faults');

/** Counts and latest change times of the data tables, faults and the clock, as one string. */
export function fingerprint(sql: SqlStorage): string {
  const one = (query: string) => sql.exec(query).toArray()[0] ?? {};
  return JSON.stringify([
    one('SELECT count(*) AS n, total(updated_at) AS t, total(length(name)) AS l, total(length(description)) AS d FROM groups'),
    one('SELECT count(*) AS n, total(updated_at) AS t, total(length(name)) AS l FROM assets'),
    one('SELECT count(*) AS n, total(length(refs)) AS r FROM tasks'),
    one("SELECT count(*) AS n, total(state <> 'pending') AS done FROM portraits"),
    one('SELECT count(*) AS n, total(remaining) AS r FROM faults'),
    one("SELECT count(*) AS n, total(CAST(value AS REAL)) AS v FROM settings"),
  ]);
}

export function clockOffset(sql: SqlStorage): number {
  const row = rows<{ value: string }>(sql, "SELECT value FROM settings WHERE key = 'clock'")[0];
  return row ? Number(row.value) : 0;
}

/** When the clock was stopped (ms, sandbox time), or null while it runs. */
export function clockFrozenAt(sql: SqlStorage): number | null {
  const row = rows<{ value: string }>(sql, "SELECT value FROM settings WHERE key = 'clock_frozen'")[0];
  return row ? Number(row.value) : null;
}

export function setClockFrozenAt(sql: SqlStorage, at: number | null): void {
  if (at === null) sql.exec("DELETE FROM settings WHERE key = 'clock_frozen'");
  else sql.exec("INSERT OR REPLACE INTO settings VALUES ('clock_frozen', ?)", String(at));
}

export function setClockOffset(sql: SqlStorage, offset: number): void {
  sql.exec("INSERT OR REPLACE INTO settings VALUES ('clock', ?)", String(offset));
}

export function advanceClock(sql: SqlStorage, seconds: number): number {
  const offset = clockOffset(sql) + seconds * 1000;
  sql.exec("INSERT OR REPLACE INTO settings VALUES ('clock', ?)", String(offset));
  return offset;
}
