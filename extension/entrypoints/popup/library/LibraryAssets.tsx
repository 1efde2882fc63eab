import { useState } from 'preact/hooks';
import { deferred, useDeferred } from '@/entrypoints/popup/deferred';
import { StatusChip } from '@/entrypoints/popup/library/StatusChips';
import { VirtualList } from '@/entrypoints/popup/library/VirtualList';
import { captureNote } from '@/lib/capture/capture-note';
import { t } from '@/lib/i18n/translate';
import { type LibraryLayout, readLibraryLayout, rememberLibraryLayout } from '@/lib/library/library-layout';
import { STATUS_FILTERS, type StatusFilter } from '@/lib/library/library-view-model';
import type { AssetRecord } from '@/lib/storage/records/asset-record';
import type { GroupRecord } from '@/lib/storage/records/group-record';

/**
 * The Library's assets: the search and status filters, and the assets shown (of one group, or of
 * all while narrowed) as a list or a grid, the layout remembered (library-layout).
 */

export const ASSET_ROW_HEIGHT = 56;
export const LIST_HEIGHT = 300;
/** The grid: cells at least this wide (three across the popup), rows this high, three rows in view. */
export const GRID_CELL_WIDTH = 120;
export const GRID_ROW_HEIGHT = 112;
export const GRID_HEIGHT = 3 * GRID_ROW_HEIGHT;
/** Grid rows rendered beyond those in view (their media not loaded): enough for a smooth scroll. */
const GRID_OVERSCAN = 2;

/** The grid's cells (thumbnails, durations): a chunk loaded when a grid is first shown (or "Grid" hovered). */
const gridTiles = deferred(() => import('@/entrypoints/popup/library/AssetTile'));

interface FiltersProps {
  /** The open group, if any (the search's label says where it searches). */
  group: GroupRecord | undefined;
  search: string;
  status: StatusFilter;
  onSearch: (search: string) => void;
  onStatus: (status: StatusFilter) => void;
}

export function LibraryFilters({ group, search, status, onSearch, onStatus }: FiltersProps) {
  return (
    <div class="library__filters">
      <div class="library__search">
        <label for="library-search">{t(group ? 'library.searchGroup' : 'library.searchAll')}</label>
        <input id="library-search" type="search" autoComplete="off" value={search} onInput={(e) => onSearch(e.currentTarget.value)} />
      </div>
      <div class="library__status">
        <label for="library-status">{t('library.statusFilter')}</label>
        <select id="library-status" value={status} onChange={(e) => onStatus(e.currentTarget.value as StatusFilter)}>
          {STATUS_FILTERS.map((s) => (
            <option key={s} value={s}>
              {t(`library.filter.${s}`)}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

interface AssetsProps {
  /** The open group; none: the results of a search or filter over all groups. */
  group: GroupRecord | undefined;
  shown: AssetRecord[];
  /** A search or a filter is on (the empty list says "no match" rather than "empty group"). */
  narrowed: boolean;
  groupsById: Map<string, GroupRecord>;
  onOpen: (asset: AssetRecord) => void;
}

export function LibraryAssets({ group, shown, narrowed, groupsById, onOpen }: AssetsProps) {
  const [layout, setLayout] = useState<LibraryLayout>(readLibraryLayout);
  const chooseLayout = (next: LibraryLayout) => {
    rememberLibraryLayout(next);
    setLayout(next);
  };
  const grid = layout === 'grid';
  const tiles = useDeferred(gridTiles, grid);
  return (
    <>
      <div class="library__listbar">
        <p class="library__count" aria-live="polite">
          {t('library.assetCount', { count: shown.length })}
        </p>
        <LayoutToggle layout={layout} onChange={chooseLayout} onIntent={() => void gridTiles.load().catch(() => {})} />
      </div>
      <VirtualList
        // A new list (scroll, active item) when the layout changes: positions differ.
        key={layout}
        id="library-assets"
        label={group ? t('library.assetsOf', { name: group.name }) : t('library.results')}
        items={shown}
        getKey={(a) => a.localId}
        {...(grid
          ? { rowHeight: GRID_ROW_HEIGHT, cellMinWidth: GRID_CELL_WIDTH, overscan: GRID_OVERSCAN, height: Math.min(GRID_HEIGHT, Math.max(1, Math.ceil(shown.length / 3)) * GRID_ROW_HEIGHT) }
          : { rowHeight: ASSET_ROW_HEIGHT, height: Math.min(LIST_HEIGHT, Math.max(shown.length, 1) * ASSET_ROW_HEIGHT) })}
        renderRow={(a, _index, _active, visible) =>
          !grid ? (
            <AssetRow asset={a} visible={visible} groupName={group ? null : (groupsById.get(a.groupId)?.name ?? null)} />
          ) : tiles.module ? (
            <tiles.module.AssetTile asset={a} visible={visible} />
          ) : (
            <span class="row__name">{a.name}</span>
          )
        }
        onOpen={onOpen}
        empty={<p class="muted">{narrowed ? t('library.noMatch') : t('library.emptyGroup')}</p>}
      />
    </>
  );
}

/** List or grid, remembered (library-layout). */
function LayoutToggle({ layout, onChange, onIntent }: { layout: LibraryLayout; onChange: (layout: LibraryLayout) => void; onIntent: () => void }) {
  return (
    <span class="layout-toggle" role="group" aria-label={t('library.grid.layout')}>
      {(['list', 'grid'] as const).map((option) => (
        <button
          key={option}
          type="button"
          aria-pressed={layout === option}
          onClick={() => onChange(option)}
          {...(option === 'grid' ? { onPointerEnter: onIntent, onFocus: onIntent } : {})}
        >
          {t(`library.grid.${option}`)}
        </button>
      ))}
    </span>
  );
}

/** `visible`: in view, its thumbnail may load (not for the rows rendered beyond the view). */
function AssetRow({ asset, groupName, visible }: { asset: AssetRecord; groupName: string | null; visible: boolean }) {
  const failed = asset.status === 'Failed' && asset.error;
  // How it reached the library, or where its upload stands ("Saved by link", "Uploading 48.3 MB…").
  const about = [groupName, failed ? null : captureNote(asset)].filter(Boolean).join(' · ');
  return (
    <div class="row row--asset">
      {asset.type === 'Image' && visible ? (
        <img class="thumb" src={asset.url} alt="" loading="lazy" decoding="async" width={40} height={40} />
      ) : asset.type === 'Image' ? (
        <span class="thumb" aria-hidden="true" />
      ) : (
        <span class={`thumb thumb--${asset.type.toLowerCase()}`} aria-hidden="true">
          {asset.type === 'Video' ? '▶' : '♪'}
        </span>
      )}
      <span class="row__text">
        <span class="row__name" title={asset.name}>
          {asset.name}
        </span>
        <span class="row__sub">
          <StatusChip status={asset.status} /> <span class="visually-hidden">{t(`library.assetType.${asset.type}`)}</span>
          {failed ? (
            <span class="row__error" title={asset.error}>
              {asset.error}
            </span>
          ) : (
            about && (
              <span class="row__group" title={about}>
                {about}
              </span>
            )
          )}
        </span>
      </span>
    </div>
  );
}
