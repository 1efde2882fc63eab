import { useMemo, useRef } from 'preact/hooks';
import { LibrarySearch, type SearchQuery } from '@/lib/library/library-search';
import type { AssetRecord } from '@/lib/storage/records/asset-record';
import type { GroupRecord } from '@/lib/storage/records/group-record';

/**
 * The Library's search (lib/library/library-search): one index for the popup's life, brought up to
 * the store each time the store's records change (only what changed is indexed again), and queried
 * per keystroke. Answers the matching records, best first.
 */
export function useLibrarySearch(assets: readonly AssetRecord[], groups: readonly GroupRecord[], query: SearchQuery, enabled: boolean): AssetRecord[] {
  const index = useRef<LibrarySearch | null>(null);
  const byId = useMemo(() => {
    index.current ??= new LibrarySearch();
    index.current.sync(assets, groups);
    return new Map(assets.map((a) => [a.localId, a]));
  }, [assets, groups]);
  return useMemo(
    () => (enabled ? index.current!.search(query).flatMap((id) => byId.get(id) ?? []) : []),
    [byId, enabled, query.text, query.type, query.status, query.groupId],
  );
}
