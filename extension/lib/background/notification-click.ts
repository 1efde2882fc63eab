import { browser } from 'wxt/browser';
import { setNextTab } from '@/lib/messaging/next-tab';
import type { PopupTab } from '@/lib/storage/records/setting-values';

/** Where a notification leads: its id says what it is about (see background-sync, menu-click, pending-portrait-check). */
export function destinationOf(notificationId: string): { tab: PopupTab } | 'options' | 'studio' | null {
  if (notificationId.startsWith('task-')) return { tab: 'tasks' };
  if (notificationId.startsWith('run-')) return 'studio';
  if (/^(asset|dup|portrait)-/.test(notificationId)) return { tab: 'library' };
  if (notificationId === 'arkbridge-connect' || notificationId === 'arkbridge-reconnect') return 'options';
  return null;
}

/**
 * A click on one of Arkbridge's notifications: the popup opens on the tab it is about (the video
 * in Tasks, the asset or new group in the Library), the studio for a storyboard run, or the options
 * page for a reconnect. Where the
 * browser cannot open the popup from here, the popup page opens in a tab.
 */
export async function onNotificationClick(notificationId: string): Promise<void> {
  const destination = destinationOf(notificationId);
  await browser.notifications.clear(notificationId);
  if (!destination) return;
  if (destination === 'options') return browser.runtime.openOptionsPage();
  if (destination === 'studio') return void (await browser.tabs.create({ url: browser.runtime.getURL('/studio.html') }));
  await setNextTab(destination.tab);
  try {
    await browser.action.openPopup();
  } catch {
    await browser.tabs.create({ url: browser.runtime.getURL('/popup.html') });
  }
}
