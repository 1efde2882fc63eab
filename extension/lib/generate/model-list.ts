import { type ModelList, MODELS, type ModelSpec } from '@@/shared';
import type { ProxyClient } from '@/lib/proxy/proxy-client';
import type { ModelsInfo } from '@/lib/storage/records/setting-values';
import { settingsStore } from '@/lib/storage/settings-store';

/**
 * The models the member can generate with: the ids `/v1/models` lists for the team's key, joined
 * with the capability catalog of the proxy (`/proxy/capabilities`; the built-in catalog when the
 * proxy does not send one). Ids the catalog does not know (chat models and the like) are left out.
 * The last answer is kept in IndexedDB so that the form opens at once.
 */

/** Catalog entries whose id the listing holds, in catalog order. */
export function joinModels(list: ModelList, catalog: readonly ModelSpec[] = MODELS): ModelSpec[] {
  const listed = new Set((list.data ?? []).map((m) => m.id));
  return catalog.filter((spec) => listed.has(spec.id));
}

/** Asks the proxy, stores and answers the joined list. Throws ApiError when the listing fails. */
export async function loadModels(client: ProxyClient, fallbackAllowHttp = false, now: () => number = Date.now): Promise<ModelsInfo> {
  const [list, capabilities] = await Promise.all([client.models(), client.capabilities().catch(() => null)]);
  const catalog = Array.isArray(capabilities?.models) && capabilities.models.length ? capabilities.models : MODELS;
  const info: ModelsInfo = {
    models: joinModels(list, catalog),
    allowHttp: capabilities?.media?.allowHttp ?? fallbackAllowHttp,
    fetchedAt: now(),
  };
  await settingsStore.put('generate.models', info);
  return info;
}

/** The last stored answer, or null. */
export async function cachedModels(): Promise<ModelsInfo | null> {
  return (await settingsStore.get('generate.models')) ?? null;
}
