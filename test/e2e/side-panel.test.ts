/**
 * The side panel end to end in Chromium: the built extension, connected to a proxy in front of the
 * sandbox, lists every image, video and audio of a real page (Chromium's own srcset choice, computed
 * backgrounds, natural sizes), filters them by size and type, and saves a selection to a group
 * through the background (the context menu's path: linked, or a data: image uploaded), each tile
 * following its record to Active. The panel is checked with axe and photographed.
 *
 * The panel is opened as an extension page pinned to the test page's tab (`sidepanel.html?tabId=`):
 * headless Chromium cannot open a side panel, nor make the gesture that grants activeTab; as in
 * keyboard-save.test.ts, a copy of the build declares host access to the test page's origin in place
 * of that grant. The shipped manifest is unchanged.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { axeViolations, describeViolations } from './support/axe';
import { REPO_ROOT } from './support/build-extension';
import { connectThroughOptions, createGroupThroughProxy, readStore, tabIdOf } from './support/extension';
import { dataTransferOf, dragFilesOver, dropFiles, fixtureFile } from './support/local-files';
import { fillMediaPage, listedUrls, openSidePanel, tile, tileStatus } from './support/side-panel';
import { useLocalStack } from './support/local-stack';

const GROUP_NAME = 'Side panel test';
const SCREENSHOTS = join(REPO_ROOT, 'test-results', 'screenshots');


const stack = useLocalStack({ member: 'Side panel tester', pageAccess: true });
const pageErrors: string[] = [];

beforeAll(async () => {
  expect(stack().manifest.side_panel).toEqual({ default_path: 'sidepanel.html' });
  expect(stack().manifest.permissions).toContain('sidePanel');
  expect(stack().manifest.host_permissions).toBeUndefined();
  await mkdir(SCREENSHOTS, { recursive: true });
});

test('the side panel lists the page media, filters it, and saves a selection to a group, each item reaching Active', async () => {
  const { media, proxy, browser, memberToken } = stack();
  // --- Connected, with a group. ---
  const options = await connectThroughOptions(browser, proxy.url, memberToken, pageErrors);
  const groupId = await createGroupThroughProxy(options, proxy.url, memberToken, GROUP_NAME, 'Created by the side panel e2e test.');
  expect(await options.locator('#groups-note').innerText()).toContain('1 group loaded.');

  // --- The page, and the panel pointed at its tab. ---
  const page = await browser.context.newPage();
  const pageUrl = `${media.url}/page/${encodeURIComponent(GROUP_NAME)}`;
  await page.goto(pageUrl);
  await page.locator('#audio').waitFor({ state: 'attached' });
  await fillMediaPage(page);
  const tabId = await tabIdOf(browser, pageUrl);
  expect(tabId).toBeGreaterThanOrEqual(0);
  const panel = await openSidePanel(browser, tabId, pageErrors);

  const at = (path: string) => `${media.url}${path}`;
  const expected = {
    srcset: at('/media/sample.jpg?srcset=2x'),
    picture: at('/media/sample.jpg?picture=source'),
    background: at('/media/sample.jpg?background=1'),
    og: at('/media/sample.png?og=1'),
    icon: at('/media/sample.svg'),
    image: at('/media/sample.png'),
    video: at('/media/sample.mp4'),
    sourcedVideo: at('/media/sample.mp4?source=1'),
    audio: at('/media/sample.mp3'),
  };
  await expect.poll(() => panel.locator('.pm-tile').count(), { timeout: 15_000 }).toBe(10);
  const urls = await listedUrls(panel);
  expect(urls).toEqual(expect.arrayContaining(Object.values(expected)));
  expect(urls.filter((u) => u.startsWith('data:image/png;base64,'))).toHaveLength(1);
  // The largest srcset candidate only; the picture's fallback is not what Chromium shows.
  expect(urls).not.toContain(at('/media/sample.png?srcset=1x'));
  expect(urls).not.toContain(at('/media/sample.png?picture=fallback'));
  expect(new Set(urls).size).toBe(urls.length);
  await expect.poll(() => tile(panel, expected.image).innerText()).toContain('Image · PNG · 640 × 360');
  await expect.poll(() => tile(panel, expected.icon).innerText()).toContain('64 × 64');
  await expect.poll(() => tile(panel, 'data:image/png').innerText()).toContain('320 × 200');
  await expect.poll(() => tile(panel, expected.audio).innerText()).toContain('Audio · MP3');
  await panel.screenshot({ path: join(SCREENSHOTS, 'side-panel-grid.png'), fullPage: true });
  const violations = await axeViolations(panel);
  expect(violations, `side panel:\n${describeViolations(violations)}`).toEqual([]);

  // --- Filters: a minimum size drops the icon; images only. ---
  await panel.getByLabel('Min. width').selectOption('100');
  await panel.getByLabel('Min. height').selectOption('100');
  await expect.poll(() => listedUrls(panel)).not.toContain(expected.icon);
  expect(await panel.locator('#pm-count').innerText()).toBe('9 of 10 shown');
  await panel.getByLabel('Videos').uncheck();
  await panel.getByLabel('Audio').uncheck();
  await expect.poll(() => panel.locator('#pm-count').innerText()).toBe('6 of 10 shown');
  expect(await listedUrls(panel)).not.toContain(expected.video);

  // --- Select five images (one of them data:, which is uploaded) and save them. ---
  const chosen = [expected.srcset, expected.picture, expected.background, expected.og, 'data:image/png'];
  for (const url of chosen) await tile(panel, url).getByRole('checkbox').check();
  expect(await panel.getByText('5 selected').count()).toBe(1);
  await panel.getByLabel('Group').selectOption({ label: GROUP_NAME });
  await panel.getByRole('button', { name: `Save 5 to ${GROUP_NAME}` }).click();
  for (const url of chosen) await expect.poll(() => tileStatus(panel, url), { timeout: 60_000, message: url }).toBe('Active');
  expect(await panel.getByText(`5 items sent to ${GROUP_NAME}.`).count()).toBe(1);
  await panel.screenshot({ path: join(SCREENSHOTS, 'side-panel-saved.png'), fullPage: true });
  const afterSave = await axeViolations(panel);
  expect(afterSave, `side panel after saving:\n${describeViolations(afterSave)}`).toEqual([]);

  // --- The records: in the group, Active, named from the page; the data: image uploaded. ---
  const records = await readStore(browser, 'assets');
  expect(records).toHaveLength(5);
  for (const record of records) expect(record).toMatchObject({ groupId, type: 'Image', status: 'Active' });
  expect(records.map((r) => r.name).sort()).toEqual(['Embedded drawing', 'Picture element', 'Srcset picture', 'sample', 'sample']);
  expect(records.find((r) => r.name === 'Embedded drawing')?.capture).toMatchObject({ how: 'upload', reason: 'data' });
  // Linked by the page's address, or uploaded from it (plain http://, when the proxy takes none).
  const pageAddresses = records.filter((r) => r.name !== 'Embedded drawing').map((r) => (r.capture?.how === 'upload' ? r.capture.source : r.url));
  expect(pageAddresses.sort()).toEqual(chosen.slice(0, 4).sort());

  // --- Saving again: each one is already there. ---
  await tile(panel, expected.srcset).getByRole('checkbox').check();
  await panel.getByRole('button', { name: `Save 1 to ${GROUP_NAME}` }).click();
  await expect.poll(() => tileStatus(panel, expected.srcset)).toBe('Already in the group');
  expect(await readStore(browser, 'assets')).toHaveLength(5);

  // --- Its Library tab is the popup's: a file from the computer dropped on the group is added too. ---
  await panel.getByRole('tab', { name: 'Library' }).click();
  const groupRow = panel.getByRole('listbox').getByRole('option').filter({ hasText: GROUP_NAME });
  await groupRow.waitFor({ state: 'visible', timeout: 15_000 });
  const dropped = await dataTransferOf(panel, [await fixtureFile('sample.jpg', 'dropped-in-panel.jpg', 'image/jpeg')]);
  await dragFilesOver(groupRow, dropped);
  await dropFiles(groupRow, dropped);
  // The same picture as the linked JPEGs saved above (their pixels were hashed too): asked first.
  const warning = panel.getByTestId('duplicate-warning');
  await warning.waitFor({ state: 'visible', timeout: 30_000 });
  expect(await warning.innerText()).toContain(GROUP_NAME);
  await warning.getByRole('button', { name: 'Add anyway' }).click();
  const droppedStatus = async () => (await readStore(browser, 'assets')).find((r) => r.name === 'dropped-in-panel.jpg');
  await expect.poll(async () => (await droppedStatus())?.status, { timeout: 60_000 }).toBe('Active');
  expect(await droppedStatus()).toMatchObject({ groupId, capture: { how: 'upload', reason: 'file' } });

  expect(pageErrors).toEqual([]);
  await Promise.all([page.close(), panel.close(), options.close()]);
});
