import type { AssetGroup, AssetGroupListItem, GroupType, IdResult, LibraryRequest, Page } from '../../../shared';
import { accessDenied, iso, newId, rows, success, type Ctx, type Outcome } from './state-context';
import { paginate } from './paging';

export interface GroupRow {
  id: string;
  account: string;
  name: string;
  description: string;
  type: GroupType;
  created_at: number;
  updated_at: number;
}

/** The account's group, or undefined when it does not exist or belongs to another account. */
export const ownGroup = (ctx: Ctx, account: string, id: string): GroupRow | undefined =>
  rows<GroupRow>(ctx.sql, 'SELECT * FROM groups WHERE id = ? AND account = ?', id, account)[0];

export function insertGroup(ctx: Ctx, account: string, name: string, description: string, type: GroupType): string {
  const id = newId('group');
  ctx.sql.exec('INSERT INTO groups VALUES (?, ?, ?, ?, ?, ?, ?)', id, account, name, description, type, ctx.now, ctx.now);
  return id;
}

const toGroup = (row: GroupRow): AssetGroup => ({ Id: row.id, Name: row.name, Description: row.description, GroupType: row.type });
const toListItem = (row: GroupRow): AssetGroupListItem => ({ ...toGroup(row), CreateTime: iso(row.created_at), UpdateTime: iso(row.updated_at) });

export function createGroup(ctx: Ctx, account: string, req: LibraryRequest<'CreateAssetGroup'>): Outcome<IdResult> {
  return success({ Id: insertGroup(ctx, account, req.Name, req.Description, req.GroupType) });
}

export function getGroup(ctx: Ctx, account: string, req: LibraryRequest<'GetAssetGroup'>): Outcome<AssetGroup> {
  const row = ownGroup(ctx, account, req.Id);
  return row ? success(toGroup(row)) : accessDenied('Group', req.Id);
}

export function listGroups(ctx: Ctx, account: string, req: LibraryRequest<'ListAssetGroups'>): Outcome<Page<AssetGroupListItem>> {
  const { GroupIds, GroupType, Name } = req.Filter;
  const ids = GroupIds ? new Set(GroupIds) : null;
  const needle = Name?.toLowerCase();
  const matching = rows<GroupRow>(ctx.sql, 'SELECT * FROM groups WHERE account = ?', account).filter(
    (g) => (!ids || ids.has(g.id)) && (!GroupType || g.type === GroupType) && (!needle || g.name.toLowerCase().includes(needle)),
  );
  const key = req.SortBy === 'UpdateTime' ? 'updated_at' : 'created_at';
  return success(paginate(matching, (g) => [g[key], g.id], req, toListItem));
}

export function updateGroup(ctx: Ctx, account: string, req: LibraryRequest<'UpdateAssetGroup'>): Outcome<IdResult> {
  const row = ownGroup(ctx, account, req.Id);
  if (!row) return accessDenied('Group', req.Id);
  // An omitted Name keeps the old one; an empty Description clears it.
  ctx.sql.exec(
    'UPDATE groups SET name = ?, description = ?, updated_at = ? WHERE id = ?',
    req.Name ?? row.name,
    req.Description ?? row.description,
    ctx.now,
    row.id,
  );
  return success({ Id: row.id });
}

export function deleteGroup(ctx: Ctx, account: string, req: LibraryRequest<'DeleteAssetGroup'>): Outcome<Record<string, never>> {
  const row = ownGroup(ctx, account, req.Id);
  if (!row) return accessDenied('Group', req.Id);
  // The group's assets go with it: they are no longer usable anywhere.
  ctx.sql.exec('DELETE FROM assets WHERE group_id = ?', row.id);
  ctx.sql.exec('DELETE FROM groups WHERE id = ?', row.id);
  return success({});
}
