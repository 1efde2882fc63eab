import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { filterRecords, searchText, type SearchQuery } from '@/lib/library/library-filter';
import type { LibrarySearch } from '@/lib/library/library-search';
import type { AssetRecord } from '@/lib/storage/records/asset-record';
import type { GroupRecord } from '@/lib/storage/records/group-record';

/** The text index's module, loaded once per page: MiniSearch stays out of the popup's first paint. */
let loading: Promise<typeof import('@/lib/library/library-search')> | null = null;
const loadIndex = () => (loading ??= import('@/lib/library/library-search'));

/**
 * The Library's search. Without text, the filters alone answer (lib/library/library-filter), so a
 * group opens without the index. With text, one index for the popup's life (lib/library/library-search),
 * brought up to the store when its records change (only what changed is indexed again) and queried
 * per keystroke; its module loads at the first keystroke (a few milliseconds, from the extension's
 * own files), and until it is there a text query answers nothing rather than something unmatched. Answers the matching records, best first.
 */
export function useLibrarySearch(assets: readonly AssetRecord[], groups: readonly GroupRecord[], query: SearchQuery, enabled: boolean): AssetRecord[] {
  const index = useRef<LibrarySearch | null>(null);
  const [ready, setReady] = useState(false);
  const text = searchText(query);
  useEffect(() => {
    if (!text) return;
    let live = true;
    void loadIndex().then(({ LibrarySearch }) => {
      index.current ??= new LibrarySearch();
      if (live) setReady(true);
    });
    return () => {
      live = false;
    };
  }, [Boolean(text)]);
  const byId = useMemo(() => {
    if (!text || !ready) return null;
    index.current!.sync(assets, groups);
    return new Map(assets.map((a) => [a.localId, a]));
  }, [assets, groups, ready, Boolean(text)]);
  return useMemo(() => {
    if (!enabled) return [];
    if (!text) return filterRecords(assets, query);
    return byId ? index.current!.search(query).flatMap((id) => byId.get(id) ?? []) : [];
  }, [assets, byId, enabled, text, query.type, query.status, query.groupId]);
}
