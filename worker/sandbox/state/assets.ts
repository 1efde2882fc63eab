import {
  MODELS,
  readinessFor,
  type Asset,
  type AssetListItem,
  type AssetStatus,
  type AssetType,
  type IdResult,
  type LibraryRequest,
  type ModelReadiness,
  type Page,
} from '../../../shared';
import { accessDenied, newId, rows, success, validationError, type Ctx, type Outcome } from './state-context';
import { ownGroup, type GroupRow } from './groups';
import { paginate } from './paging';

export interface AssetRow {
  id: string;
  account: string;
  group_id: string;
  name: string;
  url: string;
  type: AssetType;
  download: 'pending' | 'ok' | 'failed';
  error: string;
  created_at: number;
  updated_at: number;
  ready_at: number;
}

/** Processing until downloaded and the processing time has passed; Failed when the download failed. */
export function assetStatus(row: AssetRow, now: number): AssetStatus {
  if (row.download === 'failed') return 'Failed';
  return row.download === 'ok' && now >= row.ready_at ? 'Active' : 'Processing';
}

const LIBRARY_MODELS = MODELS.filter((m) => m.assetRefs).map((m) => m.id);
const OTHER_MODELS = MODELS.filter((m) => !m.assetRefs).map((m) => m.id);

/** Per-family readiness: only the Seedance 2.0 family takes library references. */
export function modelReadiness(row: AssetRow, now: number): ModelReadiness[] {
  const status = assetStatus(row, now);
  const library: ModelReadiness =
    status === 'Failed'
      ? { Models: LIBRARY_MODELS, Status: 'Failed', Error: { Message: row.error } }
      : { Models: LIBRARY_MODELS, Status: status === 'Active' ? 'Active' : row.download === 'pending' ? 'Preparing' : 'Processing' };
  const others: ModelReadiness = {
    Models: OTHER_MODELS,
    Status: 'Unavailable',
    Error: { Message: 'These models do not accept asset:// library references.' },
  };
  return [library, others];
}

/** The status that decides whether `model` may use the asset (its readiness entry, else Status). */
export function readinessOf(row: AssetRow, now: number, model: string): string {
  return readinessFor({ Status: assetStatus(row, now), ModelReadiness: modelReadiness(row, now) }, model).status;
}

export const toListItem = (row: AssetRow, now: number): AssetListItem => {
  const status = assetStatus(row, now);
  return {
    Id: row.id,
    GroupId: row.group_id,
    Name: row.name,
    URL: row.url,
    AssetType: row.type,
    Status: status,
    Error: status === 'Failed' ? { Code: 'ResourceDownloadFailed', Message: row.error } : { Code: '', Message: '' },
  };
};

export const ownAsset = (ctx: Ctx, account: string, id: string): AssetRow | undefined =>
  rows<AssetRow>(ctx.sql, 'SELECT * FROM assets WHERE id = ? AND account = ?', id, account)[0];

/** Inserts an asset; `download: 'ok'` for assets that arrive already processed (portrait captures). */
export function insertAsset(ctx: Ctx, account: string, groupId: string, type: AssetType, name: string, url: string, download: 'pending' | 'ok'): string {
  const id = newId('asset');
  const readyAt = download === 'ok' ? ctx.now : ctx.now + ctx.timing.assetSeconds * 1000;
  ctx.sql.exec(
    'INSERT INTO assets (id, account, group_id, name, url, type, download, created_at, updated_at, ready_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    id, account, groupId, name, url, type, download, ctx.now, ctx.now, readyAt,
  );
  return id;
}

export function createAsset(ctx: Ctx, account: string, req: LibraryRequest<'CreateAsset'>): Outcome<IdResult> {
  const group = ownGroup(ctx, account, req.GroupId);
  if (!group) return accessDenied('Group', req.GroupId);
  if (group.type !== 'AIGC') {
    return validationError('GroupId: assets of a real-person (LivenessFace) group come only from the portrait flow.');
  }
  return success({ Id: insertAsset(ctx, account, group.id, req.AssetType, req.Name, req.URL, 'pending') });
}

export function getAsset(ctx: Ctx, account: string, req: LibraryRequest<'GetAsset'>): Outcome<Asset> {
  const row = ownAsset(ctx, account, req.Id);
  if (!row) return accessDenied('Asset', req.Id);
  return success({ ...toListItem(row, ctx.now), ModelReadiness: modelReadiness(row, ctx.now) });
}

export function listAssets(ctx: Ctx, account: string, req: LibraryRequest<'ListAssets'>): Outcome<Page<AssetListItem>> {
  const { GroupIds, GroupType, Statuses, Name } = req.Filter;
  const ids = GroupIds ? new Set(GroupIds) : null;
  const statuses = Statuses ? new Set<string>(Statuses) : null;
  const needle = Name?.toLowerCase();
  const groupTypes = GroupType
    ? new Set(rows<Pick<GroupRow, 'id'>>(ctx.sql, 'SELECT id FROM groups WHERE account = ? AND type = ?', account, GroupType).map((g) => g.id))
    : null;
  const matching = rows<AssetRow>(ctx.sql, 'SELECT * FROM assets WHERE account = ?', account).filter(
    (a) =>
      (!ids || ids.has(a.group_id)) &&
      (!groupTypes || groupTypes.has(a.group_id)) &&
      (!needle || a.name.toLowerCase().includes(needle)) &&
      (!statuses || statuses.has(assetStatus(a, ctx.now))),
  );
  const key = (a: AssetRow) =>
    req.SortBy === 'GroupId' ? [a.group_id, a.created_at, a.id] : [req.SortBy === 'UpdateTime' ? a.updated_at : a.created_at, a.id];
  return success(paginate(matching, key, req, (a) => toListItem(a, ctx.now)));
}

export function updateAsset(ctx: Ctx, account: string, req: LibraryRequest<'UpdateAsset'>): Outcome<IdResult> {
  const row = ownAsset(ctx, account, req.Id);
  if (!row) return accessDenied('Asset', req.Id);
  ctx.sql.exec('UPDATE assets SET name = ?, updated_at = ? WHERE id = ?', req.Name, ctx.now, row.id);
  return success({ Id: row.id });
}

export function deleteAsset(ctx: Ctx, account: string, req: LibraryRequest<'DeleteAsset'>): Outcome<Record<string, never>> {
  const row = ownAsset(ctx, account, req.Id);
  if (!row) return accessDenied('Asset', req.Id);
  ctx.sql.exec('DELETE FROM assets WHERE id = ?', row.id);
  return success({});
}
