import { useState } from 'preact/hooks';
import { t } from '@/lib/i18n/translate';
import { similarAssets } from '@/lib/library/near-duplicates';
import { isPixelKey } from '@/lib/library/pixel-key';
import { assetStore } from '@/lib/storage/asset-store';
import { groupStore } from '@/lib/storage/group-store';
import type { AssetRecord } from '@/lib/storage/records/asset-record';

type Found = { asset: AssetRecord; distance: number; group: string }[];

/** "Find similar" in an asset's detail: the library's hashed images by Hamming distance, closest first. */
export function SimilarAssets({ asset }: { asset: AssetRecord }) {
  const [found, setFound] = useState<Found | null>(null);
  // Only images whose pixels were read have a hash to compare.
  if (asset.type !== 'Image' || !isPixelKey(asset.pixelHash)) return null;
  async function find() {
    const [library, groups] = await Promise.all([assetStore.all(), groupStore.all()]);
    const names = new Map(groups.map((g) => [g.id, g.name]));
    setFound(similarAssets(asset, library).map((s) => ({ ...s, group: names.get(s.asset.groupId) ?? '' })));
  }
  return (
    <section class="asset-similar" aria-labelledby="library-similar-title" data-testid="asset-similar">
      <h3 id="library-similar-title">{t('similar.title')}</h3>
      {found === null ? (
        <button type="button" onClick={() => void find()}>
          {t('similar.find')}
        </button>
      ) : found.length === 0 ? (
        <p class="muted">{t('similar.none')}</p>
      ) : (
        <ul class="asset-similar__list">
          {found.map(({ asset: other, distance, group }) => (
            <li key={other.localId}>
              <span>{other.name}</span> <span class="muted">· {group}</span> <span class="muted">· {t('similar.distance', { distance })}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
