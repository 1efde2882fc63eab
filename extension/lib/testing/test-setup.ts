import { deleteDB } from 'idb';
import { vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { ProxyClient } from '@/lib/proxy/proxy-client';
import { closeDb, db, DB_NAME } from '@/lib/storage/database';
import type { AssetRecord } from '@/lib/storage/records/asset-record';
import type { GroupRecord } from '@/lib/storage/records/group-record';
import type { Connection } from '@/lib/storage/records/setting-values';
import { setConnection } from '@/lib/storage/stored-connection';
import { resetUploadsDb } from '@/lib/storage/upload-bytes';
import { FakeProxy, PROXY_URL, TOKEN } from '@/lib/testing/fake-proxy';

/**
 * Shared test plumbing: a fresh IndexedDB and fake browser per test, and mocks for the
 * extension APIs WXT's fake browser does not implement (context menus, scripting, options page,
 * commands).
 */

export interface BrowserMocks {
  removeAll: ReturnType<typeof vi.fn>;
  create: ReturnType<typeof vi.fn>;
  executeScript: ReturnType<typeof vi.fn>;
  openOptionsPage: ReturnType<typeof vi.fn>;
  notify: ReturnType<typeof vi.fn>;
  /** `commands.getAll`: the manifest's save command with Alt+Shift+S, unless a test says otherwise. */
  getCommands: ReturnType<typeof vi.fn>;
}

export async function resetState(): Promise<BrowserMocks> {
  await closeDb();
  await deleteDB(DB_NAME);
  await resetUploadsDb();
  fakeBrowser.reset();
  const b = fakeBrowser as any;
  b.notifications.create.mockRestore?.();
  const mocks: BrowserMocks = {
    removeAll: vi.fn(async () => {}),
    create: vi.fn((props: { id: string }) => props.id),
    executeScript: vi.fn(async () => [{ result: null }]),
    openOptionsPage: vi.fn(async () => {}),
    notify: vi.spyOn(fakeBrowser.notifications, 'create') as any,
    getCommands: vi.fn(async () => [{ name: 'save-to-last-group', description: 'Save', shortcut: 'Alt+Shift+S' }]),
  };
  b.contextMenus = { removeAll: mocks.removeAll, create: mocks.create, onClicked: fakeEvent() };
  b.scripting = { executeScript: mocks.executeScript };
  b.runtime.openOptionsPage = mocks.openOptionsPage;
  b.commands = { getAll: mocks.getCommands, onCommand: fakeEvent() };
  return mocks;
}

/** A minimal extension event with a `trigger`, like the fake browser's own. */
export function fakeEvent<A extends unknown[] = any[]>() {
  const listeners: ((...args: A) => unknown)[] = [];
  return {
    addListener: (listener: (...args: A) => unknown) => void listeners.push(listener),
    removeListener: (listener: (...args: A) => unknown) => void listeners.splice(listeners.indexOf(listener) >>> 0, 1),
    hasListener: (listener: (...args: A) => unknown) => listeners.includes(listener),
    trigger: (...args: A) => Promise.all(listeners.map((l) => l(...args))),
  };
}

export const connect = (over: Partial<Connection> = {}) => setConnection({ proxyUrl: PROXY_URL, token: TOKEN, memberName: 'Ada', ...over });

export async function putGroup(group: Partial<GroupRecord> & { id: string }): Promise<GroupRecord> {
  const record: GroupRecord = { name: group.id, description: '', type: 'AIGC', usedAt: 0, ...group };
  await (await db()).put('groups', record);
  return record;
}

export const assetRecord = (over: Partial<AssetRecord> & { localId: string }): AssetRecord => ({
  groupId: 'group-1',
  name: over.localId,
  url: `https://cdn.example.com/${over.localId}.png`,
  type: 'Image',
  status: 'Processing',
  idempotencyKey: `key-${over.localId}`,
  notified: false,
  createdAt: 1,
  updatedAt: 1,
  ...over,
});

/** Notifications shown, as [id, title, message]. */
export const shown = (notify: BrowserMocks['notify']): [string, string, string][] =>
  notify.mock.calls.map(([id, options]: any) => [id, options.title, options.message]);

/** A fresh state and a FakeProxy with a client for it: the tests of one module that calls the proxy. */
export async function proxyTestbed(): Promise<{ proxy: FakeProxy; client: ProxyClient; mocks: BrowserMocks }> {
  vi.restoreAllMocks();
  const mocks = await resetState();
  const proxy = new FakeProxy();
  return { proxy, client: new ProxyClient({ proxyUrl: PROXY_URL, token: TOKEN }, proxy.fetch), mocks };
}

/**
 * As proxyTestbed, with the FakeProxy behind `fetch` (the background makes its own client) and the
 * timers faked, so the sync's own timer never fires into another test. `fake`: what else to fake.
 */
export async function backgroundTestbed(fake: ('Date' | 'setTimeout' | 'clearTimeout')[] = []): Promise<{ proxy: FakeProxy; mocks: BrowserMocks }> {
  const { proxy, mocks } = await proxyTestbed();
  vi.stubGlobal('fetch', proxy.fetch);
  // Chrome's background is a service worker: no XMLHttpRequest (uploads/upload-transport).
  vi.stubGlobal('XMLHttpRequest', undefined);
  vi.useFakeTimers({ toFake: [...new Set([...fake, 'setTimeout', 'clearTimeout'] as const)] });
  return { proxy, mocks };
}
