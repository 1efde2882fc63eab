import { t } from '@/lib/i18n/translate';
import { useDb } from '@/lib/popup/use-db';
import { readGroupAssets } from '@/lib/portrait/portrait-store';
import type { AssetRecord } from '@/lib/storage/records/asset-record';
import type { GroupRecord } from '@/lib/storage/records/group-record';
import '@/lib/i18n/portrait.en';

interface ResultPanelProps {
  group: GroupRecord;
  /** The assets as stored at completion; the list then follows IndexedDB (status changes). */
  assets: AssetRecord[];
  onDone: () => void;
}

/** The new real-person group and its assets with their statuses. */
export function ResultPanel({ group, assets, onDone }: ResultPanelProps) {
  const live = useDb(() => readGroupAssets(group.id), ['assets'], [group.id]) ?? assets;
  return (
    <div class="portrait-result">
      <dl class="portrait-group">
        <dt>{t('portrait.groupName')}</dt>
        <dd>{group.name}</dd>
        <dt>{t('portrait.groupDescription')}</dt>
        <dd>{group.description || <span class="portrait-muted">{t('portrait.noDescription')}</span>}</dd>
      </dl>
      <h3 id="portrait-assets-heading">{t('portrait.assets')}</h3>
      {live.length ? (
        <ul class="portrait-assets" aria-labelledby="portrait-assets-heading">
          {live.map((asset) => (
            <li key={asset.localId}>
              <span class="portrait-assets__name">{asset.name}</span>
              <span class={`portrait-status portrait-status--${asset.status}`}>{t(`portrait.status.${asset.status}`)}</span>
              {asset.error && <span class="portrait-assets__error">{asset.error}</span>}
            </li>
          ))}
        </ul>
      ) : (
        <p class="portrait-muted">{t('portrait.noAssets')}</p>
      )}
      <p class="portrait-muted">{t('portrait.activeHint')}</p>
      <div class="actions">
        <button type="button" class="primary" onClick={onDone}>
          {t('portrait.done')}
        </button>
      </div>
    </div>
  );
}
