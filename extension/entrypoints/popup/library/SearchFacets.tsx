import { ASSET_TYPES, type AssetType } from '@@/shared';
import { t } from '@/lib/i18n/translate';
import type { GroupRecord } from '@/lib/storage/records/group-record';

interface SearchFacetsProps {
  type: AssetType | 'all';
  onType: (type: AssetType | 'all') => void;
  /** The groups to choose from; none while one group is open (the search is that group's). */
  groups?: readonly GroupRecord[];
  groupId: string | null;
  onGroup: (groupId: string | null) => void;
}

/** The search's type and group filters, beside its text and status (LibraryFilters). */
export function SearchFacets({ type, onType, groups, groupId, onGroup }: SearchFacetsProps) {
  return (
    <div class="library__filters library__facets">
      <div>
        <label for="library-search-type">{t('search.type')}</label>
        <select id="library-search-type" data-testid="library-search-type" value={type} onChange={(e) => onType(e.currentTarget.value as AssetType | 'all')}>
          <option value="all">{t('search.any')}</option>
          {ASSET_TYPES.map((kind) => (
            <option key={kind} value={kind}>
              {t(`library.assetType.${kind}`)}
            </option>
          ))}
        </select>
      </div>
      {groups && (
        <div>
          <label for="library-search-group">{t('search.group')}</label>
          <select id="library-search-group" data-testid="library-search-group" value={groupId ?? ''} onChange={(e) => onGroup(e.currentTarget.value || null)}>
            <option value="">{t('search.any')}</option>
            {groups.map((g) => (
              <option key={g.id} value={g.id}>
                {g.name}
              </option>
            ))}
          </select>
        </div>
      )}
    </div>
  );
}
