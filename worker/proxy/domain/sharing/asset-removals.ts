import type { MemberContext } from '../members/member-context';
import { disown } from '../members/owned';
import { dropSource } from './asset-sources';
import { sharedOut } from './shared-access';

export { noteRemoval, RemovalNotes } from './removal-notes';

/**
 * An asset deleted through the proxy leaves every object that knew it (docs/team-library.md): the
 * deleting member's own at once, in the step that saw the service's answer; the team library and
 * the owner's object (another member's, when an editor deleted it) from a note written in that same
 * step, sent before the delete is answered and again on the object's alarm until both took it. So a
 * failed call, or a stop of the proxy at any point after the service deleted it, still ends with the
 * asset gone for everyone.
 */

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
export function assetDeleted(m: Pick<MemberContext, 'sql' | 'assets' | 'removals'>, assetId: string): void {
  const row = m.sql.exec<{ parent: string | null }>("SELECT parent FROM owned WHERE kind = 'asset' AND id = ?", assetId).toArray()[0];
  forgetHere(m, assetId);
  // The member's own asset of an unshared group: nobody else knew it.
  if (row && !(row.parent && sharedOut(m.sql, row.parent))) return;
  m.removals.note(assetId, row ? '' : null);
}
