import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { destinationOf, onNotificationClick } from '@/lib/background/notification-click';
import { takeNextTab } from '@/lib/messaging/next-tab';
import { type BrowserMocks, resetState } from '@/lib/testing/test-setup';

let mocks: BrowserMocks;
let openPopup: ReturnType<typeof vi.fn>;

beforeEach(async () => {
  mocks = await resetState();
  openPopup = vi.fn(async () => {});
  (fakeBrowser as unknown as { action: { openPopup: unknown } }).action.openPopup = openPopup;
});

describe('a click on a notification', () => {
  it('knows where each notification leads', () => {
    expect(destinationOf('task-abc')).toEqual({ tab: 'tasks' });
    expect(destinationOf('asset-l1')).toEqual({ tab: 'library' });
    expect(destinationOf('dup-l1')).toEqual({ tab: 'library' });
    expect(destinationOf('portrait-g1')).toEqual({ tab: 'library' });
    expect(destinationOf('arkbridge-reconnect')).toBe('options');
    expect(destinationOf('arkbridge-url')).toBeNull();
  });

  it('opens the popup on the tab it is about, once, and clears the notification', async () => {
    const clear = vi.spyOn(fakeBrowser.notifications, 'clear');
    await onNotificationClick('task-abc');
    expect(openPopup).toHaveBeenCalledTimes(1);
    expect(clear).toHaveBeenCalledWith('task-abc');
    expect(await takeNextTab()).toBe('tasks');
    expect(await takeNextTab()).toBeNull();
  });

  it('opens the popup page in a tab where the browser cannot open the popup', async () => {
    openPopup.mockRejectedValueOnce(new Error('no active browser window'));
    await onNotificationClick('portrait-g1');
    const tabs = await fakeBrowser.tabs.query({});
    expect(tabs.map((t) => t.url)).toContainEqual(expect.stringMatching(/\/popup\.html$/));
    expect(await takeNextTab()).toBe('library');
  });

  it('a reconnect notification opens the options page', async () => {
    await onNotificationClick('arkbridge-reconnect');
    expect(mocks.openOptionsPage).toHaveBeenCalled();
    expect(openPopup).not.toHaveBeenCalled();
  });

  it('a notification that leads nowhere is only cleared', async () => {
    await onNotificationClick('arkbridge-url');
    expect(openPopup).not.toHaveBeenCalled();
    expect(await takeNextTab()).toBeNull();
  });
});
