import { LIMITS } from '../../../../shared';
import type { ProxyResponse } from '../../infra/http/responses';
import { withDeadline } from '../../infra/upstream/fetch';
import { sha256Hex } from '../../../../shared';

/**
 * Idempotency records of one member. The record is marked in progress before the upstream call,
 * so a concurrent retry sees it; only accepted creates are kept (24 hours).
 */

export const RETENTION_MS = 24 * 3600 * 1000;

export type Lookup =
  | { kind: 'new' }
  | { kind: 'replay'; response: ProxyResponse }
  | { kind: 'in_progress' }
  | { kind: 'reused' }
  /** The attempt under this key was cut off with its outcome unknown (creates-in-flight.ts); the key is now free. */
  | { kind: 'unknown' };

/** Why an Idempotency-Key header value is unacceptable, or null. */
export const keyProblem = (key: string): string | null =>
  key.length >= 1 && key.length <= LIMITS.idempotencyKeyMax && /^[\x21-\x7e]+$/.test(key)
    ? null
    : `Idempotency-Key: must be 1 to ${LIMITS.idempotencyKeyMax} visible ASCII characters`;

/** Looks the key up and, when new, marks it in progress, in one synchronous step. */
export function begin(sql: SqlStorage, key: string, bodyHash: string, now = Date.now()): Lookup {
  sql.exec('DELETE FROM idempotency WHERE created_at < ?', now - RETENTION_MS);
  const row = sql.exec('SELECT * FROM idempotency WHERE key = ?', key).toArray()[0] as
    | { body_hash: string; state: string; status: number; body: string; headers: string }
    | undefined;
  if (!row) {
    sql.exec("INSERT INTO idempotency (key, body_hash, state, created_at) VALUES (?, ?, 'in_progress', ?)", key, bodyHash, now);
    return { kind: 'new' };
  }
  if (row.body_hash !== bodyHash) return { kind: 'reused' };
  if (row.state === 'unknown') {
    // Said once; the next request with this key runs as a fresh create.
    sql.exec('DELETE FROM idempotency WHERE key = ?', key);
    return { kind: 'unknown' };
  }
  if (row.state !== 'done') return { kind: 'in_progress' };
  return { kind: 'replay', response: { status: row.status, body: row.body, headers: JSON.parse(row.headers) } };
}

/** The record's key: `<operation>:<Idempotency-Key>`. */
export const recordKey = (scope: string, header: string): string => `${scope}:${header}`;

/**
 * The attempt under `key` was cut off (the proxy stopped mid-create) and its outcome is unknown:
 * the next request with the key is told so once (`outcomeUnknown`), then the key is free again.
 */
export function markUnknown(sql: SqlStorage, key: string): void {
  sql.exec("UPDATE idempotency SET state = 'unknown' WHERE key = ? AND state = 'in_progress'", key);
}

/** Keeps the accepted response for replays. */
export function complete(sql: SqlStorage, key: string, response: ProxyResponse): void {
  sql.exec(
    "UPDATE idempotency SET state = 'done', status = ?, body = ?, headers = ? WHERE key = ?",
    response.status, response.body, JSON.stringify(response.headers), key,
  );
}

/** How one interface answers the refusals of the idempotency rule, and a create that outlives its deadline. */
export interface IdempotencyAnswers {
  invalidKey(problem: string): ProxyResponse;
  inProgress(): ProxyResponse;
  reused(): ProxyResponse;
  /** The earlier attempt under this key was cut off with its outcome unknown; its reservation is released. None: the retry just runs. */
  outcomeUnknown?(): ProxyResponse;
  /** The 504 of a create still running at the deadline; `keyed`: a retry with the same key gets its outcome. */
  stillRunning(keyed: boolean): ProxyResponse;
}

/** What a create came to: its response, and whether it was accepted (kept for replays). */
export interface Outcome {
  response: ProxyResponse;
  accepted: boolean;
}

/** One create of a member, as the idempotency rule runs it. */
export interface IdempotentCreate {
  sql: SqlStorage;
  /** Keeps the keys of different operations apart (`CreateAsset:<key>`, `video:<key>`). */
  scope: string;
  /** The `Idempotency-Key` header; none: the create just runs. */
  header: string | null;
  /** The decoded body, hashed to tell a retry from a reuse of the key. */
  body: unknown;
  answers: IdempotencyAnswers;
  /** How long the member waits (UPSTREAM_TIMEOUT_MS). */
  deadlineMs: number;
  /** Keeps the create alive after the member's answer. */
  waitUntil(promise: Promise<unknown>): void;
}

/**
 * Runs one create under its `Idempotency-Key` (none: it just runs), within the member's deadline.
 * The record is begun before `run` and settled once from its outcome: kept when accepted,
 * forgotten otherwise (also when `run` throws), so a refused attempt can be retried with the same
 * key. A create still running at the deadline goes on (its outcome is kept under the key) and the
 * member is answered `stillRunning` at once: a slow service never makes a second task.
 */
export async function idempotentCreate(create: IdempotentCreate, run: () => Promise<Outcome>): Promise<ProxyResponse> {
  const running = keyed(create, run);
  const answered = await withDeadline(running, create.deadlineMs);
  if (answered) return answered;
  create.waitUntil(running);
  return create.answers.stillRunning(create.header !== null);
}

async function keyed({ sql, scope, header, body, answers }: IdempotentCreate, run: () => Promise<Outcome>): Promise<ProxyResponse> {
  if (header === null) return (await run()).response;
  const problem = keyProblem(header);
  if (problem) return answers.invalidKey(problem);
  const key = recordKey(scope, header);
  let found = begin(sql, key, await bodyHash(body));
  if (found.kind === 'unknown') {
    if (answers.outcomeUnknown) return answers.outcomeUnknown();
    found = begin(sql, key, await bodyHash(body));
  }
  if (found.kind === 'replay') return found.response;
  if (found.kind === 'in_progress') return answers.inProgress();
  if (found.kind === 'reused') return answers.reused();
  let outcome: Outcome;
  try {
    outcome = await run();
  } catch (error) {
    abandon(sql, key);
    throw error;
  }
  if (outcome.accepted) complete(sql, key, outcome.response);
  else abandon(sql, key);
  return outcome.response;
}

/** Forgets an attempt that was not accepted, so it can be retried with the same key. */
export function abandon(sql: SqlStorage, key: string): void {
  sql.exec('DELETE FROM idempotency WHERE key = ?', key);
}

/** A marker for text already written out, on the work stack of `canonicalJson`. */
class Text {
  constructor(readonly text: string) {}
}

/**
 * A JSON value as text with object keys sorted, so that key order and whitespace do not make a
 * different request. An explicit stack instead of recursion: no body can exhaust the call stack.
 */
export function canonicalJson(value: unknown): string {
  let out = '';
  const work: unknown[] = [value];
  while (work.length) {
    const item = work.pop();
    if (item instanceof Text) out += item.text;
    else if (Array.isArray(item)) {
      work.push(new Text(']'));
      for (let i = item.length - 1; i >= 0; i--) work.push(item[i], ...(i ? [new Text(',')] : []));
      work.push(new Text('['));
    } else if (item !== null && typeof item === 'object') {
      const keys = Object.keys(item).sort();
      work.push(new Text('}'));
      for (let i = keys.length - 1; i >= 0; i--) {
        work.push((item as Record<string, unknown>)[keys[i]!], new Text(`${i ? ',' : ''}${JSON.stringify(keys[i])}:`));
      }
      work.push(new Text('{'));
    } else out += JSON.stringify(item) ?? 'null';
  }
  return out;
}

/** A stable hash of a JSON body (see `canonicalJson`). */
export async function bodyHash(value: unknown): Promise<string> {
  return sha256Hex(canonicalJson(value));
}
