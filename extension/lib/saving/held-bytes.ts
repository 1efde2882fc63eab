import { type AssetType, sha256Hex, SNIFF_BYTES } from '@@/shared';
import { t } from '@/lib/i18n/translate';
import type { AddItemReply } from '@/lib/messaging/extension-messages';
import { notify } from '@/lib/messaging/notify';
import type { AddRequest } from '@/lib/saving/add-to-library';
import { hashOfBytes } from '@/lib/saving/near-duplicate-check';
import { assetStore } from '@/lib/storage/asset-store';
import { newLocalId } from '@/lib/storage/database';
import type { CaptureState, UploadReason } from '@/lib/storage/records/capture-state';
import { announceChange } from '@/lib/storage/store-changes';
import { uploadBytes } from '@/lib/storage/upload-bytes';
import { checkUpload } from '@/lib/uploads/upload-rules';
import '@/lib/i18n/background.en';

/**
 * Bytes the extension has in hand, on their way to a group: checked with the proxy's rules, kept in
 * the upload store under the new record's id, and their create recorded (`add`); the queue uploads
 * them (upload-step). Used by the page reads (capture-upload), files from a page (local-files) and
 * captures (snapshot-save). Nothing here syncs: the caller's `add` says who sends the queue.
 */

type Upload = Extract<CaptureState, { how: 'upload' }>;
/** Records and queues a create (the background's queueAsset, or a page's record-item). */
export type Adder = (request: AddRequest) => Promise<AddItemReply>;

/** Bytes read or held, checked: their type (by their magic bytes) and kind; or why not. */
export type CheckedBytes = { ok: true; bytes: Uint8Array<ArrayBuffer>; contentType: string; kind: AssetType } | { ok: false; message: string };

/** Checks bytes with the shared rules (types, magic bytes, per-kind limits). */
export function checkBytes(bytes: Uint8Array<ArrayBuffer>, declared: string): CheckedBytes {
  const verdict = checkUpload(declared, bytes.subarray(0, SNIFF_BYTES * 4), bytes.byteLength);
  return verdict.ok ? { ok: true, bytes, contentType: verdict.contentType, kind: verdict.type } : { ok: false, message: verdict.message };
}

/** An item refused before anything was sent. */
export interface RefusedItem {
  name: string;
  type: AssetType;
  reason: UploadReason;
  /** Its address or stand-in (what the item shows it came from). */
  source: string;
  size?: number;
}

/**
 * Records a refused item Failed with the reason (nothing kept or sent); `tell` says it as a
 * notification too (not from a page, where the member sees the item).
 */
export async function recordRefused(groupId: string, item: RefusedItem, message: string, tell = true, now = Date.now()): Promise<void> {
  const localId = newLocalId();
  await assetStore.put({
    localId,
    groupId,
    name: item.name,
    url: item.source,
    type: item.type,
    status: 'Failed',
    error: message,
    idempotencyKey: '',
    notified: true,
    capture: { how: 'upload', reason: item.reason, stage: 'waiting', source: item.source, bytesKey: '', ...(item.size !== undefined ? { size: item.size } : {}) },
    createdAt: now,
    updatedAt: now,
  });
  announceChange('assets');
  if (tell) await notify(`asset-${localId}`, t('notify.asset.failed', { name: item.name }), message);
}

/** Keeps checked bytes under a new record's id and records their create (`add`); dropped again if `add` refuses. */
export async function keepAndAdd(groupId: string, item: { name: string; reason: UploadReason }, read: Extract<CheckedBytes, { ok: true }>, source: string, add: Adder): Promise<AddItemReply> {
  const localId = newLocalId();
  await uploadBytes.put({ key: localId, bytes: read.bytes, contentType: read.contentType, storedAt: Date.now() });
  const capture: Upload = { how: 'upload', reason: item.reason, stage: 'waiting', source, bytesKey: localId, size: read.bytes.byteLength, contentType: read.contentType };
  // Its pixels' hash, kept with the record: near duplicates and "Find similar" compare it.
  const pixelHash = read.kind === 'Image' ? await hashOfBytes(read.bytes, read.contentType) : undefined;
  const reply = await add({ groupId, localId, url: source, name: item.name, type: read.kind, capture, ...(pixelHash ? { pixelHash } : {}) });
  if (!reply.ok) await uploadBytes.remove(localId);
  return reply;
}

/** Bytes the extension already holds: a dropped or picked file, a screenshot, a video frame. */
export interface HeldBytes {
  bytes: Uint8Array<ArrayBuffer>;
  /** The type the bytes are said to be (a File's type, `image/png` for a capture); the bytes decide. */
  declaredType: string;
  name: string;
  reason: Extract<UploadReason, 'file' | 'screenshot' | 'frame'>;
  /** What the member meant to add (the bytes may say otherwise, and win). */
  type: AssetType;
}

/**
 * Adds bytes the extension holds to `groupId`: checked (a refusal is recorded Failed with the
 * reason, and told when `tellRefusal`), kept, and their create recorded and queued (`add`). The
 * same bytes twice in a group are one asset: their stand-in address (`file:image/png;sha256,…`) is
 * what duplicates are found by.
 */
export async function addHeldBytes(groupId: string, held: HeldBytes, add: Adder, tellRefusal = true): Promise<AddItemReply> {
  const read = checkBytes(held.bytes, held.declaredType);
  if (!read.ok) {
    const refused = { name: held.name, type: held.type, reason: held.reason, source: `${held.reason}:${held.declaredType || 'unknown'}`, size: held.bytes.byteLength };
    await recordRefused(groupId, refused, read.message, tellRefusal);
    return { ok: false, message: read.message };
  }
  const source = `${held.reason}:${read.contentType};sha256,${await sha256Hex(read.bytes)}`;
  return keepAndAdd(groupId, held, read, source, add);
}
