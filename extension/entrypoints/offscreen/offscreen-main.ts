import { loadBrowserLocale } from '@/lib/i18n/translate';
import { connectedClient } from '@/lib/proxy/connected-client';
import { uploadBytes } from '@/lib/storage/upload-bytes';
import { serveUploads } from '@/lib/uploads/upload-transport';

/**
 * Chrome's offscreen document: sends kept bytes to the proxy with XMLHttpRequest, which counts the
 * bytes sent (the service worker has none), for the worker's queue (uploads/upload-transport).
 */
void loadBrowserLocale();
serveUploads(async () => (await connectedClient())?.client ?? null, (key) => uploadBytes.get(key));
