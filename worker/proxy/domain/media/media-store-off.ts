import type { MediaEnv } from './media-env';

/**
 * Whether the media store can work: it signs every address under MEDIA_URL_SECRET, so without it
 * no upload, listing, deletion or `/media/` read is served. The proxy still starts (npm run proxy
 * says so); every media route answers this 503, the same everywhere.
 */
export const MEDIA_STORE_OFF = {
  status: 503,
  code: 'media_store_not_configured',
  message: "The proxy's media store is not configured: its operator must set MEDIA_URL_SECRET.",
} as const;

export const mediaStoreOff = (env: Pick<MediaEnv, 'MEDIA_URL_SECRET'>): typeof MEDIA_STORE_OFF | null => (env.MEDIA_URL_SECRET ? null : MEDIA_STORE_OFF);
