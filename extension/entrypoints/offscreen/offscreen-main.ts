import { uploadBytes } from '@/lib/capture/upload-bytes';
import { serveUploads } from '@/lib/capture/upload-transport';
import { loadBrowserLocale } from '@/lib/i18n/translate';
import { connectedClient } from '@/lib/proxy/connected-client';

/**
 * Chrome's offscreen document: sends kept bytes to the proxy with XMLHttpRequest, which counts the
 * bytes sent (the service worker has none), for the worker's queue (capture/upload-transport).
 */
void loadBrowserLocale();
serveUploads(async () => (await connectedClient())?.client ?? null, (key) => uploadBytes.get(key));
