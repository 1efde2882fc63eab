import { LIMITS } from '../../../shared';
import type { ProxyResponse } from '../http/responses';

/**
 * Idempotency records of one member. The record is marked in progress before the upstream call,
 * so a concurrent retry sees it; only accepted creates are kept (24 hours).
 */

export const RETENTION_MS = 24 * 3600 * 1000;

export type Lookup =
  | { kind: 'new' }
  | { kind: 'replay'; response: ProxyResponse }
  | { kind: 'in_progress' }
  | { kind: 'reused' };

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
  if (row.state !== 'done') return { kind: 'in_progress' };
  return { kind: 'replay', response: { status: row.status, body: row.body, headers: JSON.parse(row.headers) } };
}

/** Keeps the accepted response for replays. */
export function complete(sql: SqlStorage, key: string, response: ProxyResponse): void {
  sql.exec(
    "UPDATE idempotency SET state = 'done', status = ?, body = ?, headers = ? WHERE key = ?",
    response.status, response.body, JSON.stringify(response.headers), key,
  );
}

/** Forgets an attempt that was not accepted, so it can be retried with the same key. */
export function abandon(sql: SqlStorage, key: string): void {
  sql.exec('DELETE FROM idempotency WHERE key = ?', key);
}

/** A stable hash of a JSON body: key order and whitespace do not make a different request. */
export async function bodyHash(value: unknown): Promise<string> {
  const stable = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(stable) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, stable((v as Record<string, unknown>)[k])])) : v;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(stable(value))));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
