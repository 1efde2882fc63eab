import { ASSET_BATCH_MAX, assetStatusesAnswerSchema, type FollowedAsset } from '@@/shared';
import type { ProxyClient } from '@/lib/proxy/proxy-client';
import { callJson, isMissingRoute } from '@/lib/proxy/proxy-json';

type Client = Pick<ProxyClient, 'send' | 'proxyUrl'>;

/**
 * `POST /proxy/assets/statuses`, ASSET_BATCH_MAX ids a call: how the proxy's own following of the
 * member's assets sees them, from its storage (no call to the service). An id the proxy does not
 * follow is absent; a proxy without the route follows none (an empty map).
 */
export async function followedStatuses(client: Client, ids: readonly string[], signal?: AbortSignal): Promise<Map<string, FollowedAsset>> {
  const found = new Map<string, FollowedAsset>();
  for (let at = 0; at < ids.length; at += ASSET_BATCH_MAX) {
    try {
      const answer = await callJson(client, { method: 'POST', path: '/proxy/assets/statuses', body: { ids: ids.slice(at, at + ASSET_BATCH_MAX) }, schema: assetStatusesAnswerSchema, signal });
      for (const asset of answer.assets) found.set(asset.id, asset);
    } catch (error) {
      if (isMissingRoute(error)) return found;
      throw error;
    }
  }
  return found;
}
