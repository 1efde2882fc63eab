import { type AssetType, sha256Hex } from '@@/shared';
import { beginPageRead, decodeDataUrl, type PageReadResult, type PageTarget } from '@/lib/capture/page-reader';
import { t } from '@/lib/i18n/translate';
import type { AddItemReply } from '@/lib/messaging/extension-messages';
import { notify } from '@/lib/messaging/notify';
import { syncSoon } from '@/lib/messaging/sync-soon';
import { type Adder, type CheckedBytes, checkBytes, keepAndAdd, recordRefused } from '@/lib/saving/held-bytes';
import { assetStore } from '@/lib/storage/asset-store';
import { newLocalId } from '@/lib/storage/database';
import { queueStore } from '@/lib/storage/queue-store';
import type { AssetRecord } from '@/lib/storage/records/asset-record';
import type { CaptureState, UploadReason } from '@/lib/storage/records/capture-state';
import { announceChange } from '@/lib/storage/store-changes';
import { uploadBytes, stagedKey } from '@/lib/storage/upload-bytes';
import { readLimitFor, tooLargeMessage } from '@/lib/uploads/upload-rules';
import '@/lib/i18n/background.en';

/**
 * The click's part of an upload: read the bytes where the browser can (the page, or the `data:`
 * address itself), check them with the proxy's rules, and keep them with the item until the queue
 * sends them (uploads/upload-step). Nothing leaves the browser here.
 *
 * Into a group, the item is recorded first (Queued, "Reading from the page…"), so that its progress
 * shows while the page reads; its create waits (READ_GRACE_MS) until the bytes are kept. A refusal
 * (type, size, a failed read) ends the item Failed with the reason. For "New group…", the bytes are
 * read before the new-group page opens and staged under the item's address until it is added.
 */

export interface UploadItem {
  url: string;
  reason: UploadReason;
  name: string;
  /** The asset type the menu reported (the bytes may say otherwise, and win). */
  type: AssetType;
  target?: PageTarget;
}

type Upload = Extract<CaptureState, { how: 'upload' }>;

/** How long an item's create waits for its bytes; a read not done by then was interrupted (upload-step). */
export const READ_GRACE_MS = 10 * 60_000;
/** Progress is written to the item at most this often. */
const PROGRESS_EVERY_MS = 250;

type Read = CheckedBytes;

/** The `source` of a `data:` item: its type and SHA-256, not the megabytes of the address itself. */
const dataSource = async (contentType: string, bytes: Uint8Array<ArrayBuffer>) => `data:${contentType};sha256,${await sha256Hex(bytes)}`;

function readFailure(result: Extract<PageReadResult, { ok: false }>, item: UploadItem, limit: number): string {
  switch (result.reason) {
    case 'too-large':
      return tooLargeMessage(item.type, limit);
    case 'timeout':
      return t('capture.read.timeout');
    case 'lost':
      return t('capture.read.lost');
    default:
      return item.reason === 'blob' ? t('capture.read.blob') : t('capture.read.failed', { why: result.detail ?? '' });
  }
}

const schemeOf = (item: UploadItem) => `${item.url.slice(0, item.url.indexOf(':') + 1)}${item.reason === 'blob' || item.reason === 'data' ? '' : '//'}`;

/** Tells the member that nothing could be read from the page (nothing recorded). */
const notifyNoAccess = (item: UploadItem) =>
  notify('arkbridge-url', t('notify.url.title'), `${t('capture.read.noAccess', { scheme: schemeOf(item) })} ${t('capture.read.noAccessAdvice')}`);

/** Reads a `data:` item in the extension. */
async function readData(item: UploadItem): Promise<Read & { source?: string }> {
  const limit = readLimitFor(item.type);
  const decoded = decodeDataUrl(item.url, limit);
  if (!decoded) return { ok: false, message: t('capture.url.invalid') };
  if ('tooLarge' in decoded) return { ok: false, message: tooLargeMessage(item.type, limit) };
  const read = checkBytes(decoded.bytes, decoded.contentType);
  return read.ok ? { ...read, source: await dataSource(read.contentType, read.bytes) } : read;
}

/** Ends a recorded item Failed (its create unqueued, its bytes dropped) and tells the member. */
async function failRecorded(localId: string, message: string): Promise<void> {
  const record = await assetStore.get(localId);
  const op = await queueStore.ofRecord(localId);
  if (op?.key !== undefined) await queueStore.remove(op.key);
  await uploadBytes.remove(localId).catch(() => {});
  if (!record || record.status !== 'Queued') return;
  await assetStore.put({ ...record, status: 'Failed', error: message, notified: true, updatedAt: Date.now() });
  announceChange('assets', 'queue');
  await notify(`asset-${localId}`, t('notify.asset.failed', { name: record.name }), message);
}

/** Removes an item recorded for a read that could not start (nothing was read; the member is told why). */
async function discardRecorded(localId: string): Promise<void> {
  const op = await queueStore.ofRecord(localId);
  if (op?.key !== undefined) await queueStore.remove(op.key);
  await assetStore.remove(localId);
  announceChange('assets', 'queue');
}

/** Changes an item's upload state (a progress write, or the bytes kept); answers false when the item is gone. */
async function updateUpload(localId: string, change: (capture: Upload, record: AssetRecord) => Partial<AssetRecord> & { capture: Upload }): Promise<boolean> {
  const record = await assetStore.get(localId);
  if (!record || record.status !== 'Queued' || record.capture?.how !== 'upload') return false;
  await assetStore.put({ ...record, ...change(record.capture, record), updatedAt: Date.now() });
  announceChange('assets');
  return true;
}

/**
 * Reads, checks and queues an item to upload into `groupId` (`add` records and queues it: the
 * menu's). Answers once the bytes are kept (or why not: the member was told).
 */
export async function uploadToGroup(groupId: string, item: UploadItem, add: Adder): Promise<AddItemReply> {
  if (item.reason === 'data') {
    const read = await readData(item);
    if (!read.ok) {
      await recordRefused(groupId, { name: item.name, type: item.type, reason: item.reason, source: item.url.slice(0, 64) }, read.message);
      return { ok: false, message: read.message };
    }
    return keepAndAdd(groupId, item, read, read.source!, add);
  }

  // Recorded first (a duplicate is told and nothing read), its create held until the bytes are kept.
  const limit = readLimitFor(item.type);
  const localId = newLocalId();
  const capture: Upload = { how: 'upload', reason: item.reason, stage: 'reading', source: item.url, bytesKey: localId, read: 0 };
  const reply = await add({ groupId, localId, url: item.url, name: item.name, type: item.type, capture, notBefore: Date.now() + READ_GRACE_MS });
  if (!reply.ok) return reply;
  const handle = await beginPageRead(item.target, item.url, limit);
  if (!handle) {
    await discardRecorded(localId);
    await notifyNoAccess(item);
    return { ok: false, message: t('capture.read.noAccess', { scheme: schemeOf(item) }) };
  }

  let written = 0;
  const result = await handle.finish({
    onProgress: async (read, total) => {
      if (Date.now() - written < PROGRESS_EVERY_MS) return;
      written = Date.now();
      await updateUpload(localId, (c) => ({ capture: { ...c, read, ...(total ? { size: total } : {}) } }));
    },
  });
  const read = result.ok ? checkBytes(result.bytes, result.contentType) : ({ ok: false, message: readFailure(result, item, limit) } as const);
  if (!read.ok) {
    await failRecorded(localId, read.message);
    return { ok: false, message: read.message };
  }
  await uploadBytes.put({ key: localId, bytes: read.bytes, contentType: read.contentType, storedAt: Date.now() });
  const kept = await updateUpload(localId, (c) => {
    const { read: _, ...rest } = c;
    return { type: read.kind, capture: { ...rest, stage: 'waiting', size: read.bytes.byteLength, contentType: read.contentType } };
  });
  if (!kept) {
    await uploadBytes.remove(localId); // deleted meanwhile
    return { ok: false, message: t('capture.read.lost') };
  }
  const op = await queueStore.ofRecord(localId);
  if (op) await queueStore.put({ ...op, notBefore: Date.now() });
  announceChange('queue');
  void syncSoon();
  return { ok: true, localId };
}

/**
 * Reads and checks an item for "New group…" and stages it under its address (the item the
 * new-group page adds): answers that address, or why nothing can be added (said as a notification).
 */
export async function stageUpload(item: UploadItem): Promise<{ ok: true; source: string; type: AssetType } | { ok: false }> {
  let read: Read & { source?: string };
  if (item.reason === 'data') read = await readData(item);
  else {
    const limit = readLimitFor(item.type);
    const handle = await beginPageRead(item.target, item.url, limit);
    if (!handle) {
      await notifyNoAccess(item);
      return { ok: false };
    }
    const result = await handle.finish();
    read = result.ok ? checkBytes(result.bytes, result.contentType) : { ok: false, message: readFailure(result, item, limit) };
  }
  if (!read.ok) {
    await notify('arkbridge-url', t('notify.url.title'), read.message);
    return { ok: false };
  }
  const source = read.source ?? item.url;
  const key = stagedKey(source);
  const capture: Upload = { how: 'upload', reason: item.reason, stage: 'waiting', source, bytesKey: key, size: read.bytes.byteLength, contentType: read.contentType };
  await uploadBytes.put({ key, bytes: read.bytes, contentType: read.contentType, storedAt: Date.now(), staged: { source, capture, type: read.kind } });
  return { ok: true, source, type: read.kind };
}
