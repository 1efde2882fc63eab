import { type Asset, MODELS, modelSpec, type ReadinessStatus } from '@@/shared';

/**
 * An asset's per-model readiness for its detail panel. Apart from the Library's view model
 * (library-view-model), which the popup's first paint loads: this one brings the model catalog,
 * which only the detail needs.
 */

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
