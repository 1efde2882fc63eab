import { useEffect, useMemo, useState } from 'preact/hooks';
import { libraryMarks } from '@/lib/library/near-duplicates';
import { isPixelKey } from '@/lib/library/pixel-key';
import type { PageMediaItem } from '@/lib/page-media/page-media-items';
import { useDb } from '@/lib/popup/use-db';
import { assetStore } from '@/lib/storage/asset-store';
import { groupStore } from '@/lib/storage/group-store';

const readLibrary = async () => {
  const [assets, groups] = await Promise.all([assetStore.all(), groupStore.all()]);
  return { assets, groups };
};

/** Images of a page hashed for the marks, at most (the first ones listed); the rest are marked by address only. */
export const MARK_HASH_MAX_ITEMS = 60;

/**
 * Which of the page's media are already in the library (any group, own or shared): by normalized
 * address, else, for images whose pixels the panel may read, by perceptual hash
 * (lib/library/near-duplicates' libraryMarks); answers the group's name of the one there, or
 * undefined. Images are hashed only while the library holds hashed assets, after the first paint
 * (the hashing module is loaded then), a few at a time. Follows the store (a save shows at once).
 */
export function useLibraryMarks(items: readonly PageMediaItem[] = []): (url: string) => string | undefined {
  const library = useDb(readLibrary, ['assets', 'groups']);
  const [hashes, setHashes] = useState<ReadonlyMap<string, string>>(new Map());
  const anyHashed = useMemo(() => library?.assets.some((a) => isPixelKey(a.pixelHash)) ?? false, [library]);

  useEffect(() => {
    if (!anyHashed) return;
    const urls = items.filter((i) => i.type === 'image' && i.tooLarge === undefined).slice(0, MARK_HASH_MAX_ITEMS).map((i) => i.url);
    if (!urls.length) return;
    let live = true;
    void import('@/lib/saving/near-duplicate-check')
      .then(({ hashAddresses }) =>
        hashAddresses(urls, undefined, undefined, (url, hash) => {
          if (live && hash) setHashes((prev) => (prev.get(url) === hash ? prev : new Map(prev).set(url, hash)));
        }),
      )
      .catch(() => {});
    return () => void (live = false);
  }, [items, anyHashed]);

  return useMemo(() => {
    if (!library) return () => undefined;
    const mark = libraryMarks(library.assets);
    const names = new Map(library.groups.map((g) => [g.id, g.name]));
    return (url: string) => {
      const asset = mark(url, hashes.get(url));
      return asset ? (names.get(asset.groupId) ?? '') : undefined;
    };
  }, [library, hashes]);
}
