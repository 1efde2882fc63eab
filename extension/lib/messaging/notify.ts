import { browser } from 'wxt/browser';

/** A desktop notification from the extension; `id` replaces an earlier one with the same id. */
export async function notify(id: string, title: string, message: string): Promise<void> {
  try {
    await browser.notifications.create(id, { type: 'basic', iconUrl: browser.runtime.getURL('/icon/128.png'), title, message });
  } catch (error) {
    // Notifications disabled by the member or the platform: the popup still shows everything.
    console.warn('Arkbridge: notification not shown', error instanceof Error ? error.message : error);
  }
}

/** The action badge: how many items are on their way (queued, processing, generating). */
export async function setBadge(count: number): Promise<void> {
  await browser.action.setBadgeText({ text: count > 0 ? String(Math.min(count, 999)) : '' });
  if (count > 0) await browser.action.setBadgeBackgroundColor({ color: '#2456e8' });
}
