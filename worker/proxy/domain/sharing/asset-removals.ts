import type { MemberContext } from '../members/member-context';
import { disown } from '../members/owned';
import { dropSource } from './asset-sources';
import { sharedOut } from './shared-access';
import type { AssetHolderPort, TeamLibraryPort } from './sharing-ports';

/**
 * An asset deleted through the proxy leaves every object that knew it (docs/team-library.md): the
 * deleting member's own at once, in the step that saw the service's answer; the team library and
 * the owner's object (another member's, when an editor deleted it) from a note written in that same
 * step, sent before the delete is answered and again on the object's alarm until both took it. So a
 * failed call, or a stop of the proxy at any point after the service deleted it, still ends with the
 * asset gone for everyone.
 */

export const REMOVALS_SCHEMA = `
CREATE TABLE IF NOT EXISTS asset_removals (
  asset_id TEXT PRIMARY KEY,
  owner TEXT,                  -- whose library held it; null: not asked yet; '': nobody else's
  attempts INTEGER NOT NULL DEFAULT 0,
  next_at INTEGER NOT NULL);
`;

const MAX_BACKOFF_MS = 10 * 60_000;

/** In this object: no longer owned, followed (its status, its `asset.*` event) nor its source kept. */
export function forgetHere(m: Pick<MemberContext, 'sql' | 'assets'>, assetId: string): void {
  m.assets.forget(assetId);
  disown(m.sql, 'asset', assetId);
  dropSource(m.sql, assetId);
}

/**
 * `DeleteAsset` through the proxy succeeded (by the owner or an editor): gone from this object now;
 * the team library and the owner's object are noted to be told (objects/member-state.ts sends it).
 */
export function assetDeleted(m: Pick<MemberContext, 'sql' | 'assets'>, assetId: string): void {
  const row = m.sql.exec<{ parent: string | null }>("SELECT parent FROM owned WHERE kind = 'asset' AND id = ?", assetId).toArray()[0];
  forgetHere(m, assetId);
  // The member's own asset of an unshared group: nobody else knew it.
  if (row && !(row.parent && sharedOut(m.sql, row.parent))) return;
  noteRemoval(m.sql, assetId, row ? '' : null);
}

/** Others must forget it too: `owner` when known ('': the member itself), else asked of the team library. */
export function noteRemoval(sql: SqlStorage, assetId: string, owner: string | null): void {
  sql.exec('INSERT OR REPLACE INTO asset_removals (asset_id, owner, attempts, next_at) VALUES (?, ?, 0, ?)', assetId, owner, Date.now());
}

/** When the next note is due, or null. */
export const nextRemovalAt = (sql: SqlStorage): number | null => (sql.exec('SELECT MIN(next_at) AS at FROM asset_removals').one().at as number | null) ?? null;

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
