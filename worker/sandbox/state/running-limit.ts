import { videoError, type VideoApiError } from '../../../shared';
import { rows, type Ctx } from './state-context';

/**
 * The service's limit of tasks an account has `queued` or `in_progress` at once
 * (`SANDBOX_MAX_RUNNING`, or an account's own through `POST /sandbox/limits`; 0: no limit). A create
 * past it is the service's 429 `rate_limit_exceeded` with `Retry-After`, and nothing is created.
 */

const settingKey = (account: string) => `max_running:${account}`;

/** The account's limit: its own when a test set one, else the setting; 0 is none. */
export function maxRunningOf(ctx: Ctx, account: string): number {
  const own = rows<{ value: string }>(ctx.sql, 'SELECT value FROM settings WHERE key = ?', settingKey(account))[0];
  return own ? Number(own.value) : ctx.timing.maxRunning;
}

/** Sets (a number) or clears (null: the setting again) the account's own limit. */
export function setMaxRunning(sql: SqlStorage, account: string, maxRunning: number | null): void {
  if (maxRunning === null) sql.exec('DELETE FROM settings WHERE key = ?', settingKey(account));
  else sql.exec('INSERT OR REPLACE INTO settings VALUES (?, ?)', settingKey(account), String(maxRunning));
}

interface Unended {
  created_at: number;
  refs_done_at: number | null;
  download: string;
}

/**
 * When each of the account's tasks not yet ended will end (ms, sandbox time). Only tasks young
 * enough to be running are read (the index on account keeps it to one account's recent rows): a task
 * ends at the later of its create plus the video time and its references' download.
 */
function endsOfRunning(ctx: Ctx, account: string): number[] {
  const total = ctx.timing.videoSeconds * 1000;
  const candidates = rows<Unended>(
    ctx.sql,
    "SELECT created_at, refs_done_at, download FROM tasks WHERE account = ? AND download <> 'failed' AND (download = 'pending' OR created_at > ? OR refs_done_at > ?)",
    account, ctx.now - total, ctx.now - total,
  );
  const ends: number[] = [];
  for (const t of candidates) {
    // A pending download holds the task queued until it ends: at least another video time.
    const end = t.download === 'pending' ? ctx.now + total : Math.max(t.created_at + total, t.refs_done_at ?? 0);
    if (end > ctx.now) ends.push(end);
  }
  return ends;
}

/** The 429 for a create past the account's limit, or null when the create may go on. */
export function runningLimitRefusal(ctx: Ctx, account: string): { body: VideoApiError; retryAfter: number } | null {
  const limit = maxRunningOf(ctx, account);
  if (limit <= 0) return null;
  const ends = endsOfRunning(ctx, account);
  if (ends.length < limit) return null;
  // A slot frees when the earliest running task ends.
  const retryAfter = Math.max(1, Math.ceil((Math.min(...ends) - ctx.now) / 1000));
  const message = `This account already has ${ends.length} tasks queued or in progress (limit ${limit}): wait ${retryAfter} s; do not resubmit repeatedly.`;
  return { body: videoError('rate_limit_exceeded', message, 'rate_limit_error'), retryAfter };
}
