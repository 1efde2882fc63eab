/**
 * Driving the built extension in Chromium: its pages, its IndexedDB, its options-page connection
 * and its context-menu handler (native menus cannot be clicked, so tests call the handler the menu
 * click would call, through the service worker).
 */
import type { Page } from 'playwright-core';
import type { ArkbridgeDB } from '@/lib/storage/database';
import type { AssetRecord } from '@/lib/storage/records/asset-record';
import type { LaunchedExtension } from './chromium';
import { readStoreInPage } from './read-store-in-page';

/** A store of the extension's database whose records a test reads (settings are read through pages). */
type RecordStore = 'groups' | 'assets' | 'tasks' | 'queue';

/** Opens an extension page (e.g. `popup.html`); its script errors are pushed to `errors`. `beforeLoad` may add listeners first. */
export async function openExtensionPage(browser: LaunchedExtension, path: string, errors: string[], beforeLoad?: (page: Page) => void): Promise<Page> {
  const page = await browser.context.newPage();
  page.on('pageerror', (err) => errors.push(`${path}: ${err.message}`));
  beforeLoad?.(page);
  await page.goto(`chrome-extension://${browser.extensionId}/${path}`);
  return page;
}

/**
 * Every record of one store of the extension's database, read in the service worker; empty while
 * the database does not exist yet. Typed by the extension's own schema, so a test reads the
 * records as the extension writes them.
 */
export function readStore<S extends RecordStore>(browser: LaunchedExtension, store: S): Promise<ArkbridgeDB[S]['value'][]> {
  type T = ArkbridgeDB[S]['value'];
  return browser.serviceWorker.evaluate(readStoreInPage, store) as Promise<T[]>;
}

/** An asset record's upload state, when its media was uploaded (not linked). */
export function uploadOf(record: AssetRecord | undefined) {
  return record?.capture?.how === 'upload' ? record.capture : undefined;
}

/**
 * Connects the extension through its options page: proxy URL (prefilled by a build with
 * WXT_DEFAULT_PROXY_URL; filled here when E2E_SKIP_BUILD=1 reuses an older build), member token,
 * Connect, then waits until the first group list is loaded. Returns the options page.
 */
export async function connectThroughOptions(browser: LaunchedExtension, proxyUrl: string, token: string, errors: string[]): Promise<Page> {
  const options = await openExtensionPage(browser, 'options.html', errors);
  const proxyField = options.getByLabel('Proxy URL');
  await proxyField.waitFor({ state: 'visible', timeout: 15_000 });
  if (process.env.E2E_SKIP_BUILD === '1') await proxyField.fill(proxyUrl);
  if ((await proxyField.inputValue()) !== proxyUrl) throw new Error(`the options page shows proxy ${await proxyField.inputValue()}, not ${proxyUrl}`);
  await options.getByLabel('Member token').fill(token);
  await options.getByRole('button', { name: 'Connect', exact: true }).click();
  await options.getByText('Connected as').waitFor({ state: 'visible', timeout: 30_000 });
  await options.locator('#groups-note').waitFor({ state: 'visible', timeout: 30_000 });
  return options;
}

/** What a context-menu click passes to the handler (the fields the extension reads). */
export interface MenuClick {
  menuItemId: string;
  mediaType: string;
  srcUrl: string;
  pageUrl: string;
}

/** Calls the background's context-menu handler, as a click on "Add to asset library → <group>" does. */
export function clickMenu(browser: LaunchedExtension, info: MenuClick, tab: { id: number; title: string }): Promise<void> {
  return browser.serviceWorker.evaluate(
    async ({ info, tab }) => {
      const seam = (globalThis as unknown as { arkbridge: { onMenuClick(info: unknown, tab: unknown): Promise<void> } }).arkbridge;
      await seam.onMenuClick({ ...info, frameId: 0, editable: false }, tab);
    },
    { info, tab },
  );
}

/** The browser tab id of the open page at `url` (-1 when none). */
export function tabIdOf(browser: LaunchedExtension, url: string): Promise<number> {
  return browser.serviceWorker.evaluate(async (wanted) => {
    const chrome = (globalThis as unknown as { chrome: { tabs: { query(q: object): Promise<{ id?: number; url?: string }[]> } } }).chrome;
    return (await chrome.tabs.query({})).find((t) => t.url === wanted)?.id ?? -1;
  }, url);
}

/** The toolbar button pressed on the tab at `url`: grants activeTab there, as a menu click does (needs --enable-unsafe-extension-debugging). */
export async function grantActiveTab(browser: LaunchedExtension, url: string): Promise<void> {
  const cdp = await browser.context.browser()!.newBrowserCDPSession();
  try {
    const { targetInfos } = (await cdp.send('Target.getTargets', { filter: [{ type: 'tab' }] } as never)) as { targetInfos: { type: string; url: string; targetId: string }[] };
    const tab = targetInfos.find((t) => t.type === 'tab' && t.url === url);
    if (!tab) throw new Error(`no tab target for ${url}`);
    await cdp.send('Extensions.triggerAction' as never, { id: browser.extensionId, targetId: tab.targetId } as never);
  } finally {
    await cdp.detach().catch(() => {});
  }
}

/** One `chrome.notifications.create(id, options)` call of the background. */
export interface NotificationCall {
  id: string;
  title: string;
  message: string;
}

/** Records every notification the background shows from now on (once per worker; readNotifications answers them). */
export function recordNotifications(browser: LaunchedExtension): Promise<void> {
  return browser.serviceWorker.evaluate(() => {
    const scope = globalThis as unknown as { __arkbridgeNotes?: NotificationCall[]; chrome: { notifications: { create(...args: unknown[]): unknown } } };
    if (scope.__arkbridgeNotes) return;
    const notes: NotificationCall[] = (scope.__arkbridgeNotes = []);
    const api = scope.chrome.notifications;
    const original = api.create.bind(api);
    api.create = (...args: unknown[]) => {
      const [id, details] = typeof args[0] === 'string' ? [args[0], args[1]] : ['', args[0]];
      const { title = '', message = '' } = (details ?? {}) as { title?: string; message?: string };
      notes.push({ id, title, message });
      return original(...args);
    };
  });
}

/** The notifications recorded so far (recordNotifications). */
export const readNotifications = (browser: LaunchedExtension): Promise<NotificationCall[]> =>
  browser.serviceWorker.evaluate(() => ((globalThis as unknown as { __arkbridgeNotes?: NotificationCall[] }).__arkbridgeNotes ?? []).slice());

/** Creates a group as the member (CreateAssetGroup through the proxy), then loads it in the options page; answers its id. */
export async function createGroupThroughProxy(options: Page, proxyUrl: string, token: string, name: string, description: string): Promise<string> {
  const created = await fetch(`${proxyUrl}/api/v3?Action=CreateAssetGroup&Version=2024-01-01`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ Name: name, Description: description }),
  });
  if (created.status !== 200) throw new Error(`CreateAssetGroup answered HTTP ${created.status}`);
  const groupId = ((await created.json()) as { Result: { Id: string } }).Result.Id;
  await options.getByRole('button', { name: 'Refresh groups' }).click();
  await options.locator('#groups-note').filter({ hasText: 'loaded.' }).waitFor({ timeout: 30_000 });
  return groupId;
}

