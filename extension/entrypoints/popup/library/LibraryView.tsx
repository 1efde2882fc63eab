import { useEffect, useMemo, useReducer, useRef, useState } from 'preact/hooks';
import type { AssetType } from '@@/shared';
import { Banner } from '@/components/Banner';
import { deferred, PartPending, useDeferred } from '@/entrypoints/popup/deferred';
import { Confirm } from '@/entrypoints/popup/library/Confirm';
import { AddFilesButton } from '@/entrypoints/popup/library/FileDrop';
import { GroupList } from '@/entrypoints/popup/library/GroupList';
import { LibraryAssets, LibraryFilters } from '@/entrypoints/popup/library/LibraryAssets';
import { initialLibraryView, type LibraryViewAction, libraryViewReducer, type Sync } from '@/entrypoints/popup/library/library-view-state';
import { SearchFacets } from '@/entrypoints/popup/library/SearchFacets';
import { RoleBadge, TypeBadge } from '@/entrypoints/popup/library/StatusChips';
import { useLibraryFiles } from '@/entrypoints/popup/library/use-library-files';
import { useLibrarySearch } from '@/entrypoints/popup/library/use-library-search';
import { t } from '@/lib/i18n/translate';
import { accessOf, canAddTo, canEditAssets, canManage } from '@/lib/library/group-access';
import { countByGroup, isNarrowed, readLibrary } from '@/lib/library/library-view-model';
import { afterFirstPaint, useFirstPaintMark } from '@/lib/popup/first-paint';
import { useDb } from '@/lib/popup/use-db';
import type { Problem } from '@/lib/proxy/failure-message';
import type { GroupRecord } from '@/lib/storage/records/group-record';
import '@/entrypoints/popup/library/library.css';

/**
 * An asset's detail (preview, readiness, rename, delete): a chunk loaded when one is opened, with
 * what "Use in Generate" needs (the Generate form's rules).
 */
const assetDetail = deferred(() => import('@/entrypoints/popup/library/AssetDetail'));
/** The share dialog of a group the member owns: a chunk loaded on intent ("Share…" hovered, focused or clicked). */
const shareDialog = deferred(() => import('@/entrypoints/popup/library/ShareDialog'));
const preloadShare = () => void shareDialog.load().catch(() => {});
/**
 * What talks to the proxy (the refresh, a group's deletion, the group form), with the proxy client
 * and the library's schemas: a chunk the refresh loads once the tab has painted from IndexedDB
 * (library-remote), so the first paint waits for none of it.
 */
const remote = deferred(() => import('@/entrypoints/popup/library/library-remote'));

/**
 * The Library tab: groups, then the assets of one group (or, while searching or filtering, of all
 * groups), then one asset. The first paint is IndexedDB's; a refresh runs in the background and
 * never blanks what is shown.
 */
interface LibraryViewProps {
  /** Shows Generate after an asset was added to its form ("Use in Generate"). */
  onUseInGenerate?: () => void;
  /** An asset to show at once (the side panel's "Open the existing one"). */
  openAsset?: string;
}

export function LibraryView({ onUseInGenerate, openAsset }: LibraryViewProps = {}) {
  const data = useDb(readLibrary, ['groups', 'assets']);
  useFirstPaintMark(data !== undefined);
  const [view, dispatch] = useReducer(libraryViewReducer, initialLibraryView);
  const { sync, groupId, openId, search, status, form, confirming, deleting, problem, notice } = view;
  const setSync = (next: Sync) => dispatch({ type: 'sync', sync: next });
  const setProblem = (next: Problem | null) => dispatch({ type: 'problem', problem: next });
  /** Where focus goes after a screen change (an element id). */
  const focusNext = useRef<string | null>(null);
  /** To another screen, then focus goes to `focus` (an element id). */
  const go = (to: Extract<LibraryViewAction, { type: 'go' }>['to'], focus: string) => {
    focusNext.current = focus;
    dispatch({ type: 'go', to });
  };

  const mounted = useRef(true);
  useEffect(() => () => void (mounted.current = false), []);

  /** `whenStale`: on open, skip when the library was refreshed a moment ago. */
  async function refresh(whenStale = false) {
    const { refreshFromProxy } = await remote.load();
    const next = await refreshFromProxy(whenStale, () => {
      if (!mounted.current) return false;
      setSync({ state: 'refreshing' });
      return true;
    });
    if (next) setSync(next);
  }

  // Once the saved library is painted (the proxy's chunk is loaded then, not before).
  const painted = data !== undefined;
  useEffect(() => {
    if (painted) afterFirstPaint(() => void refresh(true).catch(() => {}));
  }, [painted]);
  useEffect(() => {
    if (openAsset) go({ openId: openAsset }, 'library-asset-title');
  }, [openAsset]);

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
  // The search's own filters (type; group, over all groups), beside the view's text and status.
  const [type, setType] = useState<AssetType | 'all'>('all');
  const [searchGroupId, setSearchGroupId] = useState<string | null>(null);
  const query = { groupId: group ? group.id : null, search, status };
  const narrowed = isNarrowed(query) || type !== 'all' || (!group && searchGroupId !== null);
  const shown = useLibrarySearch(assets, groups, { text: search, status, type, groupId: group ? group.id : searchGroupId }, Boolean(group) || narrowed);
  const opened = openId ? assets.find((a) => a.localId === openId) : undefined;
  const { withDrop, fileParts, wantFiles, pickFiles } = useLibraryFiles({
    groups,
    groupsById,
    openGroupId: group?.id ?? null,
    library: data,
    // Files go to a group: it is shown, with its items as they are read.
    onAdding: (target) => {
      if (target !== groupId || openId) go({ groupId: target, openId: null }, 'library-group-title');
    },
    onOpenAsset: (localId) => go({ openId: localId }, 'library-asset-title'),
  });
  // Loaded here, not in a wrapper, so that this view renders again when it arrives and the focus
  // moves to the asset's title.
  const detail = useDeferred(assetDetail, opened !== undefined);
  const share = useDeferred(shareDialog, form === 'share');
  // Loaded by the refresh already, unless its chunk failed to load.
  const forms = useDeferred(remote, form === 'new' || form === 'edit');

  if (!data) return <div class="library" aria-busy="true" />;

  async function removeGroup(target: GroupRecord) {
    dispatch({ type: 'deleteStarted' });
    const next = await remote
      .load()
      .then(({ deleteGroupOnProxy }) => deleteGroupOnProxy(target))
      .catch((): LibraryViewAction => ({ type: 'deleteFailed', problem: { message: t('app.partNotLoaded') } }));
    if (next.type === 'deleted') focusNext.current = 'library-groups';
    dispatch(next);
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
    <LibraryFilters
      group={group}
      search={search}
      status={status}
      onSearch={(next) => dispatch({ type: 'search', search: next })}
      onStatus={(next) => dispatch({ type: 'status', status: next })}
    />
  );
  const facets = <SearchFacets type={type} onType={setType} groupId={searchGroupId} onGroup={setSearchGroupId} {...(group ? {} : { groups })} />;
  const assetList = <LibraryAssets group={group} shown={shown} narrowed={narrowed} groupsById={groupsById} onOpen={(a) => go({ openId: a.localId }, 'library-asset-title')} />;

  if (group) {
    const person = group.type === 'LivenessFace';
    // What the member's role allows (group-access): a viewer changes nothing, an editor all but the
    // group's deletion and sharing.
    const access = accessOf(group);
    const owner = group.owner?.name ?? '';
    const hint =
      access === 'viewer'
        ? t('library.group.viewerHint', { name: owner })
        : person
          ? t('library.group.personHint')
          : `${access === 'editor' ? `${t('library.group.editorHint', { name: owner })} ` : ''}${t('library.group.addHint')} ${t('files.dropHint')}`;
    return withDrop(
      <div class="library">
        {statusLine}
        <div class="library__bar">
          <button type="button" class="link" onClick={() => go({ groupId: null }, 'library-groups')}>
            {t('library.allGroups')}
          </button>
        </div>
        <h2 id="library-group-title" tabIndex={-1}>
          {group.name} <TypeBadge type={group.type} /> <RoleBadge group={group} />
        </h2>
        {group.owner && access !== 'owner' && <p class="muted">{t('library.sharedBy', { name: owner })}</p>}
        {group.description && <p class="library__description">{group.description}</p>}
        {banners}
        {form === 'edit' ? (
          forms.module ? (
            <forms.module.GroupForm
              group={group}
              onDone={() => go({}, 'library-group-title')}
              onCancel={() => go({}, 'library-group-title')}
              onProblem={setProblem}
            />
          ) : (
            <PartPending failed={forms.failed} onRetry={forms.retry} />
          )
        ) : form === 'share' ? (
          share.module ? (
            <share.module.ShareDialog group={group} onClose={() => go({}, 'library-group-share')} />
          ) : (
            <PartPending failed={share.failed} onRetry={share.retry} />
          )
        ) : confirming ? (
          <Confirm id="library-group-delete" busy={deleting} onConfirm={() => void removeGroup(group)} onCancel={() => go({}, 'library-group-title')}>
            <p>{t('common.confirmDelete', { name: group.name })}</p>
            <p>{t(person ? 'library.group.deletePersonWarning' : 'library.group.deleteWarning', { count: counts.get(group.id) ?? 0 })}</p>
          </Confirm>
        ) : (
          <div class="actions">
            {canEditAssets(group) && (
              <button type="button" onClick={() => dispatch({ type: 'edit' })}>
                {t('library.group.edit')}
              </button>
            )}
            {canManage(group) && (
              <button type="button" id="library-group-share" onClick={() => dispatch({ type: 'share' })} onPointerEnter={preloadShare} onFocus={preloadShare}>
                {t('library.group.share')}
              </button>
            )}
            {canManage(group) && (
              <button type="button" class="danger" onClick={() => dispatch({ type: 'confirmDelete' })}>
                {t('library.group.delete')}
              </button>
            )}
            {canAddTo(group) && <AddFilesButton onIntent={wantFiles} onPick={pickFiles} />}
          </div>
        )}
        <p class="muted">{hint}</p>
        {fileParts}
        {filters}
        {facets}
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
      {form === 'new' &&
        (forms.module ? (
          <forms.module.GroupForm
            onDone={(created) => go({ groupId: created.id }, 'library-group-title')}
            onCancel={() => go({}, 'library-groups')}
            onProblem={setProblem}
          />
        ) : (
          <PartPending failed={forms.failed} onRetry={forms.retry} />
        ))}
      {filters}
      {facets}
      {narrowed ? (
        assetList
      ) : (
        <GroupList groups={groups} counts={counts} onOpen={(g) => go({ groupId: g.id }, 'library-group-title')} />
      )}
    </div>,
  );
}
