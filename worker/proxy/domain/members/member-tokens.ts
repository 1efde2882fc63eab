import { MEMBER_TOKENS_MAX, randomHex, type TokenInfo } from '../../../../shared';

/**
 * A member's tokens (docs/identity.md): one per browser or script, each with a label, stored only
 * as the SHA-256 of the token. Kept in the member's own object, which decides every request of the
 * member: a token deleted here is refused from the next request on, whatever else the member holds.
 * The object reads them into memory once and drops that copy on every change, all made here one at
 * a time, so the copy is never behind storage. When a token was last used is written at most once a
 * minute per token, never once per request.
 */

export const TOKENS_SCHEMA = `
CREATE TABLE IF NOT EXISTS tokens (
  id TEXT PRIMARY KEY,
  label TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE, -- SHA-256 of the token; the token itself is never stored
  created_at INTEGER NOT NULL,
  last_used_at INTEGER             -- ms, written at most once per LAST_USED_STEP_MS
);
`;

/** How stale `lastUsedAt` may be: it is written when it is at least this old. */
export const LAST_USED_STEP_MS = 60_000;

/** The label of the token a member is added with (the admin's connect link) and of one the admin rotates to. */
export const ADDED_LABEL = 'Added by the admin';
export const ROTATED_LABEL = 'Rotated by the admin';

interface Held {
  id: string;
  lastUsedAt: number | null;
}

const newTokenId = (): string => `t${randomHex(8)}`;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export class TokenBook {
  readonly #sql: SqlStorage;
  #byHash: Map<string, Held> | undefined;

  constructor(sql: SqlStorage) {
    this.#sql = sql;
    const existed = sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'tokens'").toArray().length > 0;
    sql.exec(TOKENS_SCHEMA);
    if (!existed) this.#adoptProfileToken();
  }

  /**
   * A member object from before tokens kept its one token's hash in the profile: it becomes the
   * member's first token, once, as the table is made (a token deleted later stays deleted). The
   * profile's `token_hash` still names the token the admin issued last, while it exists: nothing
   * authenticates with it.
   */
  #adoptProfileToken(): void {
    const row = this.#sql.exec<{ token_hash: string; created_at: number }>("SELECT token_hash, created_at FROM profile WHERE token_hash != '' AND revoked = 0").toArray()[0];
    if (row) this.#sql.exec('INSERT OR IGNORE INTO tokens (id, label, token_hash, created_at) VALUES (?, ?, ?, ?)', newTokenId(), ADDED_LABEL, row.token_hash, row.created_at);
  }

  #held(): Map<string, Held> {
    if (!this.#byHash) {
      const rows = this.#sql.exec<{ id: string; token_hash: string; last_used_at: number | null }>('SELECT id, token_hash, last_used_at FROM tokens').toArray();
      this.#byHash = new Map(rows.map((r) => [r.token_hash, { id: r.id, lastUsedAt: r.last_used_at }]));
    }
    return this.#byHash;
  }

  /** The id of the token with this hash, or null; notes its use (written at most once a minute). */
  use(tokenHash: string, now: number): string | null {
    const held = this.#held().get(tokenHash);
    if (!held) return null;
    if (held.lastUsedAt === null || now - held.lastUsedAt >= LAST_USED_STEP_MS) {
      held.lastUsedAt = now;
      this.#sql.exec('UPDATE tokens SET last_used_at = ? WHERE id = ?', now, held.id);
    }
    return held.id;
  }

  /** Whether a token of this hash is held (without noting a use). */
  holds(tokenHash: string): boolean {
    return this.#held().has(tokenHash);
  }

  count(): number {
    return this.#held().size;
  }

  /** Adds a token; null when the member already holds the most allowed. */
  add(label: string, tokenHash: string, now: number): { id: string; label: string } | null {
    if (this.count() >= MEMBER_TOKENS_MAX) return null;
    const id = newTokenId();
    this.#sql.exec('INSERT INTO tokens (id, label, token_hash, created_at) VALUES (?, ?, ?, ?)', id, label, tokenHash, now);
    this.#byHash = undefined;
    return { id, label };
  }

  /** The member's tokens, oldest first; `currentHash` marks the one a request was made with. */
  list(currentHash: string | null): TokenInfo[] {
    return this.#sql
      .exec<{ id: string; label: string; token_hash: string; created_at: number; last_used_at: number | null }>('SELECT * FROM tokens ORDER BY created_at, id')
      .toArray()
      .map((r) => ({ id: r.id, label: r.label, createdAt: iso(r.created_at)!, lastUsedAt: iso(r.last_used_at), current: r.token_hash === currentHash }));
  }

  /** Deletes one token: refused from the next request on. False when there is no such token. */
  remove(id: string): boolean {
    const row = this.#sql.exec<{ token_hash: string }>('DELETE FROM tokens WHERE id = ? RETURNING token_hash', id).toArray()[0];
    this.#byHash = undefined;
    if (row) this.#sql.exec("UPDATE profile SET token_hash = '' WHERE token_hash = ?", row.token_hash);
    return Boolean(row);
  }

  /** Every token gone (revocation), or replaced by one (the admin's rotation). */
  replaceAll(replacement: { label: string; tokenHash: string; now: number } | null): void {
    this.#sql.exec('DELETE FROM tokens');
    this.#byHash = undefined;
    if (replacement) this.add(replacement.label, replacement.tokenHash, replacement.now);
  }
}
