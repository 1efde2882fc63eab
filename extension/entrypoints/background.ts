import { ALARM } from '@/lib/background/background-sync';
import { onCommand } from '@/lib/background/keyboard-save';
import { addAsset, onMenuClick } from '@/lib/background/menu-click';
import { onNotificationClick } from '@/lib/background/notification-click';
import { refreshMenus } from '@/lib/background/refresh-menus';
import { savePageMedia } from '@/lib/background/save-page-media';
import { provideLocale } from '@/lib/i18n/translate';
import { zhCN } from '@/lib/i18n/zh-CN';
import { isExtensionMessage } from '@/lib/messaging/extension-messages';
import { syncSoon } from '@/lib/messaging/sync-soon';

/**
 * The service worker: wires browser events to the capture and sync modules. It holds no state:
 * everything lives in IndexedDB, so it may be stopped and restarted at any moment.
 */
export default defineBackground(() => {
  // Menus and notifications speak the browser's language; the worker cannot wait for a chunk.
  provideLocale('zh-CN', zhCN);
  // Listeners are registered synchronously at start, as MV3 requires for events that wake the worker.
  browser.runtime.onInstalled.addListener(() => void refreshMenus().then(syncSoon));
  browser.runtime.onStartup.addListener(() => void syncSoon());
  browser.contextMenus.onClicked.addListener((info, tab) => void onMenuClick(info, tab));
  browser.commands.onCommand.addListener((command, tab) => void onCommand(command, tab));
  browser.notifications.onClicked.addListener((id) => void onNotificationClick(id));
  browser.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name === ALARM) void syncSoon();
  });
  browser.runtime.onMessage.addListener((message: unknown, sender, sendResponse) => {
    if (sender.id !== browser.runtime.id || !isExtensionMessage(message)) return;
    switch (message.type) {
      case 'arkbridge:connected':
      case 'arkbridge:groups-changed':
        void refreshMenus().then(syncSoon);
        return;
      case 'arkbridge:disconnected':
        void refreshMenus();
        return;
      case 'arkbridge:sync':
        void syncSoon();
        return;
      case 'arkbridge:add':
        // Answered asynchronously: the new-group page shows a duplicate or a failure.
        addAsset(message.item).then(sendResponse, (error: Error) => sendResponse({ ok: false, message: error.message }));
        return true;
      case 'arkbridge:save-page-media':
        // The side panel's "Save N to <group>": one result per item, in order.
        savePageMedia(message).then(sendResponse, (error: Error) => sendResponse({ results: message.items.map(() => ({ ok: false, message: error.message })) }));
        return true;
    }
  });
  // A test and debugging seam: the handlers the browser calls (native menus and commands cannot be used in tests).
  Object.assign(globalThis, { arkbridge: { onMenuClick, onCommand, onNotificationClick, addAsset, syncSoon, refreshMenus } });
});
