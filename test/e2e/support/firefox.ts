/**
 * Launches Firefox ESR (or FIREFOX_PATH) over WebDriver BiDi with puppeteer-core, installs the
 * extension's Firefox MV3 build and drives it: its pages (opened as tabs at a pinned
 * `moz-extension://<uuid>/`), its IndexedDB, and its background (an event page in Firefox MV3:
 * reached from an extension page with `browser.runtime.getBackgroundPage()`, whose `arkbridge`
 * seam holds the handlers the browser calls, as the Chromium tests reach it in the service worker).
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import type { ArkbridgeDB } from '@/lib/storage/database';
import { readStoreInPage } from './read-store-in-page';

const CANDIDATES = ['/usr/bin/firefox-esr', '/usr/bin/firefox'];
/** The extension's id in the Firefox build (wxt.config.ts, browser_specific_settings). */
export const GECKO_ID = 'arkbridge@arkbridge.dev';

/** The Firefox binary to drive: $FIREFOX_PATH, else the first Debian location that exists. */
export function findFirefox(): string {
  const fromEnv = process.env.FIREFOX_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`FIREFOX_PATH=${fromEnv} does not exist`);
    return fromEnv;
  }
  const found = CANDIDATES.find((path) => existsSync(path));
  if (!found) throw new Error(`Firefox not found (looked in ${CANDIDATES.join(', ')}). Install it (apt-get install -y firefox-esr) or set FIREFOX_PATH.`);
  return found;
}

export interface LaunchedFirefox {
  browser: Browser;
  /** `moz-extension://<uuid>`: the extension's pages' origin, pinned at launch. */
  origin: string;
  /** Opens an extension page (e.g. `popup.html`) in a new tab; its script errors are pushed to `errors`. */
  openExtensionPage(path: string, errors: string[]): Promise<Page>;
  /** Opens a web page in a new tab, waiting for its DOM. */
  openPage(url: string): Promise<Page>;
  /** Closes the browser (puppeteer deletes its temporary profile). */
  close(): Promise<void>;
}

/**
 * A dark system theme, as Firefox reads it: its pages, the extension's included, then match
 * `prefers-color-scheme: dark`. Set in the profile at launch, so it holds over BiDi with no
 * emulation command.
 */
export const DARK_THEME_PREFS = { 'ui.systemUsesDarkTheme': 1, 'layout.css.prefers-color-scheme.content-override': 0 };

export async function launchFirefox(extensionDir: string, { prefs = {} }: { prefs?: Record<string, unknown> } = {}): Promise<LaunchedFirefox> {
  const uuid = randomUUID();
  const origin = `moz-extension://${uuid}`;
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: findFirefox(),
    headless: true,
    // BiDi in ESR 140 cannot set a viewport: pages keep the window's size.
    defaultViewport: null,
    // BiDi navigates only to http(s), file and blob addresses unless system access is allowed;
    // that is what lets a test open moz-extension:// pages as tabs.
    args: ['--remote-allow-system-access'],
    extraPrefsFirefox: {
      // The extension's internal UUID, so that its pages have a known address.
      'extensions.webextensions.uuids': JSON.stringify({ [GECKO_ID]: uuid }),
      ...prefs,
    },
  });
  try {
    const id = await browser.installExtension(resolve(extensionDir));
    if (id !== GECKO_ID) throw new Error(`installed ${id}, expected ${GECKO_ID}`);
    const openExtensionPage = async (path: string, errors: string[]): Promise<Page> => {
      const page = await browser.newPage();
      page.on('pageerror', (error) => errors.push(`${path}: ${error instanceof Error ? error.message : String(error)}`));
      await navigateToExtensionPage(page, `${origin}/${path}`);
      return page;
    };
    const openPage = async (url: string): Promise<Page> => {
      const page = await browser.newPage();
      // `load` can wait on media the page streams; the DOM is what the tests need.
      await page.goto(url, { waitUntil: 'domcontentloaded' });
      return page;
    };
    return { browser, origin, openExtensionPage, openPage, close: () => browser.close() };
  } catch (error) {
    await browser.close().catch(() => {});
    throw error;
  }
}

/**
 * Navigates a tab to an extension page and waits for its DOM. Puppeteer's `goto` waits for
 * navigation events that BiDi does not report for the extension's process, so the BiDi command is
 * sent as it is (`browsingContext.navigate`, wait `interactive`), through the frame's context.
 */
async function navigateToExtensionPage(page: Page, url: string): Promise<void> {
  const context = (page.mainFrame() as unknown as { browsingContext: { navigate(url: string, wait: 'none' | 'interactive' | 'complete'): Promise<void> } }).browsingContext;
  await context.navigate(url, 'interactive');
  const href = await page.evaluate(() => location.href);
  if (href !== url) throw new Error(`the tab shows ${href}, not ${url}`);
}

/** A store of the extension's database whose records a test reads. */
type RecordStore = 'groups' | 'assets' | 'tasks' | 'queue';

/**
 * Every record of one store of the extension's database, read from one of its pages (`page`: any
 * extension page; they share the database with the background). Empty while the database does not
 * exist yet.
 */
export function readStore<S extends RecordStore>(page: Page, store: S): Promise<ArkbridgeDB[S]['value'][]> {
  type T = ArkbridgeDB[S]['value'];
  return page.evaluate(readStoreInPage, store) as Promise<T[]>;
}

/** What a context-menu click passes to the handler (the fields the extension reads). */
export interface MenuClick {
  menuItemId: string;
  mediaType: string;
  srcUrl: string;
  pageUrl: string;
}

/**
 * Calls the background's context-menu handler, as a click on "Add to asset library → <group>" does:
 * from an extension page (`page`), in the event page (`runtime.getBackgroundPage()` starts it if it
 * was suspended), through its `arkbridge` seam.
 */
export function clickMenu(page: Page, info: MenuClick, tab: { id: number; title: string }): Promise<void> {
  return page.evaluate(
    async (info, tab) => {
      const ext = (globalThis as unknown as { browser: { runtime: { getBackgroundPage(): Promise<Window | null> } } }).browser;
      const background = (await ext.runtime.getBackgroundPage()) as unknown as { arkbridge?: { onMenuClick(info: unknown, tab: unknown): Promise<void> } } | null;
      if (!background?.arkbridge) throw new Error('the background page has no arkbridge seam');
      await background.arkbridge.onMenuClick({ ...info, frameId: 0, editable: false }, tab);
    },
    info,
    tab,
  );
}

/** The tab id of the open page at `url` (-1 when none), asked from an extension page. */
export function tabIdOf(page: Page, url: string): Promise<number> {
  return page.evaluate(async (wanted) => {
    const ext = (globalThis as unknown as { browser: { tabs: { query(q: object): Promise<{ id?: number; url?: string }[]> } } }).browser;
    return (await ext.tabs.query({})).find((t) => t.url === wanted)?.id ?? -1;
  }, url);
}

/** The text of the first element matching `selector` ('' when none). */
export const textOf = (page: Page, selector: string): Promise<string> => page.evaluate((s) => (document.querySelector(s) as HTMLElement | null)?.innerText.trim() ?? '', selector);

/** Clicks the button whose text is `name` (exactly, trimmed), once it is there and enabled. */
export async function clickButton(page: Page, name: string, timeout = 15_000): Promise<void> {
  const button = await page.waitForFunction(
    (name) => [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === name && !b.disabled) ?? null,
    { timeout },
    name,
  );
  await (button as unknown as { click(): Promise<void> }).click();
}

/** Runs one pass of the background now (its alarm would come later, after its backoff), from an extension page; answers when it is over. */
export function backgroundPass(page: Page): Promise<void> {
  return page.evaluate(async () => {
    const ext = (globalThis as unknown as { browser: { runtime: { getBackgroundPage(): Promise<Window | null> } } }).browser;
    const background = (await ext.runtime.getBackgroundPage()) as unknown as { arkbridge?: { syncSoon(): Promise<void> } } | null;
    if (!background?.arkbridge) throw new Error('the background page has no arkbridge seam');
    await background.arkbridge.syncSoon();
  });
}

/** One `browser.notifications.create(id, options)` call of the background. */
export interface NotificationCall {
  id: string;
  title: string;
  message: string;
}

/**
 * Records every notification the background shows from now on, in the extension page `page` (kept
 * open: readNotifications answers them). Headless Firefox closes a notification as it is shown
 * (`notifications.getAll()` is empty, `onClosed` gives no title), so the background's
 * `notifications.create` is wrapped. The event page may be unloaded when idle, its wrapper with
 * it: the calls are kept as strings in `page` (its objects would die with it), and the wrapper is
 * put back when missing, so call this before each pass a test asks for.
 */
export function recordNotifications(page: Page): Promise<void> {
  return page.evaluate(async () => {
    const scope = globalThis as unknown as { __arkbridgeNotes?: string[]; browser: { runtime: { getBackgroundPage(): Promise<Window | null> } } };
    const notes = (scope.__arkbridgeNotes ??= []);
    type Background = { __arkbridgeRecorded?: boolean; browser: { notifications: { create(...args: unknown[]): unknown } } };
    const background = (await scope.browser.runtime.getBackgroundPage()) as unknown as Background | null;
    if (!background) throw new Error('no background page');
    if (background.__arkbridgeRecorded) return;
    background.__arkbridgeRecorded = true;
    const api = background.browser.notifications;
    const original = api.create.bind(api);
    api.create = (...args: unknown[]) => {
      const [id, details] = typeof args[0] === 'string' ? [args[0], args[1]] : ['', args[0]];
      const { title = '', message = '' } = (details ?? {}) as { title?: string; message?: string };
      notes.push(JSON.stringify({ id, title, message }));
      return original(...args);
    };
  });
}

/** The notifications recorded so far in `page` (recordNotifications). */
export const readNotifications = async (page: Page): Promise<NotificationCall[]> =>
  ((await page.evaluate(() => ((globalThis as unknown as { __arkbridgeNotes?: string[] }).__arkbridgeNotes ?? []).slice())) as string[]).map((note) => JSON.parse(note) as NotificationCall);

/** The addresses of the extension's pages open as tabs (`extension.getViews`), asked from one of them. */
export function openExtensionTabs(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const ext = (globalThis as unknown as { browser: { extension: { getViews(filter: object): Window[] } } }).browser;
    return ext.extension.getViews({ type: 'tab' }).map((view) => view.location.href);
  });
}
