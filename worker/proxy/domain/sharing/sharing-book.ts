import type { GroupAccess, GroupSharing, ShareRole, SharedGroup } from '../../../../shared';
import type { AssetAccess, SharingWrite } from './sharing-ports';

/**
 * The team library's table of shared groups (library-schema.ts), as queries: a member's role on a
 * group is its own entry if any, else the team's; the owner is the owner. Every check is one query.
 */

/** The role of `member` on the joined row: its own entry, else the team's. */
const ROLE = 'COALESCE(x.role, g.team_role)';
const JOIN = 'shared_groups g LEFT JOIN grants x ON x.group_id = g.id AND x.member = ?';

export function groupAccess(sql: SqlStorage, member: string, groupId: string): GroupAccess {
  const row = sql.exec<{ owner: string; role: string }>(`SELECT g.owner, ${ROLE} AS role FROM ${JOIN} WHERE g.id = ?`, member, groupId).toArray()[0];
  if (!row) return 'none';
  return row.owner === member ? 'owner' : (row.role as ShareRole);
}

export function assetAccess(sql: SqlStorage, member: string, assetIds: string[]): AssetAccess[] {
  return assetIds.map((id) => {
    const row = sql
      .exec<{ group_id: string; owner: string; role: string }>(`SELECT a.group_id, g.owner, ${ROLE} AS role FROM shared_assets a JOIN shared_groups g ON g.id = a.group_id LEFT JOIN grants x ON x.group_id = g.id AND x.member = ? WHERE a.id = ?`, member, id)
      .toArray()[0];
    if (!row) return { id, group: null, access: 'none' };
    return { id, group: row.group_id, access: row.owner === member ? 'owner' : (row.role as ShareRole), owner: row.owner };
  });
}

export function sharedWith(sql: SqlStorage, member: string): SharedGroup[] {
  return sql
    .exec<{ id: string; name: string; owner: string; owner_name: string; role: 'viewer' | 'editor'; at: number }>(
      `SELECT g.id, g.name, g.owner, g.owner_name, ${ROLE} AS role, COALESCE(x.at, g.team_at) AS at FROM ${JOIN}
       WHERE g.owner <> ? AND ${ROLE} <> 'none' ORDER BY at DESC, g.id`,
      member, member,
    )
    .toArray()
    .map((r) => ({ groupId: r.id, name: r.name, owner: { id: r.owner, name: r.owner_name }, role: r.role, sharedAt: new Date(r.at).toISOString() }));
}

export function visibleGroups(sql: SqlStorage, member: string): string[] {
  return sql.exec<{ id: string }>(`SELECT g.id FROM ${JOIN} WHERE g.owner <> ? AND ${ROLE} <> 'none'`, member, member).toArray().map((r) => r.id);
}

type GroupRow = {
  id: string;
  owner: string;
  owner_name: string;
  name: string;
  group_type: string;
  team_role: ShareRole;
};

export function groupRecord(sql: SqlStorage, groupId: string): GroupRow | undefined {
  return sql.exec<GroupRow>('SELECT id, owner, owner_name, name, group_type, team_role FROM shared_groups WHERE id = ?', groupId).toArray()[0];
}

export function sharingView(sql: SqlStorage, row: GroupRow): GroupSharing {
  const members = Object.fromEntries(
    sql.exec<{ member: string; role: ShareRole }>('SELECT member, role FROM grants WHERE group_id = ? ORDER BY member', row.id).toArray().map((r) => [r.member, r.role]),
  );
  return { groupId: row.id, name: row.name, owner: { id: row.owner, name: row.owner_name }, team: row.team_role, members };
}

/** The sharing of a group, for its owner or a member holding a role on it; null for anyone else. */
export function viewSharing(sql: SqlStorage, groupId: string, member: string): GroupSharing | null {
  const access = groupAccess(sql, member, groupId);
  const row = groupRecord(sql, groupId);
  return row && access !== 'none' ? sharingView(sql, row) : null;
}

export function setSharing(sql: SqlStorage, write: SharingWrite, now: number): GroupSharing {
  const existing = groupRecord(sql, write.groupId);
  if (!existing) {
    sql.exec(
      'INSERT INTO shared_groups (id, owner, owner_name, name, group_type, team_role, team_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      write.groupId, write.owner.id, write.owner.name, write.name, write.groupType, write.team ?? 'none', now, now,
    );
  } else {
    sql.exec('UPDATE shared_groups SET owner = ?, owner_name = ?, name = ? WHERE id = ?', write.owner.id, write.owner.name, write.name, write.groupId);
    if (write.team !== undefined && write.team !== existing.team_role) sql.exec('UPDATE shared_groups SET team_role = ?, team_at = ? WHERE id = ?', write.team, now, write.groupId);
  }
  for (const [member, role] of Object.entries(write.members ?? {})) {
    sql.exec('INSERT INTO grants (group_id, member, role, at) VALUES (?, ?, ?, ?) ON CONFLICT (group_id, member) DO UPDATE SET role = excluded.role, at = CASE WHEN grants.role = excluded.role THEN grants.at ELSE excluded.at END', write.groupId, member, role, now);
  }
  for (const asset of write.assets ?? []) recordAsset(sql, asset, write.groupId);
  return sharingView(sql, groupRecord(sql, write.groupId)!);
}

export function recordAsset(sql: SqlStorage, assetId: string, groupId: string): void {
  // Only assets of a group this table knows: an unshared group's stay in its owner's object alone.
  sql.exec('INSERT OR REPLACE INTO shared_assets (id, group_id) SELECT ?, id FROM shared_groups WHERE id = ?', assetId, groupId);
}

export function forgetGroup(sql: SqlStorage, groupId: string): void {
  sql.exec('DELETE FROM shared_assets WHERE group_id = ?', groupId);
  sql.exec('DELETE FROM grants WHERE group_id = ?', groupId);
  sql.exec('DELETE FROM shared_groups WHERE id = ?', groupId);
}

export function transferOwner(sql: SqlStorage, from: string, to: { id: string; name: string }): { groups: string[]; assets: { id: string; group: string }[] } {
  const groups = sql.exec<{ id: string }>('SELECT id FROM shared_groups WHERE owner = ?', from).toArray().map((r) => r.id);
  const assets: { id: string; group: string }[] = [];
  for (const id of groups) {
    assets.push(...sql.exec<{ id: string }>('SELECT id FROM shared_assets WHERE group_id = ?', id).toArray().map((r) => ({ id: r.id, group: id })));
    // The new owner needs no role on their own group.
    sql.exec('DELETE FROM grants WHERE group_id = ? AND member = ?', id, to.id);
  }
  sql.exec('UPDATE shared_groups SET owner = ?, owner_name = ? WHERE owner = ?', to.id, to.name, from);
  return { groups, assets };
}
