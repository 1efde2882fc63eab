import { browser } from 'wxt/browser';
import { t } from '@/lib/i18n/translate';
import { canAddTo, isShared } from '@/lib/library/group-access';
import type { GroupRecord } from '@/lib/storage/records/group-record';
import '@/lib/i18n/background.en';
import '@/lib/i18n/snapshot.en';

/** Ids of the context menu's items. */
export const MENU = {
  media: 'arkbridge-media',
  link: 'arkbridge-link',
  newGroup: 'new-group',
  createDefault: 'create-default',
  connect: 'connect',
  /** On the page itself: opens the side panel's "Media on this page" (open-page-media). */
  pageMedia: 'arkbridge-page-media',
  /** On the page: a screenshot of the visible area, or of a region the member drags (lib/background/snapshot-save). */
  captureVisible: 'arkbridge-capture-visible',
  captureRegion: 'arkbridge-capture-region',
  /** On a video: the picture it shows. */
  captureFrame: 'arkbridge-capture-frame',
} as const;

const GROUP_PREFIX = 'group:';
export const RECENT_GROUPS = 5;

/** File endings of media links ("links whose target is a media file"). */
export const MEDIA_LINK_PATTERNS = ['jpg', 'jpeg', 'png', 'webp', 'gif', 'bmp', 'tif', 'tiff', 'heic', 'mp4', 'mov', 'webm', 'mp3', 'wav', 'm4a', 'aac', 'ogg']
  .flatMap((ext) => [`*://*/*.${ext}`, `*://*/*.${ext}?*`, `*://*/*.${ext.toUpperCase()}`]);

export interface MenuState {
  connected: boolean;
  groups: GroupRecord[];
  defaultGroupId: string | null;
}

/** Which group a submenu item (see itemOf) means, if any. */
export const groupOfItem = (item: string): string | null => (item.startsWith(GROUP_PREFIX) ? item.slice(GROUP_PREFIX.length) : null);

/** A group as the menu names it: a shared one with its owner's name ("Mia (character) — Ana"). */
const menuName = (group: GroupRecord): string => (isShared(group) ? t('menu.sharedGroup', { name: group.name, owner: group.owner?.name ?? '?' }) : group.name);

/**
 * The submenu for a state: the default group first, then recent groups, then the editor groups
 * others share that are not listed yet, then "New group…". Only groups the member may add to are
 * offered (canAddTo: their own virtual groups and those shared with them as an editor; never a
 * viewer's, never a real-person group).
 */
export function submenuItems(state: MenuState): { id: string; title: string }[] {
  if (!state.connected) return [{ id: MENU.connect, title: t('menu.connect') }];
  const byRecent = state.groups.filter(canAddTo).sort((a, b) => b.usedAt - a.usedAt || a.name.localeCompare(b.name));
  const fallback = byRecent.find((g) => !isShared(g)) ?? byRecent[0];
  const defaultGroup = byRecent.find((g) => g.id === state.defaultGroupId) ?? fallback;
  const items: { id: string; title: string }[] = [];
  if (defaultGroup) items.push({ id: `${GROUP_PREFIX}${defaultGroup.id}`, title: t('menu.defaultGroup', { name: menuName(defaultGroup) }) });
  else items.push({ id: MENU.createDefault, title: t('menu.createDefault') });
  const recent = byRecent.filter((g) => g.id !== defaultGroup?.id).slice(0, RECENT_GROUPS);
  const shared = byRecent.filter((g) => isShared(g) && g.id !== defaultGroup?.id && !recent.includes(g)).slice(0, RECENT_GROUPS);
  for (const group of [...recent, ...shared]) items.push({ id: `${GROUP_PREFIX}${group.id}`, title: menuName(group) });
  items.push({ id: MENU.newGroup, title: t('menu.newGroup') });
  return items;
}

let building: Promise<void> = Promise.resolve();

/**
 * Rebuilds the context menu from scratch (removeAll, then create), so repeated installs,
 * updates and group changes never leave duplicates behind. Rebuilds run one after another:
 * two interleaved ones would create the same ids twice.
 */
export function buildMenus(state: MenuState): Promise<void> {
  const next = building.catch(() => {}).then(() => rebuild(state));
  building = next;
  return next;
}

async function rebuild(state: MenuState): Promise<void> {
  await browser.contextMenus.removeAll();
  const roots = [
    { id: MENU.media, title: t('menu.addMedia'), contexts: ['image', 'video', 'audio'] as const },
    { id: MENU.link, title: t('menu.addLink'), contexts: ['link'] as const, targetUrlPatterns: MEDIA_LINK_PATTERNS },
  ];
  for (const root of roots) {
    browser.contextMenus.create({ id: root.id, title: root.title, contexts: [...root.contexts], ...(root.targetUrlPatterns ? { targetUrlPatterns: root.targetUrlPatterns } : {}) });
    for (const item of submenuItems(state)) {
      browser.contextMenus.create({ id: `${root.id}/${item.id}`, parentId: root.id, title: item.title, contexts: [...root.contexts] });
    }
  }
  // Shown connected or not: the panel itself says how to connect.
  browser.contextMenus.create({ id: MENU.pageMedia, title: t('menu.pageMedia'), contexts: ['page'] });
  // Captures, connected or not too: a click when not connected says to connect first (menu-click).
  browser.contextMenus.create({ id: MENU.captureVisible, title: t('snapshot.menu.visible'), contexts: ['page'] });
  browser.contextMenus.create({ id: MENU.captureRegion, title: t('snapshot.menu.region'), contexts: ['page'] });
  browser.contextMenus.create({ id: MENU.captureFrame, title: t('snapshot.menu.frame'), contexts: ['video'] });
}

/** The submenu item id without its root prefix (`arkbridge-media/new-group` -> `new-group`). */
export const itemOf = (menuItemId: string | number): string => String(menuItemId).split('/').slice(1).join('/');
