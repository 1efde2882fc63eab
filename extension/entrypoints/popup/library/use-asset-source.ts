import { useEffect, useState } from 'preact/hooks';
import { isShared } from '@/lib/library/group-access';
import { assetSources } from '@/lib/library/shared-sources';
import { connectedClient } from '@/lib/proxy/connected-client';
import type { AssetRecord } from '@/lib/storage/records/asset-record';
import type { AssetSource } from '@/lib/storage/records/asset-source';
import type { GroupRecord } from '@/lib/storage/records/group-record';

/**
 * The asset's source: the record's own (captured here), else, for a shared group's asset, the
 * proxy's (lib/library/shared-sources: batched and cached); 'loading' meanwhile.
 */
export function useAssetSource(asset: AssetRecord, group: GroupRecord | undefined): AssetSource | undefined | 'loading' {
  const remote = !asset.source && Boolean(asset.assetId) && Boolean(group && isShared(group));
  const cached = asset.assetId ? assetSources.cached(asset.assetId) : undefined;
  const [fetched, setFetched] = useState<AssetSource | null | undefined>(cached);
  useEffect(() => {
    if (!remote || cached !== undefined) return;
    let open = true;
    void (async () => {
      const connected = await connectedClient();
      const source = connected ? await assetSources.get(connected.client, asset.assetId!) : null;
      if (open) setFetched(source);
    })();
    return () => {
      open = false;
    };
  }, [asset.assetId, remote]);
  if (asset.source) return asset.source;
  if (!remote) return undefined;
  return fetched === undefined ? 'loading' : (fetched ?? undefined);
}
