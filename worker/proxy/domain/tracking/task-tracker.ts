import { fromMicros, isFinished, toMicros, type TaskStatus } from '../../../../shared';
import { rawJsonResponse, type ProxyResponse } from '../../infra/http/responses';
import type { Ending, LedgerPort, Reservation } from '../ledger/ledger-port';
import { signedAddress } from '../media/media-address';
import type { MediaEnv } from '../media/media-env';
import { lastFrameId, outputId } from '../media/media-ids';
import { copyOutput, deleteOutput } from '../media/output-keeper';
import { keepOutputsDays, mediaUrlTtlSeconds, trackIntervalMs, upstreamTimeoutMs } from '../../infra/settings/proxy-settings';
import { videoCall, type Upstream } from '../../infra/upstream/fetch';
import { withArkbridge, type ArkbridgeField } from './arkbridge-field';

/**
 * Follows one member's video tasks to their end, on the member object's own alarm: one alarm per
 * object, set to the earliest `next_check_at` in storage. Every query of a task, by the alarm or
 * for a member's GET, goes through one single-flight refresh that starts at most once per
 * TRACK_INTERVAL_SECONDS, however many clients watch. An ended task is settled with the ledger
 * and, when completed, its video copied into the media store (kept outputs).
 */

/** The service keeps tasks this long; older ones are no longer followed. */
export const TASK_RETENTION_MS = 7 * 86_400_000;
/** The longest wait between two queries of a task the service is failing to answer. */
export const MAX_BACKOFF_MS = 10 * 60_000;
/** The service's result links live about 24 hours: copies are tried until then. */
export const OUTPUT_LINK_MS = 24 * 3_600_000;
/** A task answer larger than this is not kept (the service's are about a kilobyte). */
const BODY_MAX = 256 * 1024;
/** Tasks handled per alarm run, and at once. */
const DUE_PER_RUN = 50;
const PARALLEL = 8;

interface TaskRow {
  id: string;
  reservation: string;
  cost: number;
  estimate: number | null;
  currency: string;
  priced: number;
  status: string;
  body: string;
  refreshed_at: number;
  next_check_at: number | null;
  failures: number;
  tracking: 'tracking' | 'ended' | 'expired';
  settled: number;
  tokens: number | null;
  created_at: number;
  ended_at: number | null;
  keep_state: 'pending' | 'kept' | 'failed' | 'deleted' | null;
  keep_next_at: number | null;
  keep_attempts: number;
  keep_error: string | null;
  kept_until: number | null;
  kept_size: number | null;
}

export interface TrackerHost {
  sql: SqlStorage;
  env: MediaEnv;
  /** The team's ledger (a fresh handle per call): status changes, settling, storage. */
  ledger(): LedgerPort;
  /** Sets the object's one alarm (or clears it with null). */
  setAlarm(at: number | null): void;
  memberId(): string | null;
  memberName(): string | null;
  /**
   * A task ended completed or failed and the ledger has its ending: `answer` is the task as the
   * proxy answers it. Called once per task, in the step that records the settlement (webhooks).
   */
  ended?(taskId: string, status: 'completed' | 'failed', answer: string): void;
}

/** The service's task answer, as far as tracking reads it. */
interface ServiceTask {
  id?: unknown;
  status?: unknown;
  usage?: { completion_tokens?: unknown };
  metadata?: { url?: unknown; last_frame_url?: unknown };
}

/** The service's last-frame link of a stored task answer (a create with `return_last_frame`), or null. */
function lastFrameUrl(body: string): string | null {
  try {
    const url = (JSON.parse(body) as ServiceTask).metadata?.last_frame_url;
    return typeof url === 'string' ? url : null;
  } catch {
    return null;
  }
}

export class TaskTracker {
  readonly #inflight = new Map<string, Promise<Upstream>>();
  readonly #finishing = new Map<string, Promise<void>>();
  #alarmAt: number | null | undefined;

  constructor(private readonly host: TrackerHost) {}

  get #interval(): number {
    return trackIntervalMs(this.host.env);
  }

  #row(id: string): TaskRow | undefined {
    return this.host.sql.exec('SELECT * FROM tasks WHERE id = ?', id).toArray()[0] as TaskRow | undefined;
  }

  /** Starts following a task the service just accepted; its create answer is the first record. */
  record(task: { id: string; status: string }, serviceJson: string, reservation: Reservation, startedAt: number): string {
    const ended = isFinished(task.status as TaskStatus);
    this.host.sql.exec(
      `INSERT OR IGNORE INTO tasks (id, reservation, cost, estimate, currency, priced, status, body, refreshed_at, next_check_at, tracking, created_at, ended_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      task.id, reservation.id, toMicros(reservation.cost), toMicros(reservation.cost), reservation.currency, reservation.priced ? 1 : 0, task.status,
      serviceJson.length <= BODY_MAX ? serviceJson : '{}', startedAt, startedAt + this.#interval, ended ? 'ended' : 'tracking', startedAt, ended ? startedAt : null,
    );
    this.#schedule();
    return this.#answerBody(this.#row(task.id)!, null);
  }

  /**
   * A member's GET of a task the proxy follows: from the record when it is fresh or the task
   * ended, else from one query of the service (shared by every concurrent reader). Null when
   * the proxy has no record of the task (created before tracking existed).
   */
  async answer(id: string, origin: string): Promise<ProxyResponse | { upstream: Upstream } | null> {
    const row = this.#row(id);
    if (!row) return null;
    // An ending being finished (settled, its video copied) is answered once finished, as the reader
    // whose query met the ending is: a `keep: pending` answer would not be read again for a minute.
    const finishing = this.#finishing.get(id);
    if (finishing) {
      await finishing.catch(() => undefined);
      return rawJsonResponse(200, this.#answerBody(this.#row(id)!, origin));
    }
    if (row.tracking !== 'tracking' || !this.#due(row)) return rawJsonResponse(200, this.#answerBody(row, origin));
    const up = await this.#refresh(row);
    // A 200 the tracker could not use leaves the record as it was: answered all the same.
    return up.status === 200 ? rawJsonResponse(200, this.#answerBody(this.#row(id)!, origin)) : { upstream: up };
  }

  /**
   * Whether a reader's GET should query the service: the record is older than the interval, and
   * the last check did not fail with a wait still running (a failed query counts as a check: the
   * next one is at `next_check_at`, after the backoff or the service's Retry-After). A query in
   * flight is shared.
   */
  #due(row: TaskRow): boolean {
    const now = Date.now();
    if (now - row.refreshed_at < this.#interval) return false;
    if (this.#inflight.has(row.id)) return true;
    return !(row.failures > 0 && row.next_check_at !== null && now < row.next_check_at);
  }

  /** The service's answer with the proxy's `arkbridge` member: cost and estimate, and the kept copy (a fresh signed address each time). */
  #answerBody(row: TaskRow, origin: string | null): string {
    const field: ArkbridgeField = { cost: fromMicros(row.cost), estimate: fromMicros(row.estimate ?? row.cost), currency: row.currency, priced: row.priced === 1 };
    if (row.tracking === 'expired') field.tracking = 'expired';
    const member = this.host.memberId();
    const secret = this.host.env.MEDIA_URL_SECRET;
    if (row.keep_state === 'kept' && origin && member && secret && row.kept_until) {
      const until = Math.min(row.kept_until, Math.floor(Date.now() / 1000) + mediaUrlTtlSeconds(this.host.env));
      field.keptUrl = signedAddress(secret, origin, outputId(member, row.id)!, until);
      // A kept task with a last-frame link has its frame kept too: the two are kept together (#keep).
      if (lastFrameUrl(row.body) !== null) field.keptLastFrameUrl = signedAddress(secret, origin, lastFrameId(member, row.id)!, until);
      field.keptUntil = row.kept_until;
    } else if (row.keep_state && row.keep_state !== 'kept') {
      field.keep = row.keep_state;
      if (row.keep_state === 'failed' && row.keep_error) field.keepError = row.keep_error.slice(0, 400);
    }
    return withArkbridge(row.body, field);
  }

  /** One query of the service for a task; concurrent callers share it. Rejects when the service cannot be reached. */
  #refresh(row: TaskRow): Promise<Upstream> {
    let pending = this.#inflight.get(row.id);
    if (!pending) {
      pending = this.#query(row).finally(() => this.#inflight.delete(row.id));
      this.#inflight.set(row.id, pending);
    }
    return pending;
  }

  async #query(row: TaskRow): Promise<Upstream> {
    const started = Date.now();
    // Claim the interval before the call, so that no second query starts while this one runs.
    this.host.sql.exec('UPDATE tasks SET next_check_at = ? WHERE id = ?', started + this.#interval, row.id);
    let up: Upstream;
    try {
      up = await videoCall(this.host.env, 'GET', `/v1/video/generations/${encodeURIComponent(row.id)}`, undefined, upstreamTimeoutMs(this.host.env));
    } catch (error) {
      this.#failed(row, started, null);
      throw error;
    }
    let task: ServiceTask | null = null;
    try {
      task = up.status === 200 && up.body.length <= BODY_MAX ? (JSON.parse(up.body) as ServiceTask) : null;
    } catch {
      task = null;
    }
    if (task && task.id === row.id && typeof task.status === 'string') await this.#update(row, task, up.body, started);
    else this.#failed(row, started, up.retryAfter);
    this.#schedule();
    return up;
  }

  /** The service answered: keep its answer; an ended task is settled and its video kept. */
  async #update(row: TaskRow, task: ServiceTask, body: string, started: number): Promise<void> {
    const status = task.status as string;
    const ended = status === 'completed' || status === 'failed';
    // `unknown` is an answer, but not progress: ask again later, backing off.
    const failures = status === 'unknown' ? row.failures + 1 : 0;
    const tokens = typeof task.usage?.completion_tokens === 'number' ? Math.round(task.usage.completion_tokens) : null;
    const keep = status === 'completed' && typeof task.metadata?.url === 'string' && keepOutputsDays(this.host.env) > 0 && Boolean(this.host.env.MEDIA_URL_SECRET);
    this.host.sql.exec(
      `UPDATE tasks SET status = ?, body = ?, refreshed_at = ?, failures = ?, next_check_at = ?, tracking = ?, tokens = ?, ended_at = ?,
              keep_state = ?, keep_next_at = ? WHERE id = ?`,
      status, body, started, failures, ended ? started : started + this.#delay(failures, null), ended ? 'ended' : 'tracking', tokens, ended ? Date.now() : null,
      keep ? 'pending' : null, keep ? started : null, row.id,
    );
    if (ended) await this.#finish(row.id);
    else if (status !== row.status) await this.host.ledger().status(row.reservation, status).catch(() => undefined);
  }

  /** No usable answer: ask again after a backoff (or the service's Retry-After when longer). */
  #failed(row: TaskRow, started: number, retryAfter: string | null): void {
    const failures = row.failures + 1;
    this.host.sql.exec('UPDATE tasks SET failures = ?, next_check_at = ? WHERE id = ?', failures, started + this.#delay(failures, retryAfter), row.id);
  }

  #delay(failures: number, retryAfter: string | null): number {
    const backoff = Math.min(this.#interval * 2 ** Math.min(failures, 10), MAX_BACKOFF_MS);
    const asked = Number(retryAfter) * 1000;
    return failures === 0 ? this.#interval : Math.max(backoff, Number.isFinite(asked) ? Math.min(asked, MAX_BACKOFF_MS) : 0);
  }

  /**
   * What is left to do for an ended task: tell the ledger how it ended (until it is told), copy the
   * video (while the copy is pending and due). Then the next check is the earliest retry, or none.
   */
  #finish(id: string): Promise<void> {
    // One at a time per task: an alarm run and a reader's query may meet the same ending.
    let pending = this.#finishing.get(id);
    if (!pending) {
      pending = this.#finishOnce(id).finally(() => this.#finishing.delete(id));
      this.#finishing.set(id, pending);
    }
    return pending;
  }

  async #finishOnce(id: string): Promise<void> {
    let row = this.#row(id)!;
    let settleRetryAt: number | null = null;
    if (!row.settled) {
      const ending: Ending = row.tracking === 'expired' ? 'expired' : (row.status as Ending);
      try {
        const settled = await this.host.ledger().settle(row.reservation, row.id, ending, row.tokens, this.host.memberName());
        // From now on the task's cost is what was charged (its estimate stays what was reserved).
        const first = this.host.sql.exec('UPDATE tasks SET settled = 1, cost = COALESCE(?, cost) WHERE id = ? AND settled = 0', settled ? toMicros(settled.cost) : null, id).rowsWritten > 0;
        // Told in the same step as the settlement is recorded: once, whoever else finished it meanwhile.
        if (first && row.tracking === 'ended' && (row.status === 'completed' || row.status === 'failed')) this.host.ended?.(id, row.status, this.#answerBody(this.#row(id)!, null));
      } catch {
        this.host.sql.exec('UPDATE tasks SET failures = failures + 1 WHERE id = ?', id);
        settleRetryAt = Date.now() + this.#delay(row.failures + 1, null);
      }
    }
    row = this.#row(id)!;
    if (row.keep_state === 'pending' && (row.keep_next_at ?? 0) <= Date.now()) await this.#keep(row);
    row = this.#row(id)!;
    const next = Math.min(settleRetryAt ?? Infinity, row.keep_state === 'pending' ? (row.keep_next_at ?? Infinity) : Infinity);
    this.host.sql.exec('UPDATE tasks SET next_check_at = ? WHERE id = ?', Number.isFinite(next) ? next : null, id);
  }

  /**
   * One attempt to copy a completed task's video, and its last frame when it has one, into the
   * media store; retried with backoff while the service's links live. Both are kept or neither,
   * so a kept task always has what its answer names.
   */
  async #keep(row: TaskRow): Promise<void> {
    const member = this.host.memberId();
    const url = (JSON.parse(row.body) as ServiceTask).metadata?.url;
    const frameUrl = lastFrameUrl(row.body);
    if (!member || typeof url !== 'string' || !outputId(member, row.id)) {
      this.host.sql.exec("UPDATE tasks SET keep_state = 'failed', keep_error = ? WHERE id = ?", 'The task has no video link to copy.', row.id);
      return;
    }
    const keptUntil = Math.floor(Date.now() / 1000) + keepOutputsDays(this.host.env) * 86_400;
    const video = await copyOutput(this.host.env, member, row.id, url, keptUntil);
    const frame = video.ok && frameUrl !== null ? await copyOutput(this.host.env, member, row.id, frameUrl, keptUntil, 'frame') : null;
    if (frame && !frame.ok) await deleteOutput(this.host.env, member, row.id).catch(() => undefined);
    const attempt = frame && !frame.ok ? frame : video;
    if (attempt.ok) {
      const size = attempt.size + (frame?.ok ? frame.size : 0);
      this.host.sql.exec("UPDATE tasks SET keep_state = 'kept', kept_until = ?, kept_size = ?, keep_error = NULL WHERE id = ?", keptUntil, size, row.id);
      await this.host.ledger().addStorage(member, 'outputs', size).catch(() => undefined);
      return;
    }
    const attempts = row.keep_attempts + 1;
    const nextAt = Date.now() + Math.min(60_000 * 2 ** Math.min(attempts - 1, 5), 30 * 60_000);
    const linkGone = (row.ended_at ?? row.created_at) + OUTPUT_LINK_MS < nextAt;
    if (attempt.retry && !linkGone) {
      this.host.sql.exec('UPDATE tasks SET keep_attempts = ?, keep_next_at = ?, keep_error = ? WHERE id = ?', attempts, nextAt, attempt.message, row.id);
    } else {
      this.host.sql.exec("UPDATE tasks SET keep_state = 'failed', keep_attempts = ?, keep_error = ? WHERE id = ?", attempts, `${attempt.message} The video was not kept; download it from the service's link while it lasts.`, row.id);
    }
  }

  /** `DELETE /proxy/outputs/:taskId`: removes the kept copy and its last frame. False when there is none. */
  async deleteKept(id: string): Promise<boolean> {
    const row = this.#row(id);
    const member = this.host.memberId();
    if (!row || !member || row.keep_state !== 'kept') return false;
    const size = await deleteOutput(this.host.env, member, id);
    const frameSize = await deleteOutput(this.host.env, member, id, 'frame');
    this.host.sql.exec("UPDATE tasks SET keep_state = 'deleted', kept_until = NULL, kept_size = NULL WHERE id = ?", id);
    if (size !== null || frameSize !== null) await this.host.ledger().addStorage(member, 'outputs', -((size ?? 0) + (frameSize ?? 0)));
    return size !== null;
  }

  /** The alarm: queries every task that is due, expires what the service no longer keeps, finishes what ended. */
  async runDue(): Promise<void> {
    const now = Date.now();
    this.host.sql.exec(
      "UPDATE tasks SET tracking = 'expired', ended_at = ?, next_check_at = ? WHERE tracking = 'tracking' AND created_at < ?",
      now, now, now - TASK_RETENTION_MS,
    );
    const due = this.host.sql.exec('SELECT * FROM tasks WHERE next_check_at <= ? ORDER BY next_check_at LIMIT ?', now, DUE_PER_RUN).toArray() as unknown as TaskRow[];
    for (let i = 0; i < due.length; i += PARALLEL) {
      await Promise.all(due.slice(i, i + PARALLEL).map((row) => (row.tracking === 'tracking' ? this.#refresh(row).catch(() => undefined) : this.#finish(row.id))));
    }
    this.#schedule();
  }

  /** When the next task is due, or null. */
  nextCheckAt(): number | null {
    return this.host.sql.exec('SELECT MIN(next_check_at) AS at FROM tasks WHERE next_check_at IS NOT NULL').one().at as number | null;
  }

  /** Points the object's alarm at the earliest due task. */
  #schedule(): void {
    const next = this.nextCheckAt();
    if (next === this.#alarmAt) return;
    this.#alarmAt = next;
    this.host.setAlarm(next);
  }

  /** Forgets the alarm time kept in memory (the alarm fired, so storage no longer holds it). */
  alarmFired(): void {
    this.#alarmAt = undefined;
  }
}
