import { browser, type Browser } from 'wxt/browser';
import { addAsset, itemToAdd, pageOf } from '@/lib/background/menu-click';
import { planFromUrl } from '@/lib/capture/capture-plan';
import { t } from '@/lib/i18n/translate';
import type { SavePageMediaItem, SavePageMediaMessage, SavePageMediaReply, SavePageMediaResult } from '@/lib/messaging/extension-messages';
import { connectedClient } from '@/lib/proxy/connected-client';
import { groupStore } from '@/lib/storage/group-store';
import '@/lib/i18n/sidepanel.en';

/**
 * The background's side of the side panel's "Save N to <group>": each item goes the context menu's
 * way (menu-click's `itemToAdd` and `addAsset`: linked, or read in its frame and uploaded; the
 * duplicate guard; the queue), one after another, and each is answered: the record made, or why not.
 */
export async function savePageMedia({ groupId, tabId, items }: Pick<SavePageMediaMessage, 'groupId' | 'tabId' | 'items'>): Promise<SavePageMediaReply> {
  const all = (message: string): SavePageMediaReply => ({ results: items.map(() => ({ ok: false, message })) });
  const connected = await connectedClient();
  if (!connected) return all(t('sidepanel.save.notConnected'));
  if (!(await groupStore.get(groupId))) return all(t('sidepanel.save.groupGone'));
  // The tab's title names an item that has no other name; without it the item still saves.
  const tab = (await browser.tabs.get(tabId).catch(() => undefined)) ?? ({ id: tabId } as Browser.tabs.Tab);
  const results: SavePageMediaResult[] = [];
  for (const item of items) {
    results.push(await saveOne(groupId, tab, item, connected.connection.allowHttpMedia).catch((error: Error) => ({ ok: false as const, message: error.message })));
  }
  return { results };
}

async function saveOne(groupId: string, tab: Browser.tabs.Tab, item: SavePageMediaItem, allowHttp = false): Promise<SavePageMediaResult> {
  // A refused address is answered here, not as the menu's notification (one per item would pile up).
  const plan = planFromUrl(item.url, allowHttp);
  if (plan.how === 'refuse') return { ok: false, message: `${plan.reason} ${plan.advice}` };
  // The panel already chose the largest srcset candidate: no probe of the element.
  const media = await itemToAdd({ type: item.type, srcUrl: item.url, tab, frameId: item.frameId ?? 0, probe: false, documentUrl: '' }, allowHttp);
  if (!media) return { ok: false, message: t('sidepanel.save.refused') };
  const named = item.name ? { ...media, name: item.name, ...(media.upload ? { upload: { ...media.upload, name: item.name } } : {}) } : media;
  // Without the menu's notification for a duplicate: the tile says it, and follows the record there.
  const reply = await addAsset({ groupId, ...named, page: pageOf(tab) }, false);
  if (reply.ok) return { ok: true, localId: reply.localId ?? '' };
  return reply.duplicateOf ? { ok: false, message: t('sidepanel.status.duplicate'), duplicate: true, localId: reply.duplicateOf } : { ok: false, message: reply.message };
}
