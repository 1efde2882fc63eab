import { browser, type Browser } from 'wxt/browser';
import { quickSaveGroup } from '@/lib/background/default-group';
import { addAsset, itemToAdd, pageOf } from '@/lib/background/menu-click';
import { findPageMedia } from '@/lib/background/pointed-media';
import { t } from '@/lib/i18n/translate';
import { SAVE_COMMAND } from '@/lib/messaging/keyboard-shortcut';
import { notify } from '@/lib/messaging/notify';
import { connectedClient } from '@/lib/proxy/connected-client';
import { getConnection } from '@/lib/storage/stored-connection';
import '@/lib/i18n/background.en';
import '@/lib/i18n/options.en';

/** The keyboard save's own notification (each replaces the previous one). */
export const KEYBOARD_NOTE = 'arkbridge-keyboard';

/** `commands.onCommand`: the keyboard save; other commands are not ours to handle. */
export async function onCommand(command: string, tab?: Browser.tabs.Tab): Promise<void> {
  if (command !== SAVE_COMMAND) return;
  await saveToLastGroup(tab ?? (await browser.tabs.query({ active: true, currentWindow: true }))[0]);
}

/**
 * The keyboard save: the media under the pointer, else the page's main image (the largest image
 * in view, else og:image), added to the group the member last saved to (else the default group:
 * default-group's quickSaveGroup, as for screenshots), through the context menu's own path (best
 * source and checks, name, duplicate guard, queue). A notification says what went where, or why
 * nothing did: not connected, nothing found, the default group could not be made.
 */
export async function saveToLastGroup(tab: Browser.tabs.Tab | undefined): Promise<void> {
  const connected = await connectedClient();
  if (!connected) {
    // Clicking either notification opens the options page (notification-click).
    if ((await getConnection())?.needsReconnect) return notify('arkbridge-reconnect', t('notify.reconnect.title'), t('notify.reconnect.message'));
    return notify('arkbridge-connect', t('notify.connect.title'), t('notify.connect.message'));
  }
  const target = await findPageMedia(tab?.id);
  if (!target) {
    return notify(KEYBOARD_NOTE, t('notify.keyboard.nothing.title'), t(target === null ? 'notify.keyboard.nothing' : 'notify.keyboard.cannotRead'));
  }
  const item = await itemToAdd({ ...target, tab, probe: true }, connected.connection.allowHttpMedia);
  if (!item) return; // itemToAdd said why
  const group = await quickSaveGroup(connected.client);
  if (!group.ok) return notify('arkbridge-group', t('notify.group.title'), group.problem.message);
  const reply = await addAsset({ groupId: group.value.id, ...item, page: pageOf(tab) });
  if (!reply.ok) return; // a duplicate: addAsset said so
  await notify(KEYBOARD_NOTE, t('notify.keyboard.saved.title', { group: group.value.name }), t('notify.keyboard.saved', { name: item.name, type: t(`newgroup.type.${item.type}`) }));
}
