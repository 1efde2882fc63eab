import { type AssetSource as SharedSource, type AssetSourceInput, assetSourceAnswerSchema, SOURCE_BATCH_MAX, sourceLookupAnswerSchema } from '@@/shared';
import type { ProxyClient } from '@/lib/proxy/proxy-client';
import { callJson, isMissingRoute } from '@/lib/proxy/proxy-json';
import type { AssetSource } from '@/lib/storage/records/asset-source';

/**
 * Provenance on the proxy (shared/provenance): an asset's source is set once the asset exists, so
 * that teammates it is shared with see where it came from, and read back in batches for shared
 * assets. Answers are read with the shared schemas.
 */

type Client = Pick<ProxyClient, 'send' | 'proxyUrl'>;

/** The record's source as the route takes it (no page: nulls; the time as ISO 8601). */
export const sourceInput = (source: AssetSource): AssetSourceInput => ({
  pageUrl: source.pageUrl ?? null,
  pageTitle: source.pageTitle ?? null,
  capturedAt: new Date(source.capturedAt).toISOString(),
  how: source.how,
});

/** The proxy's source as a record keeps it. */
export function sourceFromProxy(source: SharedSource): AssetSource {
  const capturedAt = Date.parse(source.capturedAt);
  return {
    how: source.how,
    capturedAt: Number.isNaN(capturedAt) ? 0 : capturedAt,
    ...(source.pageUrl ? { pageUrl: source.pageUrl } : {}),
    ...(source.pageTitle ? { pageTitle: source.pageTitle } : {}),
  };
}

/** `PUT /proxy/assets/:assetId/source`. */
export async function putSource(client: Client, assetId: string, source: AssetSource): Promise<void> {
  await callJson(client, { method: 'PUT', path: `/proxy/assets/${encodeURIComponent(assetId)}/source`, body: sourceInput(source), schema: assetSourceAnswerSchema });
}

/**
 * `POST /proxy/sources`, SOURCE_BATCH_MAX ids a call: the sources of the ids the member may read
 * that have one (the others are absent). A proxy without the route knows none.
 */
export async function lookupSources(client: Client, ids: readonly string[], signal?: AbortSignal): Promise<Map<string, AssetSource>> {
  const found = new Map<string, AssetSource>();
  for (let at = 0; at < ids.length; at += SOURCE_BATCH_MAX) {
    try {
      const answer = await callJson(client, { method: 'POST', path: '/proxy/sources', body: { ids: ids.slice(at, at + SOURCE_BATCH_MAX) }, schema: sourceLookupAnswerSchema, signal });
      for (const [id, source] of Object.entries(answer.sources)) found.set(id, sourceFromProxy(source));
    } catch (error) {
      if (isMissingRoute(error)) return found;
      throw error;
    }
  }
  return found;
}
