import { useEffect, useState } from 'preact/hooks';
import { browser, type Browser } from 'wxt/browser';

/** The tab the panel reads (null: none) and a count that moves whenever it should be read again. */
export interface FollowedTab {
  tabId: number | null | undefined;
  version: number;
}

/**
 * The active tab of the panel's window, followed as the member switches tabs, and read again when
 * it finishes loading a page. `fixedTabId` (the page's `?tabId=`, for tests and for a panel opened
 * for one tab) pins one tab instead.
 */
export function useFollowedTab(fixedTabId?: number): FollowedTab {
  const [state, setState] = useState<FollowedTab>({ tabId: fixedTabId, version: 0 });
  useEffect(() => {
    let alive = true;
    let current: number | null | undefined = fixedTabId;
    let windowId: number | undefined;
    const follow = (tabId: number | null) => {
      if (!alive) return;
      current = tabId;
      setState((s) => ({ tabId, version: s.version + 1 }));
    };
    if (fixedTabId === undefined) {
      void browser.windows
        .getCurrent()
        .then(async (window) => {
          windowId = window.id;
          const [tab] = await browser.tabs.query({ active: true, windowId });
          follow(tab?.id ?? null);
        })
        .catch(() => follow(null));
    } else follow(fixedTabId);
    const activated = (info: Browser.tabs.OnActivatedInfo) => {
      if (fixedTabId === undefined && info.windowId === windowId) follow(info.tabId);
    };
    const updated = (tabId: number, change: Browser.tabs.OnUpdatedInfo) => {
      if (tabId === current && change.status === 'complete') follow(tabId);
    };
    browser.tabs.onActivated.addListener(activated);
    browser.tabs.onUpdated.addListener(updated);
    return () => {
      alive = false;
      browser.tabs.onActivated.removeListener(activated);
      browser.tabs.onUpdated.removeListener(updated);
    };
  }, [fixedTabId]);
  return state;
}
