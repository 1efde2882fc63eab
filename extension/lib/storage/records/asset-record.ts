import type { AssetType } from '@@/shared';
import type { AssetSource } from '@/lib/storage/records/asset-source';
import type { CaptureState } from '@/lib/storage/records/capture-state';

/**
 * The `assets` store's record. Types only, importing nothing from the extension, so that the
 * database schema, the store and feature modules can all use it without import cycles.
 */

/** `Queued`: recorded locally, not yet accepted by the service (the create may be retried). */
export type LocalAssetStatus = 'Queued' | 'Processing' | 'Active' | 'Failed';

export interface AssetRecord {
  /** Local key, fixed before any request. */
  localId: string;
  /** The service's asset id, once created. */
  assetId?: string;
  groupId: string;
  name: string;
  url: string;
  type: AssetType;
  status: LocalAssetStatus;
  error?: string;
  /** Idempotency-Key of the create call, stored before the request so a retry cannot create twice. */
  idempotencyKey: string;
  /** The member was told about the final status. */
  notified: boolean;
  /** How the media reaches the library: linked, or uploaded through the proxy (and where that stands). */
  capture?: CaptureState;
  /** Where it was captured (page, time, how); absent on records made before provenance was kept. */
  source?: AssetSource;
  /**
   * The pixel key of the image (lib/library/pixel-key), when the extension could read its pixels:
   * its perceptual hash (64 hex digits, lib/library/image-hash), or for a flat picture its print
   * (`flat:<SHA-256>[:rrggbb]`, lib/library/flat-pictures); duplicates are found by it
   * (lib/library/near-duplicates). A hash kept before flat prints existed that says as little as
   * a flat picture's is not compared (the record is compared by its address).
   */
  pixelHash?: string;
  createdAt: number;
  updatedAt: number;
}
