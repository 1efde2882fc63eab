import { useMemo } from 'preact/hooks';
import { addressIndex, normalizeAddress } from '@/lib/library/near-duplicates';
import { useDb } from '@/lib/popup/use-db';
import { assetStore } from '@/lib/storage/asset-store';
import { groupStore } from '@/lib/storage/group-store';

const readLibrary = async () => {
  const [assets, groups] = await Promise.all([assetStore.all(), groupStore.all()]);
  return { assets, groups };
};

/**
 * Which of the page's media are already in the library (any group, own or shared), by normalized
 * address (lib/library/near-duplicates): answers the group's name of the one there, or undefined.
 * Follows the store (a save shows at once).
 */
export function useLibraryMarks(): (url: string) => string | undefined {
  const library = useDb(readLibrary, ['assets', 'groups']);
  return useMemo(() => {
    if (!library) return () => undefined;
    const index = addressIndex(library.assets);
    const names = new Map(library.groups.map((g) => [g.id, g.name]));
    return (url: string) => {
      const asset = index.get(normalizeAddress(url));
      return asset ? (names.get(asset.groupId) ?? '') : undefined;
    };
  }, [library]);
}
