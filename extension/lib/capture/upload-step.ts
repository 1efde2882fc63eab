import { uploadBytes } from '@/lib/capture/upload-bytes';
import { t } from '@/lib/i18n/translate';
import { ApiError } from '@/lib/proxy/api-failure';
import type { ProxyClient } from '@/lib/proxy/proxy-client';
import { uploadMedia } from '@/lib/proxy/upload-client';
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
 * Progress: the upload is one `fetch` of the whole body from the service worker, which reports no
 * upload progress (no XMLHttpRequest in a service worker; a streamed body carries no Content-Length,
 * which the proxy requires, and Chromium streams request bodies only over HTTP/2). The item says
 * "Uploading 48.3 MB…" for the request; the bytes are counted where they can be: while the page
 * reads them (capture-upload).
 */

/** An address expiring sooner than this is not used for a create: the service must still download it. */
export const ADDRESS_MARGIN_MS = 10 * 60_000;

const refused = (code: string, message: string) => new ApiError({ kind: 'rejected', status: 0, code, message });

/** The record ready for its create: uploaded when it is an upload; throws an ApiError the queue settles. */
export async function readyToCreate(client: ProxyClient, record: AssetRecord, now: () => number = Date.now): Promise<AssetRecord> {
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
  try {
    const answer = await uploadMedia(client, stored.bytes, { contentType: stored.contentType, name: record.name });
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
    // Waiting for the next attempt (or refused: the queue ends it Failed with the message).
    await assetStore.put({ ...uploading, capture: { ...capture }, updatedAt: now() });
    announceChange('assets');
    throw error;
  }
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
