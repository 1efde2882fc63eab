import { t } from '@/lib/i18n/translate';
import { ApiError } from '@/lib/proxy/api-failure';
import type { ProxyClient } from '@/lib/proxy/proxy-client';
import { uploadBytes } from '@/lib/storage/upload-bytes';
import { sendKeptBytes } from '@/lib/uploads/upload-transport';

import { assetStore } from '@/lib/storage/asset-store';
import type { AssetRecord } from '@/lib/storage/records/asset-record';
import { announceChange } from '@/lib/storage/store-changes';

/**
 * The queue's part of an upload (queue-drain calls it before CreateAsset): send the kept bytes to
 * the proxy (`POST /proxy/uploads`), make its signed address the record's URL, then the create
 * goes out as any other, with the record's Idempotency-Key (stored when the item was recorded).
 *
 * The upload itself takes no key: an answer lost on the way means the bytes are sent again on the
 * next attempt, and the first copy expires with its address, unused. A create retried within the
 * address's life (MEDIA_URL_TTL_SECONDS, a day by default) sends the same URL with the same key;
 * past it, the bytes are uploaded again first (they are kept until the create is accepted).
 *
 * Progress: the bytes sent are counted where the browser can (uploads/upload-transport: an
 * XMLHttpRequest, in Chrome from the offscreen document, since a service worker has none and its
 * fetch reports no upload progress) and written to the item: "Uploading: 12 MB of 48.3 MB".
 */

/** An address expiring sooner than this is not used for a create: the service must still download it. */
export const ADDRESS_MARGIN_MS = 10 * 60_000;
/** Bytes sent are written to the item at most this often. */
const PROGRESS_EVERY_MS = 250;

const refused = (code: string, message: string) => new ApiError({ kind: 'rejected', status: 0, code, message });

/** The record ready for its create: uploaded when it is an upload; throws an ApiError the queue settles. */
export async function readyToCreate(client: ProxyClient, record: AssetRecord, now: () => number = Date.now, send: typeof sendKeptBytes = sendKeptBytes): Promise<AssetRecord> {
  const capture = record.capture;
  if (capture?.how !== 'upload') return record;
  // Its create comes due only READ_GRACE_MS after the click unless the bytes were kept: the read died with the worker.
  if (capture.stage === 'reading') throw refused('capture_interrupted', t('capture.read.interrupted'));
  if (capture.stage === 'uploaded' && capture.expiresAt !== undefined && capture.expiresAt * 1000 > now() + ADDRESS_MARGIN_MS) return record;
  const stored = await uploadBytes.get(capture.bytesKey);
  if (!stored) throw refused('capture_bytes_lost', t('capture.read.bytesLost'));

  const uploading: AssetRecord = { ...record, capture: { ...capture, stage: 'uploading', size: stored.bytes.byteLength }, updatedAt: now() };
  await assetStore.put(uploading);
  announceChange('assets');
  // Bytes sent, written to the item at most every PROGRESS_EVERY_MS, one write after another, all
  // done before the answer is written (a late progress write must not undo it).
  let writes = Promise.resolve();
  let written = 0;
  const onProgress = (sent: number) => {
    if (sent <= 0 || now() - written < PROGRESS_EVERY_MS) return;
    written = now();
    writes = writes.then(() => writeSent(record.localId, sent)).catch(() => {});
  };
  try {
    const answer = await send(client, stored, record.name, onProgress).finally(() => writes);
    // Deleted while it uploaded: nothing to create (the upload expires unused).
    if (!(await assetStore.get(record.localId))) throw refused('capture_deleted', t('capture.read.lost'));
    const uploaded: AssetRecord = {
      ...uploading,
      url: answer.url,
      capture: { ...capture, stage: 'uploaded', size: answer.size, contentType: answer.contentType, uploadId: answer.id, expiresAt: answer.expiresAt },
      updatedAt: now(),
    };
    await assetStore.put(uploaded);
    announceChange('assets');
    return uploaded;
  } catch (error) {
    // Waiting for the next attempt (or refused: the queue ends it Failed with the message), unless deleted.
    if (await assetStore.get(record.localId)) {
      await assetStore.put({ ...uploading, capture: { ...capture }, updatedAt: now() });
      announceChange('assets');
    }
    throw error;
  }
}

/** Records bytes sent on an item still uploading (not one deleted or settled meanwhile). */
async function writeSent(localId: string, sent: number): Promise<void> {
  const current = await assetStore.get(localId);
  if (current?.status !== 'Queued' || current.capture?.how !== 'upload' || current.capture.stage !== 'uploading') return;
  await assetStore.put({ ...current, capture: { ...current.capture, sent } });
  announceChange('assets');
}

/** The create was accepted or refused: the bytes are no longer needed. */
export async function releaseBytes(record: AssetRecord | undefined): Promise<void> {
  if (record?.capture?.how === 'upload' && record.capture.bytesKey) await uploadBytes.remove(record.capture.bytesKey).catch(() => {});
}

/** Deletes kept bytes no queued record names (and staged items never added), once old (upload-bytes' sweep). */
export async function sweepBytes(now = Date.now()): Promise<void> {
  if (!(await uploadBytes.keys()).length) return;
  const needed = new Set((await assetStore.withStatus('Queued')).flatMap((r) => (r.capture?.how === 'upload' ? [r.capture.bytesKey] : [])));
  await uploadBytes.sweep((key) => needed.has(key), now);
}
