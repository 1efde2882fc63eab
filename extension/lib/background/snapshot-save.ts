import { browser, type Browser } from 'wxt/browser';
import { MENU } from '@/lib/background/context-menu';
import { quickSaveGroup } from '@/lib/background/default-group';
import { frameName, screenshotName } from '@/lib/capture/snapshot-names';
import { captureRegion, captureVisible } from '@/lib/capture/tab-capture';
import { captureVideoFrame } from '@/lib/capture/video-frame';
import { t } from '@/lib/i18n/translate';
import type { AddItemReply } from '@/lib/messaging/extension-messages';
import { notify } from '@/lib/messaging/notify';
import type { ProxyClient } from '@/lib/proxy/proxy-client';
import type { HeldBytes } from '@/lib/saving/held-bytes';
import '@/lib/i18n/background.en';
import '@/lib/i18n/snapshot.en';

/**
 * The context menu's "Capture visible area", "Capture a region…" and "Capture this frame": take the
 * picture, name it, and add it (menu-click's addHeld, passed in: this module is imported by it) to
 * the last used group, else the default group, saying where it went.
 */

/** The screenshots' own notification (each replaces the previous one). */
export const SNAPSHOT_NOTE = 'arkbridge-snapshot';

const SNAPSHOT_ITEMS: readonly string[] = [MENU.captureVisible, MENU.captureRegion, MENU.captureFrame];

/** Whether a menu item is one of the captures. */
export const isSnapshotItem = (menuItemId: string | number): boolean => SNAPSHOT_ITEMS.includes(String(menuItemId));

type AddHeld = (groupId: string, held: HeldBytes, page?: { url?: string; title?: string }) => Promise<AddItemReply>;

/** A picture taken, named, with why it is uploaded; or why there is none. */
type Taken = { ok: true; bytes: Uint8Array<ArrayBuffer>; name: string; reason: HeldBytes['reason'] } | { ok: false; message: string };

/** The picture a capture item asks for; null when the member cancelled the region. */
async function take(info: Browser.contextMenus.OnClickData, tab: { id: number; windowId?: number; title?: string }, now: Date): Promise<Taken | null> {
  if (info.menuItemId === MENU.captureFrame) {
    const shot = await captureVideoFrame(tab, info.frameId ?? 0, info.srcUrl, info.frameUrl);
    return shot.ok ? { ok: true, bytes: shot.bytes, name: frameName(shot.name, tab.title, shot.time), reason: 'frame' } : shot;
  }
  const shot = info.menuItemId === MENU.captureRegion ? await captureRegion(tab) : await captureVisible(tab.windowId);
  if (!shot) return null;
  return shot.ok ? { ok: true, bytes: shot.bytes, name: screenshotName(tab.title, now), reason: 'screenshot' } : shot;
}

/** Handles a capture item's click (the member is connected: menu-click checked). */
export async function saveSnapshot(info: Browser.contextMenus.OnClickData, tab: Browser.tabs.Tab | undefined, client: ProxyClient, addHeld: AddHeld, now = new Date()): Promise<void> {
  if (tab?.id === undefined || tab.id < 0) return notify(SNAPSHOT_NOTE, t('snapshot.failed.title'), t('snapshot.failed.page'));
  // A click always names the tab's window; a call without it (the tests' seam) looks it up.
  const windowId = tab.windowId ?? (await browser.tabs.get(tab.id)).windowId;
  const shot = await take(info, { id: tab.id, windowId, title: tab.title }, now);
  if (!shot) return; // the member pressed Escape or clicked without dragging
  if (!shot.ok) return notify(SNAPSHOT_NOTE, t('snapshot.failed.title'), shot.message);
  const group = await quickSaveGroup(client);
  if (!group.ok) return notify(SNAPSHOT_NOTE, t('notify.group.title'), group.problem.message);
  const { name, reason, bytes } = shot;
  const reply = await addHeld(group.value.id, { bytes, declaredType: 'image/png', name, reason, type: 'Image' }, { url: tab.url, title: tab.title });
  if (!reply.ok) return; // refused or a duplicate: addHeld told the member
  await notify(SNAPSHOT_NOTE, t('snapshot.saved.title', { group: group.value.name }), t('snapshot.saved.message', { name }));
}
