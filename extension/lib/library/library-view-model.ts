import { type Asset, MODELS, modelSpec, type ReadinessStatus } from '@@/shared';
import { assetStore } from '@/lib/storage/asset-store';
import { groupStore } from '@/lib/storage/group-store';
import type { AssetRecord } from '@/lib/storage/records/asset-record';
import type { GroupRecord } from '@/lib/storage/records/group-record';

/** What the Library view shows: everything IndexedDB knows (first paint never waits for the network). */
export interface LibraryData {
  groups: GroupRecord[];
  assets: AssetRecord[];
}

export async function readLibrary(): Promise<LibraryData> {
  const [groups, assets] = await Promise.all([groupStore.all(), assetStore.all()]);
  // Newest first; ties (listed together) by name.
  assets.sort((a, b) => b.createdAt - a.createdAt || a.name.localeCompare(b.name));
  return { groups, assets };
}

/** The status filter: Processing includes the records still being sent (Queued). */
export type StatusFilter = 'all' | 'Processing' | 'Active' | 'Failed';
export const STATUS_FILTERS: readonly StatusFilter[] = ['all', 'Processing', 'Active', 'Failed'];

export interface AssetQuery {
  /** Only this group; null: every group. */
  groupId: string | null;
  /** Part of the name (case-insensitive); blank: any. */
  search: string;
  status: StatusFilter;
}

/** Whether the query narrows anything beyond the group (the view then lists assets, not groups). */
export const isNarrowed = (query: AssetQuery): boolean => query.search.trim() !== '' || query.status !== 'all';

export function countByGroup(assets: readonly AssetRecord[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const a of assets) counts.set(a.groupId, (counts.get(a.groupId) ?? 0) + 1);
  return counts;
}

/** One line of the readiness panel: the models an entry covers, its status and its reason. */
export interface ReadinessLine {
  models: { id: string; label: string }[];
  status: ReadinessStatus;
  message: string;
}

/**
 * Per-model readiness of an asset (GetAsset's ModelReadiness), grouped as the service groups it.
 * Models of the catalog that take library references but appear in no entry follow the asset's
 * Status (the service's rule when no entry names a model).
 */
export function readinessLines(asset: Asset): ReadinessLine[] {
  const lines: ReadinessLine[] = (asset.ModelReadiness ?? []).map((entry) => ({
    models: entry.Models.map((id) => ({ id, label: modelSpec(id).label })),
    status: entry.Status,
    message: entry.Error?.Message ?? '',
  }));
  const covered = new Set(lines.flatMap((l) => l.models.map((m) => m.id)));
  const rest = MODELS.filter((m) => m.assetRefs && !covered.has(m.id));
  if (rest.length) {
    lines.push({
      models: rest.map((m) => ({ id: m.id, label: m.label })),
      status: asset.Status,
      message: asset.Status === 'Failed' ? asset.Error?.Message ?? '' : '',
    });
  }
  return lines.filter((l) => l.models.length > 0);
}
