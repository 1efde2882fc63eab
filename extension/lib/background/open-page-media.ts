import { browser, type Browser } from 'wxt/browser';

/**
 * "Save media from this page…": opens the side panel (Chrome's `side_panel`, Firefox's
 * `sidebar_action`), whose "Media on this page" lists the tab's media. Browsers open a panel only in
 * answer to a gesture, which an `await` before the call loses: the menu's handler calls this first.
 * The menu click also grants `activeTab` for the tab, which lets the panel read its media.
 *
 * @see https://developer.chrome.com/docs/extensions/reference/api/sidePanel#method-open
 * @see https://developer.mozilla.org/en-US/docs/Mozilla/Add-ons/WebExtensions/API/sidebarAction/open
 */
export async function openPageMedia(tab: Pick<Browser.tabs.Tab, 'id' | 'windowId'> | undefined): Promise<void> {
  const sidebar = (browser as unknown as { sidebarAction?: { open(): Promise<void> } }).sidebarAction;
  if (sidebar) return sidebar.open();
  if (!browser.sidePanel) return;
  if (tab?.id !== undefined && tab.id >= 0) return browser.sidePanel.open({ tabId: tab.id });
  if (tab?.windowId !== undefined) return browser.sidePanel.open({ windowId: tab.windowId });
}
