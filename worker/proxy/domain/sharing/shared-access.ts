import type { GroupAccess } from '../../../../shared';
import type { MemberContext } from '../members/member-context';
import { disown, own, owns, ownedIds } from '../members/owned';

/**
 * How a member reaches a group or an asset that is not its own (docs/team-library.md): its own ids
 * are answered from its object as before, with no other call; any other id costs one call to the
 * team library, answered by one query, never a call to the service. What each role allows is
 * declared per operation in domain/library/rules.ts.
 */

export type Need = 'viewer' | 'editor';
const RANK: Record<GroupAccess, number> = { none: 0, viewer: 1, editor: 2, owner: 3 };
const allows = (access: GroupAccess, need: Need) => RANK[access] >= RANK[need];

/** Whether the member may use this group with `need` (own groups always). */
export async function reachGroup(m: MemberContext, groupId: string, need: Need): Promise<boolean> {
  if (owns(m.sql, 'group', groupId)) return true;
  return allows(await m.team().groupAccess(m.memberId, groupId), need);
}

/** Whether the member may use this asset with `need`, through the group it belongs to. */
export async function reachAsset(m: MemberContext, assetId: string, need: Need): Promise<boolean> {
  const standing = (await assetStandings(m, [assetId])).get(assetId);
  return standing ? allows(standing.access, need) : false;
}

/** A member's standing on an asset, and whose asset it is (null: no group of record). */
export interface AssetStanding {
  access: GroupAccess;
  owner: string | null;
}

/**
 * The member's standing on each asset: `owner` for its own (no call), else through the group it
 * belongs to (one call to the team library for all the foreign ones).
 */
export async function assetStandings(m: MemberContext, assetIds: readonly string[]): Promise<Map<string, AssetStanding>> {
  const standings = new Map<string, AssetStanding>();
  const foreign: string[] = [];
  for (const id of new Set(assetIds)) {
    if (owns(m.sql, 'asset', id)) standings.set(id, { access: 'owner', owner: m.memberId });
    else foreign.push(id);
  }
  if (foreign.length === 0) return standings;
  for (const found of await m.team().assetAccess(m.memberId, foreign)) {
    // An asset an editor added to one of the member's own groups: the member's from now on.
    if (found.access === 'owner' && found.group && owns(m.sql, 'group', found.group)) own(m.sql, 'asset', found.id, found.group);
    standings.set(found.id, { access: found.access, owner: found.owner ?? null });
  }
  return standings;
}

/** Whether a standing lets the member see the asset (and what is kept about it, its source). */
export const mayRead = (standing: AssetStanding | undefined): boolean => Boolean(standing && allows(standing.access, 'viewer'));

/**
 * Of these asset ids, those the member may see: its own (no call), and those of groups it holds a
 * role on now (one call for all the others). What the proxy keeps about an asset (its status, its
 * source) is answered for these only, whoever created it: an editor whose role was taken back, or
 * whose group was unshared or deleted, learns nothing more of the assets they added to it.
 */
export async function readableAssets(m: MemberContext, assetIds: readonly string[]): Promise<Set<string>> {
  const standings = await assetStandings(m, assetIds);
  return new Set([...standings].filter(([, standing]) => mayRead(standing)).map(([id]) => id));
}

/** Of these asset ids, the ones the member may not reference (one call for all the foreign ones). */
export async function unreachableAssets(m: MemberContext, assetIds: string[]): Promise<Set<string>> {
  const foreign = [...new Set(assetIds.filter((id) => !owns(m.sql, 'asset', id)))];
  if (foreign.length === 0) return new Set();
  const found = await m.team().assetAccess(m.memberId, foreign);
  return new Set(found.filter((a) => !allows(a.access, 'viewer')).map((a) => a.id));
}

/**
 * The groups a list may cover: the member's own plus those shared with it, intersected with the
 * caller's `Filter.GroupIds` when given. A filter of own groups only costs no call.
 */
export async function listScope(m: MemberContext, asked: readonly string[] | undefined): Promise<string[]> {
  const mine = ownedIds(m.sql, 'group');
  const own = new Set(mine);
  if (asked && asked.every((id) => own.has(id))) return [...asked];
  const shared = (await m.team().visibleGroups(m.memberId)).filter((id) => !own.has(id));
  const all = new Set([...mine, ...shared]);
  return asked ? asked.filter((id) => all.has(id)) : [...mine, ...shared];
}

// --- keeping the team library in step with what members change ---

/** Whether the member's group is shared (its assets are recorded in the team library). */
export const sharedOut = (sql: SqlStorage, groupId: string) => sql.exec('SELECT 1 FROM shared_out WHERE group_id = ?', groupId).toArray().length > 0;
/** What the team library is told after the service did it: a failure to tell it is not the member's. */
const quietly = (p: Promise<unknown>) => p.catch((error) => console.error(JSON.stringify({ level: 'error', message: `team library not updated: ${String(error)}` })));

/** An asset was created: the member's own when in its own group; recorded for grantees when the group is shared. */
export async function assetCreated(m: MemberContext, groupId: string, assetId: string): Promise<void> {
  const mine = owns(m.sql, 'group', groupId);
  if (mine) own(m.sql, 'asset', assetId, groupId);
  // An editor's asset belongs to the group (its owner's library), not to the editor.
  if (!mine || sharedOut(m.sql, groupId)) await quietly(m.team().recordAsset(assetId, groupId));
}

/** Assets listed from the member's own groups are the member's (shared groups' stay their owner's). */
export function assetsListed(m: MemberContext, items: readonly { Id: string; GroupId: string }[]): void {
  const mine = new Set(ownedIds(m.sql, 'group'));
  for (const a of items) if (mine.has(a.GroupId)) own(m.sql, 'asset', a.Id, a.GroupId);
}

export async function groupRenamed(m: MemberContext, groupId: string, name: string | undefined): Promise<void> {
  if (name !== undefined && (!owns(m.sql, 'group', groupId) || sharedOut(m.sql, groupId))) await quietly(m.team().renameGroup(groupId, name));
}

export async function groupDeleted(m: MemberContext, groupId: string): Promise<void> {
  const shared = sharedOut(m.sql, groupId);
  disown(m.sql, 'group', groupId);
  if (!shared) return;
  m.sql.exec('DELETE FROM shared_out WHERE group_id = ?', groupId);
  await quietly(m.team().forgetGroup(groupId));
}
