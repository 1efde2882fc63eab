import type { AssetStatus, ReadinessStatus } from './constants';
import type { ModelReadiness } from './resources';

/** Whether and why a model may use an asset. */
export interface ReadinessForModel {
  status: ReadinessStatus | AssetStatus;
  /** The readiness entry's explanation, when it has one. */
  message?: string;
  /** `Active`: usable now. `wait`: may become usable (Preparing, Processing). `never`: Failed, Unavailable. */
  usable: 'now' | 'wait' | 'never';
}

/**
 * The service's rule: a model may use an asset only when the ModelReadiness entry whose Models
 * names it is `Active`; when no entry names it, the asset's own Status decides.
 */
export function readinessFor(asset: { Status: AssetStatus; ModelReadiness?: ModelReadiness[] }, model: string): ReadinessForModel {
  const entry = asset.ModelReadiness?.find((r) => r.Models.includes(model));
  const status = entry ? entry.Status : asset.Status;
  const usable = status === 'Active' ? 'now' : status === 'Failed' || status === 'Unavailable' ? 'never' : 'wait';
  return entry?.Error?.Message ? { status, message: entry.Error.Message, usable } : { status, usable };
}
