import { browser, type Browser } from 'wxt/browser';
import type { AssetType } from '../../../shared';
import { ProxyClient } from '../api/client';
import { ApiError } from '../api/errors';
import { addToLibrary } from '../capture/add-to-library';
import { chooseName } from '../capture/choose-name';
import { pickSource } from '../capture/pick-source';
import { checkMediaUrl } from '../capture/url-rules';
import { getConnection } from '../connection';
import { announceChange, db, newLocalId } from '../db';
import type { AddItemReply, AddItemRequest } from '../messages';
import { groupOfItem, itemOf, MENU } from '../menus';
import { notify } from '../notify';
import { probeElement } from './probe';
import { refreshMenus } from './refresh-menus';
import { resetBackoff, syncSoon } from './sync';
import { t } from '../i18n';

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

/** The default group: created on first use ("Web captures"), remembered in settings. */
async function createDefaultGroup(client: ProxyClient): Promise<string> {
  const database = await db();
  // A second click before the menu was rebuilt: the default group exists already.
  const known = (await database.get('settings', 'defaultGroupId')) as string | undefined;
  if (known && (await database.get('groups', known))) return known;
  const keyName = 'defaultGroupKey';
  const key = ((await database.get('settings', keyName)) as string | undefined) ?? newLocalId();
  await database.put('settings', key, keyName); // the same key on a retry: never two default groups
  const [Name, Description] = [t('capture.defaultGroup.name'), t('capture.defaultGroup.description')];
  const { Id } = await client.library('CreateAssetGroup', { Name, Description }, { idempotencyKey: key });
  await database.put('groups', { id: Id, name: Name, description: Description, type: 'AIGC', usedAt: Date.now() });
  await database.put('settings', Id, 'defaultGroupId');
  // Created: a later default group (after this one was deleted) needs a new key, not a replay of this one.
  await database.delete('settings', keyName);
  return Id;
}

/**
 * The context menu's click handler: check the address, choose the best source and a name, guard
 * against duplicates, record and queue the create, and start syncing.
 */
export async function onMenuClick(info: Browser.contextMenus.OnClickData, tab?: Browser.tabs.Tab): Promise<void> {
  const item = itemOf(info.menuItemId);
  const connection = await getConnection();
  if (!connection || connection.needsReconnect || item === MENU.connect) {
    await notify('arkbridge-connect', t('notify.connect.title'), t('notify.connect.message'));
    await browser.runtime.openOptionsPage();
    return;
  }
  // "Add linked media" adds the link's target, even when the link wraps an image (whose
  // mediaType and srcUrl the click also reports).
  const fromLink = String(info.menuItemId).startsWith(`${MENU.link}/`);
  const type = kindOf(fromLink ? { linkUrl: info.linkUrl } : info);
  if (!type) {
    await notify('arkbridge-kind', t('notify.kind.title'), t('notify.kind.message'));
    return;
  }
  const srcUrl = fromLink ? info.linkUrl : (info.srcUrl ?? info.linkUrl);
  const probe = !fromLink && info.srcUrl ? await probeElement(tab?.id, info.frameId, info.srcUrl) : undefined;
  // A relative srcset is relative to the document holding the element (a frame's, in a frame).
  const url = pickSource(srcUrl, probe, info.frameUrl ?? info.pageUrl ?? '');
  const verdict = checkMediaUrl(url, connection.allowHttpMedia);
  if (!verdict.ok) {
    await notify('arkbridge-url', t('notify.url.title'), `${verdict.reason} ${verdict.advice}`);
    return;
  }
  const name = chooseName({ alt: probe?.alt, title: probe?.title, url: verdict.url, pageTitle: tab?.title, kind: type });

  if (item === MENU.newGroup) {
    const params = new URLSearchParams({ url: verdict.url, name, type });
    await browser.windows.create({ url: browser.runtime.getURL(`/newgroup.html?${params}`), type: 'popup', width: 420, height: 460 });
    return;
  }
  let groupId = groupOfItem(item);
  if (!groupId) {
    try {
      groupId = await createDefaultGroup(new ProxyClient(connection));
    } catch (error) {
      const message = error instanceof ApiError ? error.failure.message : t('notify.unexpected');
      await notify('arkbridge-group', t('notify.group.title'), message);
      return;
    }
  }
  await addAsset({ groupId, url: verdict.url, name, type });
}

/**
 * Adds an item to a group (from the menu or the new-group page). A duplicate is not created again;
 * the member is told, and the answer says so (the new-group page shows it).
 */
export async function addAsset(request: AddItemRequest): Promise<AddItemReply> {
  const outcome = await addToLibrary(request);
  if (outcome.kind === 'duplicate') {
    const group = await (await db()).get('groups', request.groupId);
    const params = { name: outcome.record.name, group: group?.name ?? t('notify.duplicate.thisGroup') };
    const message = t(outcome.record.status === 'Active' ? 'notify.duplicate.active' : 'notify.duplicate.pending', params);
    await notify(`dup-${outcome.record.localId}`, t('notify.duplicate.title'), message);
    return { ok: false, message };
  }
  announceChange('assets', 'queue', 'groups');
  await resetBackoff();
  await refreshMenus();
  void syncSoon();
  return { ok: true };
}
