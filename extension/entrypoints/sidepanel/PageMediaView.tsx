import { useEffect, useMemo, useState } from 'preact/hooks';
import type { AssetType } from '@@/shared';
import { Banner } from '@/components/Banner';
import { DuplicateWarning } from '@/components/DuplicateWarning';
import { AccessPrompt } from '@/entrypoints/sidepanel/AccessPrompt';
import { MediaFilters } from '@/entrypoints/sidepanel/MediaFilters';
import { MediaTile } from '@/entrypoints/sidepanel/MediaTile';
import { SaveBar } from '@/entrypoints/sidepanel/SaveBar';
import { useFollowedTab } from '@/entrypoints/sidepanel/use-followed-tab';
import { useLibraryMarks } from '@/entrypoints/sidepanel/use-library-marks';
import { usePageMedia } from '@/entrypoints/sidepanel/use-page-media';
import { nameSourceOf, planFromUrl } from '@/lib/capture/capture-plan';
import { chooseName } from '@/lib/capture/choose-name';
import { t } from '@/lib/i18n/translate';
import { sendToBackground, type SavePageMediaReply, type SavePageMediaResult } from '@/lib/messaging/extension-messages';
import type { PageMediaType } from '@/lib/page-media/collect-page-media';
import { ALL_MEDIA, filterMedia, formatsIn, type MediaFilter } from '@/lib/page-media/media-filter';
import type { PageMediaItem } from '@/lib/page-media/page-media-items';
import { saveBatches } from '@/lib/page-media/save-batches';
import { saveStatusOf } from '@/lib/page-media/save-status';
import { useDb } from '@/lib/popup/use-db';
import { assetStore } from '@/lib/storage/asset-store';
import { canAddTo } from '@/lib/library/group-access';
import { groupStore } from '@/lib/storage/group-store';
import { lastUsedGroup } from '@/lib/storage/last-used-group';
import type { AssetRecord } from '@/lib/storage/records/asset-record';
import type { NearDuplicate } from '@/lib/saving/near-duplicate-check';
import '@/lib/i18n/sidepanel.en';

const ASSET_TYPE: Record<PageMediaType, AssetType> = { image: 'Image', video: 'Video', audio: 'Audio' };
type Size = { width: number; height: number };

/** Groups media can be saved to (not real-person ones), and the one to offer first: the last used, else the default. */
async function readSaveGroups() {
  const groups = (await groupStore.all()).filter(canAddTo);
  const ids = new Set(groups.map((g) => g.id));
  const preferred = [await lastUsedGroup.id(), await groupStore.defaultId()].find((id) => id && ids.has(id)) ?? groups[0]?.id ?? null;
  return { groups, preferred };
}

const readRecords = async (localIds: string[]): Promise<Map<string, AssetRecord>> => {
  const records = await Promise.all(localIds.map((id) => assetStore.get(id)));
  return new Map(records.flatMap((r) => (r ? [[r.localId, r] as const] : [])));
};

/** The name an item is saved under: the context menu's rule (alt, else file name, else page title). */
const nameOf = (item: PageMediaItem, pageTitle: string) =>
  chooseName({ alt: item.alt, url: nameSourceOf(planFromUrl(item.url, true)), pageTitle, kind: ASSET_TYPE[item.type] });

const NO_ITEMS: PageMediaItem[] = [];

/** A near duplicate the member is asked about before saving (Add anyway / Open the existing one). */
interface Asking {
  name: string;
  near: NearDuplicate;
  answer: (choice: 'add' | 'open') => void;
}

interface PageMediaViewProps {
  fixedTabId?: number;
  /** The member chose to open an asset already in the library rather than save a near duplicate. */
  onOpenAsset?: (localId: string) => void;
}

/**
 * "Media on this page": the followed tab's media as a grid, filtered, selected and saved to a group
 * through the background (the context menu's path for each item), each item's status followed in
 * IndexedDB. Before saving, an item that nearly repeats one in the library (by pixels when the
 * panel may read them, else by address) is named in a warning: "Add anyway" or "Open the existing
 * one" (which saves nothing of it).
 */
export function PageMediaView({ fixedTabId, onOpenAsset }: PageMediaViewProps) {
  const followed = useFollowedTab(fixedTabId);
  const { read, reload } = usePageMedia(followed.tabId, followed.version);
  const [filter, setFilter] = useState<MediaFilter>(ALL_MEDIA);
  const inLibrary = useLibraryMarks(read?.ok ? read.items : NO_ITEMS);
  const [asking, setAsking] = useState<Asking | null>(null);
  /** The chosen items are being compared with the library (hashed), before anything is saved. */
  const [checking, setChecking] = useState(false);
  const [sizes, setSizes] = useState<ReadonlyMap<string, Size>>(new Map());
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [results, setResults] = useState<ReadonlyMap<string, SavePageMediaResult | null>>(new Map());
  const [chosenGroup, setChosenGroup] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState('');
  const saveGroups = useDb(readSaveGroups, ['groups', 'settings']);
  const localIds = [...results.values()].flatMap((r) => (r?.localId ? [r.localId] : []));
  const records = useDb(() => readRecords(localIds), ['assets'], [localIds.join(' ')]);

  useEffect(() => {
    setSelected(new Set());
    setNote('');
  }, [followed.tabId]);

  const items = read?.ok ? read.items : [];
  const shown = useMemo(() => filterMedia(items, filter, sizes), [items, filter, sizes]);
  const formats = useMemo(() => formatsIn(items), [items]);
  const savable = shown.filter((i) => i.tooLarge === undefined);
  const chosen = savable.filter((i) => selected.has(i.url));
  const groups = saveGroups?.groups ?? [];
  const groupId = groups.some((g) => g.id === chosenGroup) ? chosenGroup! : (saveGroups?.preferred ?? '');

  if (followed.tabId === null) return <p>{t('sidepanel.media.noTab')}</p>;
  if (!read) {
    return (
      <p class="pm-hint" role="status" aria-busy="true">
        {t('sidepanel.media.reading')}
      </p>
    );
  }
  if (!read.ok) return <AccessPrompt reason={read.reason} origin={read.origin} onGranted={reload} />;

  const select = (urls: string[], on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      for (const url of urls) on ? next.add(url) : next.delete(url);
      return next;
    });
  const measured = (url: string, width: number, height: number) => {
    if (width > 0 && height > 0) setSizes((prev) => (prev.has(url) ? prev : new Map(prev).set(url, { width, height })));
  };
  const save = async () => {
    const group = groups.find((g) => g.id === groupId);
    if (!group || !chosen.length || followed.tabId == null) return;
    const tabId = followed.tabId;
    setBusy(true);
    setNote('');
    const { toSave, open } = await askAboutNearDuplicates(chosen, group.id);
    setResults((prev) => new Map([...prev, ...toSave.map((i) => [i.url, null] as const)]));
    let sent = 0;
    for (const batch of saveBatches(toSave)) {
      const items = batch.map((i) => ({ url: i.url, type: ASSET_TYPE[i.type], name: nameOf(i, read.title), frameId: i.frameId }));
      let answers: SavePageMediaResult[];
      try {
        answers = (await sendToBackground<SavePageMediaReply>({ type: 'arkbridge:save-page-media', groupId: group.id, tabId, items })).results;
      } catch (error) {
        answers = batch.map(() => ({ ok: false, message: (error as Error).message }));
      }
      sent += answers.filter((a) => a.ok).length;
      setResults((prev) => new Map([...prev, ...batch.map((i, k) => [i.url, answers[k] ?? { ok: false as const, message: '' }] as const)]));
    }
    setSelected(new Set());
    if (toSave.length) setNote(t('sidepanel.save.sent', { count: sent, group: group.name }));
    setBusy(false);
    if (open) onOpenAsset?.(open);
  };
  /**
   * The chosen items' near duplicates (saving/near-duplicate-check, loaded with the first save), the
   * member asked about each in turn: what to save, and the existing asset to open (the last chosen).
   */
  const askAboutNearDuplicates = async (items: PageMediaItem[], groupId: string): Promise<{ toSave: PageMediaItem[]; open: string | null }> => {
    let nears: (NearDuplicate | null)[];
    setChecking(true);
    try {
      const { pageItemsNearDuplicates } = await import('@/lib/saving/near-duplicate-check');
      nears = await pageItemsNearDuplicates(items.map((i) => ({ url: i.url, type: ASSET_TYPE[i.type] })), groupId);
    } catch {
      // The check could not run (its part did not load): saved as before, the duplicate guard still applies.
      return { toSave: items, open: null };
    } finally {
      setChecking(false);
    }
    const toSave: PageMediaItem[] = [];
    let open: string | null = null;
    for (const [index, item] of items.entries()) {
      const near = nears[index];
      const choice = near ? await new Promise<'add' | 'open'>((resolve) => setAsking({ name: nameOf(item, read.title), near, answer: resolve })) : 'add';
      setAsking(null);
      if (choice === 'add') toSave.push(item);
      else open = near!.match.asset.localId;
    }
    return { toSave, open };
  };

  return (
    <div class="page-media">
      <div class="pm-head">
        <h2>{t('sidepanel.media.heading')}</h2>
        <button type="button" onClick={reload}>
          {t('sidepanel.media.refresh')}
        </button>
      </div>
      <MediaFilters filter={filter} formats={formats} onChange={setFilter} />
      <div class="pm-bar">
        <p id="pm-count" role="status">
          {t('sidepanel.filter.shown', { shown: shown.length, total: items.length })}
        </p>
        <button type="button" disabled={!savable.length} onClick={() => select(savable.map((i) => i.url), true)}>
          {t('sidepanel.select.all')}
        </button>
        <button type="button" disabled={!selected.size} onClick={() => setSelected(new Set())}>
          {t('sidepanel.select.clear')}
        </button>
        <span class="pm-selected">{t('sidepanel.select.count', { count: chosen.length })}</span>
      </div>
      <SaveBar groups={groups} groupId={groupId} count={chosen.length} busy={busy} onGroup={setChosenGroup} onSave={() => void save()} />
      {checking && (
        <p class="pm-hint" role="status" aria-busy="true">
          {t('sidepanel.save.checking')}
        </p>
      )}
      {asking && <DuplicateWarning name={asking.name} near={asking.near} onChoose={asking.answer} />}
      {note && <Banner tone="success">{note}</Banner>}
      {read.truncated && <p class="pm-hint">{t('sidepanel.media.truncated', { count: items.length })}</p>}
      {!items.length && <p class="pm-hint">{t('sidepanel.media.none')}</p>}
      <ul class="pm-grid" aria-label={t('sidepanel.media.list')}>
        {shown.map((item, index) => {
          const result = results.get(item.url);
          const size = item.width && item.height ? { width: item.width, height: item.height } : sizes.get(item.url);
          return (
            <MediaTile
              key={item.url}
              item={item}
              index={index}
              name={nameOf(item, read.title)}
              size={size}
              selected={selected.has(item.url)}
              status={results.has(item.url) ? saveStatusOf(result ?? undefined, result?.localId ? records?.get(result.localId) : undefined) : undefined}
              onToggle={(on) => select([item.url], on)}
              onMeasured={(w, h) => measured(item.url, w, h)}
              inLibrary={inLibrary(item.url)}
            />
          );
        })}
      </ul>
    </div>
  );
}
