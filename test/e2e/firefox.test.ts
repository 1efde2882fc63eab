/**
 * The Firefox MV3 build end to end in Firefox ESR (WebDriver BiDi, puppeteer-core), against a proxy
 * in front of the sandbox (both started here): the build firefox-lint.test.ts lints, installed as
 * Firefox installs an add-on. The optional host access the options page asks for is declined in
 * automation, so the extension connects and calls the proxy through CORS, as a member who says no
 * does. Native context menus cannot be clicked: the background's menu handler is called from an
 * extension page through `runtime.getBackgroundPage()` (Firefox's background is an event page, not
 * a service worker). Uploads run in that page with XMLHttpRequest, where Chrome uses an offscreen
 * document; the side panel is Firefox's `sidebar_action`, its page opened here as a tab pinned to the
 * page it reads. Screenshots: test-results/screenshots/firefox-*.png.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { beforeAll, expect, test } from 'vitest';
import { REPO_ROOT } from './support/build-extension';
import { clickButton, clickMenu, readStore, tabIdOf, textOf } from './support/firefox';
import { useLocalStack } from './support/local-stack';
import { fillMediaPage } from './support/side-panel';
import { watch } from '../support/poll-until';

const SCREENSHOTS = join(REPO_ROOT, 'test-results', 'screenshots');
const MEMBER = 'Firefox tester';
const GROUP_NAME = 'Firefox board';
const MODEL = 'doubao-seedance-2-0-260128';
/** A 1 × 1 PNG: a data: address the service cannot download, so the extension uploads it. */
const DATA_PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

// Assets turn Active after a second; a video completes after three.
const stack = useLocalStack({ browser: 'firefox', member: MEMBER, pageAccess: true, sandbox: { SANDBOX_VIDEO_SECONDS: '3' } });
const pageErrors: string[] = [];
/** The options page, kept open: the tests reach the background and the database from it. */
let options: Page;
let groupId: string;

beforeAll(async () => {
  await mkdir(SCREENSHOTS, { recursive: true });
  const { manifest } = stack();
  // Firefox's side panel and background, as shipped: no side_panel, no offscreen, no host access.
  expect(manifest.sidebar_action).toMatchObject({ default_panel: 'sidepanel.html' });
  expect(manifest.side_panel).toBeUndefined();
  expect(manifest.background).toEqual({ scripts: ['background.js'] });
  expect(manifest.permissions).not.toContain('offscreen');
  expect(manifest.host_permissions).toBeUndefined();
});


const screenshot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `firefox-${name}.png`), fullPage: true });

/** Sets a field as typing does (Preact listens to `input`). */
async function fill(page: Page, selector: string, value: string): Promise<void> {
  await page.waitForSelector(selector, { timeout: 15_000 });
  await page.$eval(selector, (el) => ((el as HTMLInputElement).value = ''));
  await page.type(selector, value);
}

test('connects through the options page, over CORS, with host access declined', async () => {
  const { firefox, proxy, memberToken } = stack();
  options = await firefox.openExtensionPage('options.html', pageErrors);
  await fill(options, '#proxy-url', proxy.url);
  await fill(options, '#member-token', memberToken);
  await clickButton(options, 'Connect');
  // Connected (the name comes from the proxy's /proxy/me), or the form's error.
  const connected = await watch(
    async () => `${await textOf(options, 'main')}\n${await textOf(options, '#connect-result')}`,
    (text) => text.includes('Connected as') || /\S$/.test(text),
    30_000,
  );
  expect(connected.last).toContain(`Connected as ${MEMBER}`);
  await options.waitForSelector('#groups-note', { timeout: 30_000 });
  // No host access was granted: every call went through the proxy's CORS.
  const granted = await options.evaluate(async (pattern) => {
    const ext = (globalThis as unknown as { browser: { permissions: { contains(p: object): Promise<boolean> } } }).browser;
    return ext.permissions.contains({ origins: [pattern] });
  }, `${new URL(proxy.url).origin}/*`);
  expect(granted).toBe(false);
  await screenshot(options, 'options-connected');
});

test('saves a linked and an uploaded image through the background menu handler; the popup lists them Active', async () => {
  const { firefox, media, pagesUrl, asMember } = stack();
  const created = await asMember<{ Result: { Id: string } }>('/api/v3?Action=CreateAssetGroup&Version=2024-01-01', { Name: GROUP_NAME, Description: 'Created by the Firefox e2e test.' });
  groupId = created.Result.Id;
  await clickButton(options, 'Refresh groups');
  await options.waitForFunction(() => document.querySelector('#groups-note')?.textContent?.includes('1 group loaded.'), { timeout: 30_000 });

  const pageUrl = `${pagesUrl}/page/${encodeURIComponent(GROUP_NAME)}`;
  const page = await firefox.openPage(pageUrl);
  // The page's image, at the address the sandbox downloads from.
  expect(await page.evaluate(() => (document.getElementById('image') as HTMLImageElement).src)).toBe(`${pagesUrl}/media/sample.png`);
  const imageUrl = `${media.url}/media/sample.png`;
  const tabId = await tabIdOf(options, pageUrl);
  expect(tabId).toBeGreaterThanOrEqual(0);
  const menuItemId = `arkbridge-media/group:${groupId}`;
  await clickMenu(options, { menuItemId, mediaType: 'image', srcUrl: imageUrl, pageUrl }, { id: tabId, title: GROUP_NAME });
  await clickMenu(options, { menuItemId, mediaType: 'image', srcUrl: DATA_PNG, pageUrl }, { id: tabId, title: GROUP_NAME });
  const recorded = await readStore(options, 'assets');
  // Each click is recorded at once (a data: address as the hash of its bytes, which wait for the upload).
  expect(recorded.map((a) => a.url).sort()).toEqual([expect.stringMatching(/^data:image\/png;sha256,[0-9a-f]{64}$/), imageUrl]);

  // Both reach Active in the extension's database; the data: image went through an upload, sent
  // from the background page (no offscreen document in Firefox).
  const settled = await watch(
    async () => (await readStore(options, 'assets')).map((a) => `${a.name}: ${a.status}`).sort(),
    (rows) => rows.length === 2 && rows.every((r) => /: (Active|Failed)$/.test(r)),
    60_000,
  );
  const assets = await readStore(options, 'assets');
  expect(assets.map((a) => a.status), JSON.stringify(settled.seen)).toEqual(['Active', 'Active']);
  for (const asset of assets) expect(asset).toMatchObject({ groupId, type: 'Image' });
  const uploaded = assets.find((a) => a.capture?.how === 'upload' && a.capture.reason === 'data');
  expect(uploaded, JSON.stringify(assets.map((a) => a.capture))).toBeDefined();
  const { uploads } = await asMember<{ uploads: { url?: string }[] }>('/proxy/uploads');
  expect(uploads, 'one upload: the data: image').toHaveLength(1);

  // The popup (as a tab) shows the group and both assets Active.
  const popup = await firefox.openExtensionPage('popup.html', pageErrors);
  await popup.waitForFunction((member) => document.body.innerText.includes(`Connected as ${member}`), { timeout: 15_000 }, MEMBER);
  await popup.waitForFunction((name) => [...document.querySelectorAll('.row__name')].some((el) => el.textContent?.trim() === name), { timeout: 15_000 }, GROUP_NAME);
  await popup.evaluate((name) => ([...document.querySelectorAll('.row__name')].find((el) => el.textContent?.trim() === name) as HTMLElement).click(), GROUP_NAME);
  await clickButton(popup, 'List');
  // The list layout asked again (a DOM click: idempotent) while no row shows: a click at the button's
  // place while the assets were still being laid out could land beside it (seen once: Grid stayed).
  const rows = await watch(
    () =>
      popup.evaluate(() => {
        const listed = [...document.querySelectorAll('.row--asset')].map((row) => `${row.querySelector('.row__name')?.textContent?.trim()}: ${row.querySelector('.chip')?.textContent?.trim()}`).sort();
        if (!listed.length) [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'List')?.click();
        return listed;
      }),
    (rows) => rows.length === 2 && rows.every((r) => r.endsWith(': Active')),
    15_000,
  );
  expect(rows.last).toEqual(assets.map((a) => `${a.name}: Active`).sort());
  await screenshot(popup, 'popup-library');
  await Promise.all([page.close(), popup.close()]);
});

test('the sidebar page lists the media of the page it reads and saves a selection to Active', async () => {
  const { firefox, pagesUrl } = stack();
  const pageUrl = `${pagesUrl}/page/${encodeURIComponent('Sidebar test')}`;
  const page = await firefox.openPage(pageUrl);
  await fillMediaPage(page);
  const tabId = await tabIdOf(options, pageUrl);
  const panel = await firefox.openExtensionPage(`sidepanel.html?tabId=${tabId}`, pageErrors);
  const urls = await watch(
    () => panel.evaluate(() => [...document.querySelectorAll('.pm-tile')].map((t) => t.getAttribute('data-url') ?? '')),
    (urls) => urls.length >= 10,
    15_000,
  );
  const at = (path: string) => `${pagesUrl}${path}`;
  expect(urls.last).toEqual(
    expect.arrayContaining([at('/media/sample.png'), at('/media/sample.mp4'), at('/media/sample.mp3'), at('/media/sample.jpg?srcset=2x'), at('/media/sample.jpg?background=1'), at('/media/sample.png?og=1')]),
  );
  expect(urls.last.filter((u) => u.startsWith('data:image/png;base64,'))).toHaveLength(1);
  await screenshot(panel, 'sidebar-grid');

  // Save the page's og:image to the group: the background saves it (the menu's path) and the tile follows its record.
  const og = at('/media/sample.png?og=1');
  const tile = `li.pm-tile[data-url="${og}"]`;
  await panel.click(`${tile} input[type=checkbox]`);
  await panel.waitForSelector(`#pm-group option[value="${groupId}"]`, { timeout: 15_000 });
  await panel.select('#pm-group', groupId);
  await clickButton(panel, `Save 1 to ${GROUP_NAME}`);
  // The same picture as the image saved by the previous test (the media server allows CORS, so both
  // were hashed): the panel asks first, naming the group.
  const warning = await panel.waitForSelector('[data-testid="duplicate-warning"]', { timeout: 30_000 });
  expect(await warning!.evaluate((el) => (el as HTMLElement).innerText)).toContain(GROUP_NAME);
  await clickButton(panel, 'Add anyway');
  const status = await watch(() => textOf(panel, `${tile} .pm-status`), (s) => s === 'Active' || s.startsWith('Failed'), 60_000);
  expect(status.last, JSON.stringify(status.seen)).toBe('Active');
  const saved = (await readStore(options, 'assets')).filter((a) => a.groupId === groupId);
  expect(saved).toHaveLength(3);
  expect(saved.find((a) => a.url === og || (a.capture?.how === 'upload' && a.capture.source === og))).toMatchObject({ status: 'Active' });
  await screenshot(panel, 'sidebar-saved');
  await Promise.all([page.close(), panel.close()]);
});

test('generates a video through the popup, followed to Completed', async () => {
  const { firefox } = stack();
  const popup = await firefox.openExtensionPage('popup.html', pageErrors);
  await popup.waitForSelector('#tab-generate', { timeout: 15_000 });
  await popup.click('#tab-generate');
  await popup.waitForSelector(`#gen-model option[value="${MODEL}"]`, { timeout: 30_000 });
  await popup.select('#gen-model', MODEL);
  await fill(popup, '#gen-prompt', 'A slow dolly shot across a spring meadow.');
  await screenshot(popup, 'popup-generate');
  await clickButton(popup, 'Generate video');
  const statuses = await watch(
    () => textOf(popup, '.task-list li .task__status'),
    (status) => status === 'Completed' || status === 'Failed',
    60_000,
  );
  expect(statuses.last, `statuses shown: ${JSON.stringify(statuses.seen)}`).toBe('Completed');
  const [task] = await readStore(popup, 'tasks');
  expect(task).toMatchObject({ status: 'completed' });
  await popup.waitForSelector('.task-list li video', { timeout: 15_000 });
  await screenshot(popup, 'popup-task-completed');
  await popup.close();
  expect(pageErrors).toEqual([]);
});
