import { FRAMES_PER_SECOND, fromMicros, USAGE_COLUMNS, type StorageUse, type TeamTask, type UsageRow } from '../../../../shared';

/** Reports of the team's tasks from the ledger's charges (GET /admin/usage, /admin/tasks). */

const DAY_MS = 86_400_000;

/**
 * One row per day (UTC, of creation), member and model, over `from` to `to` inclusive. Cost and
 * seconds count completed tasks (what was charged); tasks, completed and failed count them all.
 */
export function usageRows(sql: SqlStorage, from: string, to: string): UsageRow[] {
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`) + DAY_MS;
  return sql
    .exec(
      `SELECT strftime('%Y-%m-%d', created_at / 1000, 'unixepoch') AS day, member, model,
              COUNT(*) AS tasks,
              SUM(status = 'completed') AS completed,
              SUM(status = 'failed') AS failed,
              SUM(CASE WHEN state = 'charged' THEN frames ELSE 0 END) AS frames,
              SUM(CASE WHEN state = 'charged' THEN cost ELSE 0 END) AS cost,
              SUM(COALESCE(tokens, 0)) AS tokens
         FROM charges
        WHERE task_id IS NOT NULL AND created_at >= ? AND created_at < ?
        GROUP BY day, member, model
        ORDER BY day, member, model`,
      start, end,
    )
    .toArray()
    .map((r) => ({
      day: String(r.day),
      member: String(r.member),
      model: String(r.model),
      tasks: r.tasks as number,
      completed: r.completed as number,
      failed: r.failed as number,
      seconds: Math.round(((r.frames as number) / FRAMES_PER_SECOND) * 1000) / 1000,
      cost: fromMicros(r.cost as number),
      tokens: r.tokens as number,
    }));
}

/** What the charged tasks created from `from` to `to` cost, against what they had reserved (amounts in the currency). */
export interface ChargeDrift {
  /** Tasks charged (completed or expired). */
  tasks: number;
  charged: number;
  estimated: number;
  /** The service reported more than was reserved. */
  overruns: number;
}

/** The drift of charges from estimates over a report's days: charged - estimated, or charged / estimated. */
export function chargeDrift(sql: SqlStorage, from: string, to: string): ChargeDrift {
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`) + DAY_MS;
  const r = sql
    .exec(
      `SELECT COUNT(*) AS tasks, COALESCE(SUM(cost), 0) AS charged, COALESCE(SUM(COALESCE(estimate, cost)), 0) AS estimated, COALESCE(SUM(overrun), 0) AS overruns
         FROM charges WHERE state = 'charged' AND task_id IS NOT NULL AND created_at >= ? AND created_at < ?`,
      start, end,
    )
    .one();
  return { tasks: r.tasks as number, charged: fromMicros(r.charged as number), estimated: fromMicros(r.estimated as number), overruns: r.overruns as number };
}

/** A CSV cell: quoted when needed, and never read as a formula by a spreadsheet. */
function cell(value: string | number): string {
  if (typeof value === 'number') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The same rows as CSV (RFC 4180, CRLF), with a header line. */
export function usageCsv(rows: UsageRow[]): string {
  const lines = [USAGE_COLUMNS.join(',')];
  for (const row of rows) lines.push(USAGE_COLUMNS.map((c) => cell(row[c])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

export interface TaskFilter {
  member?: string | undefined;
  status?: string | undefined;
  limit: number;
}

/** The team's tasks, newest first. */
export function teamTasks(sql: SqlStorage, filter: TaskFilter): TeamTask[] {
  const where = ['task_id IS NOT NULL'];
  const bindings: unknown[] = [];
  if (filter.member) (where.push('member = ?'), bindings.push(filter.member));
  if (filter.status) (where.push('status = ?'), bindings.push(filter.status));
  return sql
    .exec(`SELECT * FROM charges WHERE ${where.join(' AND ')} ORDER BY created_at DESC LIMIT ?`, ...bindings, filter.limit)
    .toArray()
    .map((r) => ({
      id: String(r.task_id),
      member: String(r.member),
      model: String(r.model),
      status: String(r.status),
      // A failed task costs nothing: its reservation was released.
      cost: r.state === 'released' ? 0 : fromMicros(r.cost as number),
      estimate: fromMicros((r.estimate ?? r.cost) as number),
      tokens: r.tokens === null ? null : (r.tokens as number),
      overrun: r.overrun === 1,
      priced: r.priced === 1,
      createdAt: new Date(r.created_at as number).toISOString(),
      endedAt: r.ended_at === null ? null : new Date(r.ended_at as number).toISOString(),
    }));
}

/** Bytes one member keeps in the media store. */
export function storageOf(sql: SqlStorage, member: string): StorageUse {
  const use: StorageUse = { uploads: 0, outputs: 0 };
  for (const r of sql.exec('SELECT kind, bytes FROM storage WHERE member = ?', member).toArray()) use[r.kind as keyof StorageUse] = r.bytes as number;
  return use;
}

/** Bytes every member keeps, for the admin report. */
export function storageByMember(sql: SqlStorage): (StorageUse & { member: string })[] {
  const by = new Map<string, StorageUse & { member: string }>();
  for (const r of sql.exec('SELECT member, kind, bytes FROM storage WHERE bytes > 0 ORDER BY member').toArray()) {
    const member = String(r.member);
    const entry = by.get(member) ?? { member, uploads: 0, outputs: 0 };
    entry[r.kind as keyof StorageUse] = r.bytes as number;
    by.set(member, entry);
  }
  return [...by.values()];
}
