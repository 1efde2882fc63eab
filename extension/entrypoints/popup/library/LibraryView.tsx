import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useReducer, useRef, useState } from 'preact/hooks';
import { Banner } from '@/components/Banner';
import { deferred, PartPending, useDeferred } from '@/entrypoints/popup/deferred';
import { Confirm } from '@/entrypoints/popup/library/Confirm';
import { AddFilesButton, DROP_GROUP, FileDrop } from '@/entrypoints/popup/library/FileDrop';
import { useLocalFiles } from '@/entrypoints/popup/library/use-local-files';
import { GroupForm } from '@/entrypoints/popup/library/GroupForm';
import { StatusChip, TypeBadge } from '@/entrypoints/popup/library/StatusChips';
import { VirtualList } from '@/entrypoints/popup/library/VirtualList';
import { captureNote } from '@/lib/capture/capture-note';
import { t } from '@/lib/i18n/translate';
import { dropGroup, fileGroups } from '@/lib/library/drop-group';
import { deleteGroup } from '@/lib/library/group-actions';
import { type LibraryLayout, readLibraryLayout, rememberLibraryLayout } from '@/lib/library/library-layout';
import { refreshLibrary, refreshLibraryIfStale } from '@/lib/library/library-refresh';
import { countByGroup, filterAssets, isNarrowed, readLibrary, STATUS_FILTERS, type StatusFilter } from '@/lib/library/library-view-model';
import { useDb } from '@/lib/popup/use-db';
import { ApiError } from '@/lib/proxy/api-failure';
import { connectedClient } from '@/lib/proxy/connected-client';
import { describeFailure, notConnected, type Problem, problemOf } from '@/lib/proxy/failure-message';
import '@/entrypoints/popup/library/library.css';
import { initialLibraryView, type LibraryViewAction, libraryViewReducer, type Sync } from '@/entrypoints/popup/library/library-view-state';
import { useFirstPaintMark } from '@/lib/popup/first-paint';
import { lastUsedGroup } from '@/lib/storage/last-used-group';
import type { AssetRecord } from '@/lib/storage/records/asset-record';
import type { GroupRecord } from '@/lib/storage/records/group-record';

export const ASSET_ROW_HEIGHT = 56;
export const GROUP_ROW_HEIGHT = 48;
export const LIST_HEIGHT = 300;
/** The grid: cells at least this wide (three across the popup), rows this high, three rows in view. */
export const GRID_CELL_WIDTH = 120;
export const GRID_ROW_HEIGHT = 112;
export const GRID_HEIGHT = 3 * GRID_ROW_HEIGHT;
/** Grid rows rendered beyond those in view (their media not loaded): enough for a smooth scroll. */
const GRID_OVERSCAN = 2;

/**
 * An asset's detail (preview, readiness, rename, delete): a chunk loaded when one is opened, with
 * what "Use in Generate" needs (the Generate form's rules).
 */
const assetDetail = deferred(() => import('@/entrypoints/popup/library/AssetDetail'));
/** The grid's cells (thumbnails, durations): a chunk loaded when a grid is first shown (or "Grid" hovered). */
const gridTiles = deferred(() => import('@/entrypoints/popup/library/AssetTile'));
/** The file picker, the group question and the reading progress: loaded on intent (library-files). */
const filesPart = deferred(() => import('@/entrypoints/popup/library/library-files'));

/**
 * The Library tab: groups, then the assets of one group (or, while searching or filtering, of all
 * groups), then one asset. The first paint is IndexedDB's; a refresh runs in the background and
 * never blanks what is shown.
 */
interface LibraryViewProps {
  /** Shows Generate after an asset was added to its form ("Use in Generate"). */
  onUseInGenerate?: () => void;
}

export function LibraryView({ onUseInGenerate }: LibraryViewProps = {}) {
  const data = useDb(readLibrary, ['groups', 'assets']);
  useFirstPaintMark(data !== undefined);
  const [view, dispatch] = useReducer(libraryViewReducer, initialLibraryView);
  const { sync, groupId, openId, search, status, form, confirming, deleting, problem, notice } = view;
  const setSync = (next: Sync) => dispatch({ type: 'sync', sync: next });
  const setProblem = (next: Problem | null) => dispatch({ type: 'problem', problem: next });
  /** Where focus goes after a screen change (an element id). */
  const focusNext = useRef<string | null>(null);

  const mounted = useRef(true);
  useEffect(() => () => void (mounted.current = false), []);
  const [layout, setLayout] = useState<LibraryLayout>(readLibraryLayout);
  const chooseLayout = (next: LibraryLayout) => {
    rememberLibraryLayout(next);
    setLayout(next);
  };
  const files = useLocalFiles();
  /** Files waiting for the member to choose their group. */
  const [choosing, setChoosing] = useState<File[] | null>(null);
  const [lastUsed, setLastUsed] = useState<string | null>(null);
  // Read again with the library: another save (the menu, the keyboard) may have changed it.
  useEffect(() => {
    void lastUsedGroup.id().then((id) => mounted.current && setLastUsed(id));
  }, [data]);

  /** `whenStale`: on open, skip when the library was refreshed a moment ago. */
  async function refresh(whenStale = false) {
    const connected = await connectedClient();
    if (!connected || !mounted.current) return;
    setSync({ state: 'refreshing' });
    try {
      await (whenStale ? refreshLibraryIfStale(connected.client) : refreshLibrary(connected.client));
      setSync({ state: 'idle' });
    } catch (error) {
      if (error instanceof ApiError && error.failure.kind === 'network') setSync({ state: 'offline' });
      else setSync({ state: 'failed', message: (await problemOf(error)).message });
    }
  }

  useEffect(() => void refresh(true), []);

  useEffect(() => {
    const target = focusNext.current && document.getElementById(focusNext.current);
    if (!target) return;
    target.focus();
    focusNext.current = null;
  });

  const groups = data?.groups ?? [];
  const assets = data?.assets ?? [];
  const group = groupId ? groups.find((g) => g.id === groupId) : undefined;
  // The selected group was deleted (here or elsewhere): back to the groups. (A group just created
  // may not be read yet: only one that was shown counts as gone.)
  const seen = useRef<string | null>(null);
  if (group) seen.current = group.id;
  useEffect(() => {
    if (groupId && !group && seen.current === groupId) dispatch({ type: 'groupGone' });
  }, [groupId, group]);

  const groupsById = useMemo(() => new Map(groups.map((g) => [g.id, g])), [groups]);
  const counts = useMemo(() => countByGroup(assets), [assets]);
  const query = { groupId: group ? group.id : null, search, status };
  const narrowed = isNarrowed(query);
  const shown = useMemo(() => (group || narrowed ? filterAssets(assets, query) : []), [assets, group?.id, search, status]);
  const opened = openId ? assets.find((a) => a.localId === openId) : undefined;
  const tiles = useDeferred(gridTiles, layout === 'grid' && (group !== undefined || narrowed));
  const [filesWanted, setFilesWanted] = useState(false);
  const filesUi = useDeferred(filesPart, filesWanted || files.reads.length > 0 || choosing !== null);
  const fileInput = useRef<HTMLInputElement>(null);
  /** "Add files…" was clicked before the picker was there: it opens once it is. */
  const picking = useRef(false);
  useEffect(() => {
    if (!picking.current || !filesUi.module || !fileInput.current) return;
    picking.current = false;
    fileInput.current.click();
  });
  // Loaded here, not in a wrapper, so that this view renders again when it arrives and the focus
  // moves to the asset's title.
  const detail = useDeferred(assetDetail, opened !== undefined);

  if (!data) return <div class="library" aria-busy="true" />;

  /** Files into a group: shown there, each as its item once read. */
  const addFiles = (target: string, list: File[]) => {
    setChoosing(null);
    setLastUsed(target);
    if (target !== groupId || openId) go({ groupId: target, openId: null }, 'library-group-title');
    void files.add(target, list);
  };
  /** Dropped on a group's row (`row`), or anywhere else / picked (null): see dropGroup. */
  const receiveFiles = (list: File[], row: string | null) => {
    const target = dropGroup({ row, open: group?.id ?? null, lastUsed }, groups);
    if (target) addFiles(target, list);
    else setChoosing(list);
  };
  const fileTarget = dropGroup({ row: null, open: group?.id ?? null, lastUsed }, groups);
  const wantFiles = () => setFilesWanted(true);
  const pickFiles = () => {
    if (fileInput.current) return fileInput.current.click();
    picking.current = true;
    wantFiles();
  };
  const withDrop = (content: ComponentChildren) => (
    <FileDrop targetName={fileTarget ? (groupsById.get(fileTarget)?.name ?? null) : null} groupName={(id) => groupsById.get(id)?.name} onFiles={receiveFiles} onDragStart={wantFiles}>
      {content}
    </FileDrop>
  );
  const filesModule = filesUi.module;
  const fileParts = (
    <>
      {filesModule && <filesModule.FileInput inputRef={fileInput} onFiles={(list) => receiveFiles(list, null)} />}
      {choosing && filesModule && (
        <filesModule.GroupPicker count={choosing.length} groups={fileGroups(groups)} onPick={(id) => addFiles(id, choosing)} onCancel={() => setChoosing(null)} />
      )}
      {files.notices.length > 0 && (
        <Banner tone="error">
          {files.notices.map((message, i) => (
            <p key={i}>{message}</p>
          ))}
        </Banner>
      )}
      {filesModule && <filesModule.FileReads reads={files.reads} />}
    </>
  );

  /** To another screen, then focus goes to `focus` (an element id). */
  const go = (to: Extract<LibraryViewAction, { type: 'go' }>['to'], focus: string) => {
    focusNext.current = focus;
    dispatch({ type: 'go', to });
  };

  async function removeGroup(target: GroupRecord) {
    dispatch({ type: 'deleteStarted' });
    const connected = await connectedClient();
    if (!connected) return dispatch({ type: 'deleteNotSent', problem: notConnected() });
    const result = await deleteGroup(connected.client, target).catch((error: unknown) => ({ ok: false as const, problem: describeFailure(error) }));
    if (!result.ok) return dispatch({ type: 'deleteFailed', problem: result.problem });
    focusNext.current = 'library-groups';
    dispatch({ type: 'deleted', notice: t('library.group.deleted', { name: target.name }) });
  }

  const statusLine = (
    <div class="library__sync" role="status">
      {sync.state === 'refreshing' && t('app.refreshing')}
      {sync.state === 'offline' && t('app.offline')}
      {sync.state === 'failed' && t('library.refreshFailed', { message: sync.message })}
    </div>
  );
  const banners = (
    <>
      {problem && (
        <Banner tone="error">
          <p>{problem.message}</p>
        </Banner>
      )}
      {notice && (
        <Banner tone="success">
          <p>{notice}</p>
        </Banner>
      )}
    </>
  );

  if (opened) {
    return withDrop(
      <div class="library">
        {statusLine}
        {detail.module ? (
          <detail.module.AssetDetail
            key={opened.localId}
            asset={opened}
            group={groupsById.get(opened.groupId)}
            onClose={() => go({ openId: null }, 'library-assets')}
            onUse={
              onUseInGenerate &&
              (() => {
                detail.module!.addAssetToDraft(opened);
                onUseInGenerate();
              })
            }
          />
        ) : (
          <PartPending failed={detail.failed} onRetry={detail.retry} />
        )}
        {fileParts}
      </div>,
    );
  }

  const filters = (
    <div class="library__filters">
      <div class="library__search">
        <label for="library-search">{t(group ? 'library.searchGroup' : 'library.searchAll')}</label>
        <input id="library-search" type="search" autoComplete="off" value={search} onInput={(e) => dispatch({ type: 'search', search: e.currentTarget.value })} />
      </div>
      <div class="library__status">
        <label for="library-status">{t('library.statusFilter')}</label>
        <select id="library-status" value={status} onChange={(e) => dispatch({ type: 'status', status: e.currentTarget.value as StatusFilter })}>
          {STATUS_FILTERS.map((s) => (
            <option key={s} value={s}>
              {t(`library.filter.${s}`)}
            </option>
          ))}
        </select>
      </div>
    </div>
  );

  const grid = layout === 'grid';
  const assetList = (
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
        onOpen={(a) => go({ openId: a.localId }, 'library-asset-title')}
        empty={<p class="muted">{narrowed ? t('library.noMatch') : t('library.emptyGroup')}</p>}
      />
    </>
  );

  if (group) {
    const person = group.type === 'LivenessFace';
    return withDrop(
      <div class="library">
        {statusLine}
        <div class="library__bar">
          <button type="button" class="link" onClick={() => go({ groupId: null }, 'library-groups')}>
            {t('library.allGroups')}
          </button>
        </div>
        <h2 id="library-group-title" tabIndex={-1}>
          {group.name} <TypeBadge type={group.type} />
        </h2>
        {group.description && <p class="library__description">{group.description}</p>}
        {banners}
        {form === 'edit' ? (
          <GroupForm
            group={group}
            onDone={() => go({}, 'library-group-title')}
            onCancel={() => go({}, 'library-group-title')}
            onProblem={setProblem}
          />
        ) : confirming ? (
          <Confirm id="library-group-delete" busy={deleting} onConfirm={() => void removeGroup(group)} onCancel={() => go({}, 'library-group-title')}>
            <p>{t('common.confirmDelete', { name: group.name })}</p>
            <p>{t(person ? 'library.group.deletePersonWarning' : 'library.group.deleteWarning', { count: counts.get(group.id) ?? 0 })}</p>
          </Confirm>
        ) : (
          <div class="actions">
            <button type="button" onClick={() => dispatch({ type: 'edit' })}>
              {t('library.group.edit')}
            </button>
            <button type="button" class="danger" onClick={() => dispatch({ type: 'confirmDelete' })}>
              {t('library.group.delete')}
            </button>
            {!person && <AddFilesButton onIntent={wantFiles} onPick={pickFiles} />}
          </div>
        )}
        <p class="muted">{person ? t('library.group.personHint') : `${t('library.group.addHint')} ${t('files.dropHint')}`}</p>
        {fileParts}
        {filters}
        {assetList}
      </div>,
    );
  }

  return withDrop(
    <div class="library">
      {statusLine}
      <div class="library__bar">
        <h2 id="library-title">{t('library.groups')}</h2>
        <span class="library__tools">
          <AddFilesButton onIntent={wantFiles} onPick={pickFiles} />
          <button type="button" onClick={() => void refresh()} disabled={sync.state === 'refreshing'}>
            {t('library.refresh')}
          </button>
          {form !== 'new' && (
            <button type="button" class="primary" onClick={() => go({ form: 'new' }, '')}>
              {t('library.group.new')}
            </button>
          )}
        </span>
      </div>
      {banners}
      {fileParts}
      {form === 'new' && (
        <GroupForm
          onDone={(created) => go({ groupId: created.id }, 'library-group-title')}
          onCancel={() => go({}, 'library-groups')}
          onProblem={setProblem}
        />
      )}
      {filters}
      {narrowed ? (
        assetList
      ) : (
        <VirtualList
          id="library-groups"
          label={t('library.groups')}
          items={groups}
          getKey={(g) => g.id}
          rowHeight={GROUP_ROW_HEIGHT}
          height={Math.min(LIST_HEIGHT, Math.max(groups.length, 1) * GROUP_ROW_HEIGHT)}
          renderRow={(g) => <GroupRow group={g} count={counts.get(g.id) ?? 0} />}
          itemProps={(g): Record<string, string> => (g.type === 'LivenessFace' ? {} : { [DROP_GROUP]: g.id })}
          onOpen={(g) => go({ groupId: g.id }, 'library-group-title')}
          empty={<p class="muted">{t('library.noGroups')}</p>}
        />
      )}
    </div>,
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

function GroupRow({ group, count }: { group: GroupRecord; count: number }) {
  return (
    <div class="row">
      <span class="row__main">
        <span class="row__name" title={group.name}>
          {group.name}
        </span>
        <TypeBadge type={group.type} />
      </span>
      <span class="row__count">{t('library.assetCount', { count })}</span>
    </div>
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
