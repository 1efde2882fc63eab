import { browser, type Browser } from 'wxt/browser';
import type { AssetType } from '@@/shared';
import { groupOfItem, itemOf, MENU } from '@/lib/background/context-menu';
import { defaultGroup } from '@/lib/background/default-group';
import { openPageMedia } from '@/lib/background/open-page-media';
import { refreshMenus } from '@/lib/background/refresh-menus';
import { isSnapshotItem, saveSnapshot } from '@/lib/background/snapshot-save';
import { nameSourceOf, planCapture } from '@/lib/capture/capture-plan';
import { chooseName } from '@/lib/capture/choose-name';
import { pickSource } from '@/lib/capture/pick-source';
import { probeElement } from '@/lib/capture/probe-element';
import { t } from '@/lib/i18n/translate';
import type { AddItemReply } from '@/lib/messaging/extension-messages';
import { notify } from '@/lib/messaging/notify';
import { resetBackoff, syncSoon } from '@/lib/messaging/sync-soon';
import { connectedClient } from '@/lib/proxy/connected-client';
import type { AddRequest } from '@/lib/saving/add-to-library';
import { stageUpload, type UploadItem, uploadToGroup } from '@/lib/saving/capture-upload';
import type { CapturePage } from '@/lib/saving/capture-source';
import { addHeldBytes, type HeldBytes } from '@/lib/saving/held-bytes';
import { hashOfAddress, nearDuplicateOf } from '@/lib/saving/near-duplicate-check';
import { recordItem } from '@/lib/saving/record-item';
import '@/lib/i18n/background.en';

const KINDS: Record<string, AssetType> = { image: 'Image', video: 'Video', audio: 'Audio' };
const LINK_KINDS: [RegExp, AssetType][] = [
  [/\.(jpe?g|png|webp|gif|bmp|tiff?|heic)(\?|#|$)/i, 'Image'],
  [/\.(mp4|mov|webm)(\?|#|$)/i, 'Video'],
  [/\.(mp3|wav|m4a|aac|ogg)(\?|#|$)/i, 'Audio'],
];

/** The asset type of what was clicked: the menu's media type, or a media link's file ending. */
export function kindOf(info: Pick<Browser.contextMenus.OnClickData, 'mediaType' | 'linkUrl'>): AssetType | null {
  if (info.mediaType && KINDS[info.mediaType]) return KINDS[info.mediaType]!;
  if (info.linkUrl) return LINK_KINDS.find(([pattern]) => pattern.test(info.linkUrl!))?.[1] ?? null;
  return null;
}

/**
 * The context menu's click handler: check the address, choose the best source and a name, guard
 * against duplicates, record and queue the create, and start syncing.
 */
export async function onMenuClick(info: Browser.contextMenus.OnClickData, tab?: Browser.tabs.Tab): Promise<void> {
  // Before any await: the browser opens the panel only while the click's gesture lasts.
  if (info.menuItemId === MENU.pageMedia) return openPageMedia(tab);
  const item = itemOf(info.menuItemId);
  const connected = await connectedClient();
  if (!connected || item === MENU.connect) {
    await notify('arkbridge-connect', t('notify.connect.title'), t('notify.connect.message'));
    await browser.runtime.openOptionsPage();
    return;
  }
  if (isSnapshotItem(info.menuItemId)) return saveSnapshot(info, tab, connected.client, addHeld);
  // "Add linked media" adds the link's target, even when the link wraps an image (whose
  // mediaType and srcUrl the click also reports).
  const fromLink = String(info.menuItemId).startsWith(`${MENU.link}/`);
  const type = kindOf(fromLink ? { linkUrl: info.linkUrl } : info);
  if (!type) {
    await notify('arkbridge-kind', t('notify.kind.title'), t('notify.kind.message'));
    return;
  }
  const media = await itemToAdd(
    {
      type,
      srcUrl: fromLink ? info.linkUrl : (info.srcUrl ?? info.linkUrl),
      tab,
      frameId: info.frameId,
      probe: !fromLink && Boolean(info.srcUrl),
      // A relative srcset is relative to the document holding the element (a frame's, in a frame).
      documentUrl: info.frameUrl ?? info.pageUrl ?? '',
    },
    connected.connection.allowHttpMedia,
  );
  if (!media) return;

  if (item === MENU.newGroup) {
    // An upload is read now, while the page is there; the new-group page adds it by its address.
    const staged = media.upload ? await stageUpload(media.upload) : null;
    if (staged && !staged.ok) return; // stageUpload said why
    const params = new URLSearchParams({ url: staged?.source ?? media.url, name: media.name, type: staged?.type ?? type });
    // Its provenance: the page it was right-clicked on.
    if (tab?.url) params.set('pageUrl', tab.url);
    if (tab?.title) params.set('pageTitle', tab.title);
    await browser.windows.create({ url: browser.runtime.getURL(`/newgroup.html?${params}`), type: 'popup', width: 420, height: 460 });
    return;
  }
  let groupId = groupOfItem(item);
  if (!groupId) {
    const created = await defaultGroup(connected.client);
    if (!created.ok) return notify('arkbridge-group', t('notify.group.title'), created.problem.message);
    groupId = created.value;
  }
  await addAsset({ groupId, ...media, page: pageOf(tab) });
}

/** The page a capture is made on (its provenance): the tab's address and title. */
export const pageOf = (tab: Browser.tabs.Tab | undefined): CapturePage | undefined => (tab ? { url: tab.url, title: tab.title } : undefined);

/** Media picked in a tab (a menu click, the keyboard save): what it is, its address, where it is shown. */
export interface PickedMedia {
  type: AssetType;
  /** Its address as the browser reports it (the menu's srcUrl, the element's currentSrc). */
  srcUrl: string | undefined;
  tab?: Browser.tabs.Tab;
  /** The frame showing it. */
  frameId?: number;
  /** Read the element's srcset, alt and title from the page (not for a link's target). */
  probe: boolean;
  /** The address of the document holding it: a relative srcset is relative to it. */
  documentUrl: string;
}

/** An item to add: linked (`capture`), or read from the page and uploaded (`upload`). */
export type ItemToAdd = Omit<AddRequest, 'groupId'> & { upload?: UploadItem };

/**
 * The item to add for picked media: its best source (the largest srcset candidate, else what the
 * browser shows), how it reaches the library (capture-plan: linked, or read in the page and
 * uploaded), and a name. When it cannot be added, tells the member why (a notification) and
 * answers null.
 */
export async function itemToAdd(picked: PickedMedia, allowHttp = false): Promise<ItemToAdd | null> {
  const probe = picked.probe && picked.srcUrl ? await probeElement(picked.tab?.id, picked.frameId, picked.srcUrl) : undefined;
  const url = pickSource(picked.srcUrl, probe, picked.documentUrl);
  // The page is read (checked without cookies, or read with them) in the frame showing the media.
  const tabId = picked.tab?.id;
  const target = tabId !== undefined && tabId >= 0 ? { tabId, frameId: picked.frameId } : undefined;
  const plan = await planCapture(url, allowHttp, target);
  if (plan.how === 'refuse') {
    await notify('arkbridge-url', t('notify.url.title'), `${plan.reason} ${plan.advice}`);
    return null;
  }
  const name = chooseName({ alt: probe?.alt, title: probe?.title, url: nameSourceOf(plan), pageTitle: picked.tab?.title, kind: picked.type });
  if (plan.how === 'upload') return { url: plan.url, name, type: picked.type, upload: { url: plan.url, reason: plan.reason, name, type: picked.type, target } };
  return { url: plan.url, name, type: picked.type, capture: { how: 'link' } };
}

/**
 * Adds an item to a group (from the menu, the new-group page, the keyboard save or the side panel).
 * A duplicate is not created again; the answer says so (the new-group page and the side panel show
 * it), and the member is told by a notification unless `tellDuplicate` is false (the side panel's
 * tile says it).
 */
export async function addAsset({ upload, ...request }: AddRequest & { upload?: UploadItem }, tellDuplicate = true): Promise<AddItemReply> {
  // The page is kept with whatever the upload path records (its provenance).
  const queue = (r: AddRequest) => queueAsset({ page: request.page, ...r }, tellDuplicate);
  // An upload is read from the page and checked first; recorded (as queueAsset does) once reading starts.
  return upload ? uploadToGroup(request.groupId, upload, queue) : queue(request);
}

/** Adds bytes the extension holds (a screenshot, a video frame) to a group, as addAsset does. */
export const addHeld = (groupId: string, held: HeldBytes, page?: CapturePage): Promise<AddItemReply> =>
  addHeldBytes(groupId, held, (request) => queueAsset({ page, ...request }));

/** Records and queues an item (record-item), then syncs; a duplicate is told (unless not `tell`) and answered. */
async function queueAsset(request: AddRequest, tell = true): Promise<AddItemReply> {
  // A linked image whose pixels the background may read (host access, or CORS-clean) is hashed too,
  // so the same picture at another address is found (bounded: hashOfAddress).
  if (request.type === 'Image' && request.capture?.how === 'link' && !request.pixelHash) {
    const pixelHash = await hashOfAddress(request.url);
    if (pixelHash) request = { ...request, pixelHash };
  }
  // A near duplicate elsewhere in the library (by pixels, else address): no dialog can be shown
  // before a right-click save, so it is saved and the member told where the other one is.
  const near = tell ? await nearDuplicateOf(request).catch(() => null) : null;
  const reply = await recordItem(request);
  if (!reply.ok) {
    if (tell && reply.duplicateOf) await notify(`dup-${reply.duplicateOf}`, t('notify.duplicate.title'), reply.message);
    return reply;
  }
  if (near) {
    const params = { name: request.name, existing: near.match.asset.name, group: near.groupName || t('notify.duplicate.thisGroup') };
    await notify(`near-${reply.localId ?? near.match.asset.localId}`, t('duplicate.notify.title'), t('duplicate.notify.message', params));
  }
  await resetBackoff();
  await refreshMenus();
  void syncSoon();
  return reply;
}
