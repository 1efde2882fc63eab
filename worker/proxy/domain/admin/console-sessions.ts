import { sha256Hex } from '../../infra/signing/sha256';

/**
 * Console sessions and sign-in throttling, kept server-side in the member directory's object
 * (admin-only; never on a member's path). A session is a random id in an HttpOnly cookie (only its
 * hash is stored) with its own CSRF token; it lasts 12 hours and sign-out deletes it.
 */

export const SESSION_SCHEMA = `
CREATE TABLE IF NOT EXISTS console_sessions (
  id_hash TEXT PRIMARY KEY,
  actor TEXT NOT NULL,         -- admin (token sign-in) or the Cloudflare Access identity's email
  csrf TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS signin_failures (
  source TEXT NOT NULL,        -- the client's address
  at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS signin_failures_source ON signin_failures (source, at);
`;

export const SESSION_MS = 12 * 3_600_000;
/** Failed sign-ins allowed per address in a window, then 429 until the window has passed. */
export const SIGNIN_FAILURES_MAX = 5;
export const SIGNIN_WINDOW_MS = 15 * 60_000;

const random = (): string => {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

export interface Session {
  actor: string;
  csrf: string;
  expiresAt: number;
}

export function openSession(sql: SqlStorage, actor: string, now: number): Session & { id: string } {
  sql.exec('DELETE FROM console_sessions WHERE expires_at < ?', now);
  const id = random();
  const session = { actor, csrf: random(), expiresAt: now + SESSION_MS };
  sql.exec('INSERT INTO console_sessions VALUES (?, ?, ?, ?, ?)', sha256Hex(id), actor, session.csrf, now, session.expiresAt);
  return { id, ...session };
}

export function readSession(sql: SqlStorage, id: string, now: number): Session | null {
  if (id.length > 100) return null;
  const row = sql.exec('SELECT actor, csrf, expires_at FROM console_sessions WHERE id_hash = ?', sha256Hex(id)).toArray()[0];
  if (!row || (row.expires_at as number) < now) return null;
  return { actor: String(row.actor), csrf: String(row.csrf), expiresAt: row.expires_at as number };
}

export function closeSession(sql: SqlStorage, id: string): void {
  sql.exec('DELETE FROM console_sessions WHERE id_hash = ?', sha256Hex(id));
}

/** The longest source kept: longer ones (a forged header) are counted under their first 64 characters. */
export const SOURCE_MAX = 64;

/** How a source is stored and counted: the one form both use, so that a failure always counts against its source. */
const sourceKey = (source: string): string => source.slice(0, SOURCE_MAX);

/** Whether `source` may try to sign in now (fewer than the allowed failures in the window). */
export function signinAllowed(sql: SqlStorage, source: string, now: number): boolean {
  sql.exec('DELETE FROM signin_failures WHERE at < ?', now - SIGNIN_WINDOW_MS);
  return (sql.exec('SELECT COUNT(*) AS n FROM signin_failures WHERE source = ?', sourceKey(source)).one().n as number) < SIGNIN_FAILURES_MAX;
}

export function noteSigninFailure(sql: SqlStorage, source: string, now: number): void {
  sql.exec('INSERT INTO signin_failures VALUES (?, ?)', sourceKey(source), now);
}
