import type { AssetType } from '@@/shared';
import { newIdempotencyKey } from '@/lib/proxy/idempotency-keys';
import { assetStore } from '@/lib/storage/asset-store';
import { newLocalId } from '@/lib/storage/database';
import type { AssetRecord } from '@/lib/storage/records/asset-record';
import type { CaptureState } from '@/lib/storage/records/capture-state';
import { uploadBytes } from '@/lib/storage/upload-bytes';
import { type CapturePage, sourceOf } from '@/lib/saving/capture-source';

export type AddOutcome =
  | { kind: 'queued'; record: AssetRecord }
  /** The same URL is already Processing, Queued or Active in that group: not created again. */
  | { kind: 'duplicate'; record: AssetRecord };

export interface AddRequest {
  groupId: string;
  url: string;
  name: string;
  type: AssetType;
  /**
   * How the media reaches the library. Absent: an item read before its group existed (staged in
   * upload-bytes under `url`) is uploaded, anything else linked.
   */
  capture?: CaptureState;
  /** The record's local id, when chosen beforehand (the key of its bytes). */
  localId?: string;
  /** The create waits until then (an upload whose bytes are still being read); default: at once. */
  notBefore?: number;
  /** The page it was captured on (the tab's address and title); none for a local file. */
  page?: CapturePage;
  /** Pixel key of its pixels, when they could be read (lib/library/pixel-key: a perceptual hash or a flat print). */
  pixelHash?: string;
}

/**
 * Records an asset to create and queues its creation, in one transaction: the Idempotency-Key
 * is in IndexedDB before any request, so no retry can create it twice. The same URL already
 * on its way or usable in the group is reported instead (the service: do not repeat CreateAsset
 * while Processing).
 */
export async function addToLibrary(request: AddRequest, now = Date.now()): Promise<AddOutcome> {
  let { capture, type } = request;
  let staged: string | undefined;
  if (!capture) {
    const entry = await uploadBytes.staged(request.url, now).catch(() => undefined);
    if (entry?.staged) {
      ({ capture, type } = entry.staged);
      staged = entry.key;
    }
  }
  const record: AssetRecord = {
    localId: request.localId ?? newLocalId(),
    groupId: request.groupId,
    name: request.name,
    url: request.url,
    type,
    status: 'Queued',
    idempotencyKey: newIdempotencyKey(),
    notified: false,
    capture: capture ?? { how: 'link' },
    source: sourceOf(capture, request.page, now),
    ...(request.pixelHash ? { pixelHash: request.pixelHash } : {}),
    createdAt: now,
    updatedAt: now,
  };
  const live = await assetStore.addQueued(record, request.notBefore ?? now);
  if (live && staged) await uploadBytes.remove(staged).catch(() => {});
  return live ? { kind: 'duplicate', record: live } : { kind: 'queued', record };
}
