import type { ProxyClient } from '@/lib/proxy/proxy-client';
import { lookupSources } from '@/lib/proxy/source-client';
import type { AssetSource } from '@/lib/storage/records/asset-source';

/**
 * Sources of assets the member did not capture (a teammate's, in a shared group), read from the
 * proxy: requests made in the same turn go as one `POST /proxy/sources` (batched), and answers,
 * including "none", are kept for the page's life (cached), at most CACHE_MAX of them.
 */

type Client = Pick<ProxyClient, 'send' | 'proxyUrl'>;
type Lookup = (client: Client, ids: readonly string[]) => Promise<Map<string, AssetSource>>;

const CACHE_MAX = 5000;

export function sharedSources(lookup: Lookup = lookupSources) {
  const known = new Map<string, AssetSource | null>();
  let pending: { client: Client; waiters: Map<string, ((source: AssetSource | null) => void)[]> } | null = null;

  async function flush(batch: NonNullable<typeof pending>): Promise<void> {
    const ids = [...batch.waiters.keys()];
    let found = new Map<string, AssetSource>();
    try {
      found = await lookup(batch.client, ids);
    } catch {
      // Not cached: a later opening asks again.
      for (const [, waiters] of batch.waiters) for (const w of waiters) w(null);
      return;
    }
    for (const id of ids) {
      const source = found.get(id) ?? null;
      if (known.size >= CACHE_MAX) known.delete(known.keys().next().value!);
      known.set(id, source);
      for (const w of batch.waiters.get(id)!) w(source);
    }
  }

  return {
    /** The cached answer: a source, null (none), or undefined (not asked yet). */
    cached: (assetId: string): AssetSource | null | undefined => known.get(assetId),
    /** The asset's source on the proxy, or null; asked together with the other ids asked this turn. */
    get(client: Client, assetId: string): Promise<AssetSource | null> {
      if (known.has(assetId)) return Promise.resolve(known.get(assetId)!);
      return new Promise((resolve) => {
        if (!pending) {
          const batch = { client, waiters: new Map<string, ((source: AssetSource | null) => void)[]>() };
          pending = batch;
          queueMicrotask(() => {
            pending = null;
            void flush(batch);
          });
        }
        const waiters = pending.waiters.get(assetId) ?? [];
        waiters.push(resolve);
        pending.waiters.set(assetId, waiters);
      });
    },
  };
}

/** The page's one cache. */
export const assetSources = sharedSources();
