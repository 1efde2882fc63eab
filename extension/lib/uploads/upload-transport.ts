import { browser, type Browser } from 'wxt/browser';
import { t } from '@/lib/i18n/translate';
import { ApiError, type ApiFailure } from '@/lib/proxy/api-failure';
import type { ProxyClient } from '@/lib/proxy/proxy-client';
import { type UploadAnswer, uploadMedia } from '@/lib/proxy/upload-client';
import { type SendProgress, xhrFetch } from '@/lib/proxy/xhr-fetch';
import type { StoredBytes } from '@/lib/storage/upload-bytes';

/**
 * How kept bytes travel to `POST /proxy/uploads` with the bytes sent counted: XMLHttpRequest where
 * it exists (Firefox's background page, any extension page), else, from Chrome's service worker
 * (which has none), in the offscreen document (entrypoints/offscreen), which reads the bytes from
 * the upload store itself and reports over a port; else one fetch, counted only when done.
 */

/** The port's name, and what goes over it. */
export const UPLOAD_PORT = 'arkbridge-upload';
export type UploadPortRequest = { key: string; name: string };
export type UploadPortMessage = { sent: number; total: number } | { answer: UploadAnswer } | { failure: ApiFailure };

const OFFSCREEN_PATH = '/offscreen.html';

let opening: Promise<boolean> | null = null;

/**
 * Whether the offscreen document is there, made once (Chrome allows one per extension; two uploads
 * must not both create it). It is left open: the next upload needs it again, and it holds nothing.
 */
function offscreenReady(): Promise<boolean> {
  const offscreen = browser.offscreen;
  if (!offscreen?.createDocument) return Promise.resolve(false);
  opening ??= (async () => {
    const url = browser.runtime.getURL(OFFSCREEN_PATH);
    const existing = await browser.runtime.getContexts?.({ contextTypes: ['OFFSCREEN_DOCUMENT' as Browser.runtime.ContextType], documentUrls: [url] }).catch(() => []);
    if (existing?.length) return true;
    await offscreen.createDocument({ url, reasons: ['BLOBS' as Browser.offscreen.Reason], justification: 'Upload media the member saved with its progress (XMLHttpRequest).' });
    return true;
  })().catch(() => {
    opening = null; // tried again at the next upload
    return false;
  });
  return opening;
}

/** Uploads through the offscreen document; answers the proxy's answer or throws an ApiError. */
function uploadOffscreen(request: UploadPortRequest, onProgress: SendProgress): Promise<UploadAnswer> {
  return new Promise((resolve, reject) => {
    const port = browser.runtime.connect({ name: UPLOAD_PORT });
    let settled = false;
    port.onMessage.addListener((message: UploadPortMessage) => {
      if ('sent' in message) return onProgress(message.sent, message.total);
      settled = true;
      port.disconnect();
      if ('answer' in message) resolve(message.answer);
      else reject(new ApiError(message.failure));
    });
    port.onDisconnect.addListener(() => {
      if (!settled) reject(new ApiError({ kind: 'network', message: t('upload.error.interrupted') }));
    });
    port.postMessage(request);
  });
}

/** Sends kept bytes to the proxy, reporting bytes sent where the browser can count them. */
export async function sendKeptBytes(client: ProxyClient, stored: StoredBytes, name: string, onProgress: SendProgress): Promise<UploadAnswer> {
  const options = { contentType: stored.contentType, name };
  if (typeof XMLHttpRequest === 'function') return uploadMedia(client.withFetch(xhrFetch(onProgress)), stored.bytes, options);
  if (await offscreenReady()) return uploadOffscreen({ key: stored.key, name }, onProgress);
  return uploadMedia(client, stored.bytes, options);
}

/** In the offscreen document: answers upload requests arriving over the port. */
export function serveUploads(clientFor: () => Promise<ProxyClient | null>, bytesFor: (key: string) => Promise<StoredBytes | undefined>): void {
  browser.runtime.onConnect.addListener((port) => {
    if (port.name !== UPLOAD_PORT) return;
    port.onMessage.addListener(async ({ key, name }: UploadPortRequest) => {
      const post = (message: UploadPortMessage) => {
        try {
          port.postMessage(message);
        } catch {
          // The worker went away; it uploads again at its next attempt.
        }
      };
      try {
        const [client, stored] = await Promise.all([clientFor(), bytesFor(key)]);
        // Disconnected meanwhile: the worker's next attempt finds out (and asks to reconnect if it must).
        if (!client) throw new ApiError({ kind: 'network', message: t('upload.error.interrupted') });
        if (!stored) throw new ApiError({ kind: 'rejected', status: 0, code: 'capture_bytes_lost', message: t('capture.read.bytesLost') });
        let last = 0;
        const answer = await uploadMedia(
          client.withFetch(
            xhrFetch((sent, total) => {
              // At most a few reports a second: each becomes a write to the item's record.
              if (sent < total && Date.now() - last < 200) return;
              last = Date.now();
              post({ sent, total });
            }),
          ),
          stored.bytes,
          { contentType: stored.contentType, name },
        );
        post({ answer });
      } catch (error) {
        post({ failure: error instanceof ApiError ? error.failure : { kind: 'network', message: String(error) } });
      }
    });
  });
}
