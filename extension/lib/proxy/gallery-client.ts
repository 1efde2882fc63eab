import { type GalleryItem, galleryItemSchema, galleryListSchema } from '@@/shared';
import { callJson } from '@/lib/proxy/proxy-json';
import type { ProxyClient } from '@/lib/proxy/proxy-client';

/**
 * The team gallery's routes: finished videos members publish for the team, newest first. Every
 * answer is read with the shared schemas (`shared/team-library.ts`). Its own module: only the Team
 * tab and the Tasks view's "Publish" carry it, never the popup's first paint.
 */

type Client = Pick<ProxyClient, 'send' | 'proxyUrl'>;

export interface GalleryPage {
  items: GalleryItem[];
  /** `before` for the next page; null on the last. */
  next: string | null;
}

/** `GET /proxy/gallery?limit=&before=`: one page, newest first. */
export function listGallery(client: Client, page: { limit?: number; before?: string | null } = {}, signal?: AbortSignal): Promise<GalleryPage> {
  const query = new URLSearchParams();
  if (page.limit !== undefined) query.set('limit', String(page.limit));
  if (page.before) query.set('before', page.before);
  const search = query.toString() ? `?${query}` : '';
  return callJson(client, { method: 'GET', path: `/proxy/gallery${search}`, schema: galleryListSchema, signal });
}

/** `POST /proxy/gallery`: publishes one of the member's completed tasks (201, or 200 when it already was). */
export const publishTask = (client: Client, taskId: string): Promise<GalleryItem> =>
  callJson(client, { method: 'POST', path: '/proxy/gallery', body: { taskId }, schema: galleryItemSchema });

/** `DELETE /proxy/gallery/:taskId`: removes an item the member published (204). */
export const unpublishTask = (client: Client, taskId: string): Promise<void> =>
  callJson(client, { method: 'DELETE', path: `/proxy/gallery/${encodeURIComponent(taskId)}`, schema: null });

/** The member id in a member token (`abk_<member id>_<secret>`): whose gallery items are the member's own. */
export function memberIdOf(token: string): string | null {
  return /^abk_(m[0-9a-f]{16})_/.exec(token)?.[1] ?? null;
}
