import type { AssetHolderPort, TeamLibraryPort } from './sharing-ports';

/**
 * The notes of deleted assets a member's object still has to tell the team library and the assets'
 * owners of (asset-removals.ts writes them, the object sends them): apart from the rules that write
 * them, so that the member's context can hold them with no import back to it.
 */

export const REMOVALS_SCHEMA = `
CREATE TABLE IF NOT EXISTS asset_removals (
  asset_id TEXT PRIMARY KEY,
  owner TEXT,                  -- whose library held it; null: not asked yet; '': nobody else's
  attempts INTEGER NOT NULL DEFAULT 0,
  next_at INTEGER NOT NULL);
`;

const MAX_BACKOFF_MS = 10 * 60_000;

/** Others must forget it too: `owner` when known ('': the member itself), else asked of the team library. */
export function noteRemoval(sql: SqlStorage, assetId: string, owner: string | null): void {
  sql.exec('INSERT OR REPLACE INTO asset_removals (asset_id, owner, attempts, next_at) VALUES (?, ?, 0, ?)', assetId, owner, Date.now());
}

/** When the next note is due, or null. */
export const nextRemovalAt = (sql: SqlStorage): number | null => (sql.exec('SELECT MIN(next_at) AS at FROM asset_removals').one().at as number | null) ?? null;

/**
 * A member object's notes, with when the next one is due kept in memory: every library call asks
 * it before answering (a delete's news is told then), and nearly all of them have none to send, so
 * that costs one query per object instance, not one per call. The object is the only writer of its
 * table, here one call at a time, and every write through this class forgets the time kept.
 */
export class RemovalNotes {
  readonly #sql: SqlStorage;
  /** undefined: not read in this instance since the last change. */
  #next: number | null | undefined;

  constructor(sql: SqlStorage) {
    this.#sql = sql;
    sql.exec(REMOVALS_SCHEMA);
  }

  /** When the next note is due, or null for none. */
  nextAt(): number | null {
    if (this.#next === undefined) this.#next = nextRemovalAt(this.#sql);
    return this.#next;
  }

  note(assetId: string, owner: string | null): void {
    this.#next = undefined;
    noteRemoval(this.#sql, assetId, owner);
  }

  /** Sends the notes that are due (sendRemovals); none held, no query. */
  async send(deps: RemovalDeps): Promise<void> {
    if (this.nextAt() === null) return;
    try {
      await sendRemovals(this.#sql, deps);
    } finally {
      this.#next = undefined;
    }
  }
}

export interface RemovalDeps {
  memberId: string;
  team(): TeamLibraryPort;
  holder(owner: string): AssetHolderPort;
}

/** Sends the notes that are due; one that fails waits for the alarm, later each time. */
export async function sendRemovals(sql: SqlStorage, deps: RemovalDeps): Promise<void> {
  const now = Date.now();
  const due = sql.exec<{ asset_id: string; owner: string | null; attempts: number }>('SELECT asset_id, owner, attempts FROM asset_removals WHERE next_at <= ?', now).toArray();
  for (const note of due) {
    try {
      let owner = note.owner;
      if (owner === null) {
        // Asked before the team library forgets the asset: afterwards nobody could say whose it was.
        owner = (await deps.team().assetAccess(deps.memberId, [note.asset_id]))[0]?.owner ?? '';
        sql.exec('UPDATE asset_removals SET owner = ? WHERE asset_id = ?', owner, note.asset_id);
      }
      await deps.team().forgetAsset(note.asset_id);
      if (owner && owner !== deps.memberId) await deps.holder(owner).assetRemoved(note.asset_id);
      sql.exec('DELETE FROM asset_removals WHERE asset_id = ?', note.asset_id);
    } catch (error) {
      console.error(JSON.stringify({ level: 'error', message: `asset removal not sent yet: ${String(error)}` }));
      const wait = Math.min(1_000 * 2 ** Math.min(note.attempts, 10), MAX_BACKOFF_MS);
      sql.exec('UPDATE asset_removals SET attempts = attempts + 1, next_at = ? WHERE asset_id = ?', Date.now() + wait, note.asset_id);
    }
  }
}
