/**
 * Issue 26's "Duplicates" end to end in Chromium: the same picture on two pages with different
 * titles, at two different addresses (so that its perceptual hash, not its address, finds it). Saved
 * from page A through the side panel; saved again from page B through the side panel, which warns
 * first, naming the existing asset's group; "Open the existing one" adds nothing and opens it. The
 * library then holds one asset (IndexedDB and the proxy), the popup's search finds it by page A's
 * title (its provenance), and the side panel on page B marks the image as already saved.
 *
 * As in side-panel.test.ts, the panel is an extension page pinned to a tab (`sidepanel.html?tabId=`),
 * in a copy of the build given host access to the test pages (headless Chromium makes no activeTab
 * gesture); that access is also what lets the panel read the image's pixels.
 */
import { expect, test } from 'vitest';
import { connectThroughOptions, createGroupThroughProxy, openExtensionPage, readStore, tabIdOf } from './support/extension';
import { useLocalStack } from './support/local-stack';
import { openSidePanel, tile, tileStatus } from './support/side-panel';

const GROUP_NAME = 'Duplicates test';
const TITLE_A = 'Harbour at dawn';
const TITLE_B = 'Reposted harbour';

const stack = useLocalStack({ member: 'Duplicates tester', pageAccess: true });
const pageErrors: string[] = [];

test('the same image saved from a second page warns first, naming its group; one asset, found by page A’s title, marked on page B', async () => {
  const { media, proxy, browser, memberToken, asMember } = stack();
  const options = await connectThroughOptions(browser, proxy.url, memberToken, pageErrors);
  const groupId = await createGroupThroughProxy(options, proxy.url, memberToken, GROUP_NAME, 'Created by the duplicates e2e test.');

  // --- Two pages, two titles, the same picture at two addresses (a different query each). ---
  const imageA = `${media.url}/media/sample.png?copy=a`;
  const imageB = `${media.url}/media/sample.png?copy=b`;
  const openPage = async (title: string, image: string) => {
    const page = await browser.context.newPage();
    const url = `${media.url}/page/${encodeURIComponent(title)}`;
    await page.goto(url);
    await page.locator('#audio').waitFor({ state: 'attached' });
    await page.evaluate(async (src) => {
      const img = document.getElementById('image') as HTMLImageElement;
      img.src = src;
      await img.decode();
    }, image);
    const tabId = await tabIdOf(browser, url);
    expect(tabId).toBeGreaterThanOrEqual(0);
    return { page, tabId };
  };
  const a = await openPage(TITLE_A, imageA);
  const b = await openPage(TITLE_B, imageB);

  // --- Saved from page A through the side panel: nothing like it in the library yet. ---
  const panelA = await openSidePanel(browser, a.tabId, pageErrors);
  await tile(panelA, imageA).waitFor({ timeout: 15_000 });
  await tile(panelA, imageA).getByRole('checkbox').check();
  await panelA.getByLabel('Group').selectOption({ label: GROUP_NAME });
  await panelA.getByRole('button', { name: `Save 1 to ${GROUP_NAME}` }).click();
  await expect.poll(() => tileStatus(panelA, imageA), { timeout: 60_000 }).toBe('Active');
  expect(await panelA.getByTestId('duplicate-warning').count()).toBe(0);
  const [saved] = await readStore(browser, 'assets');
  expect(saved).toMatchObject({ groupId, type: 'Image', status: 'Active', url: imageA, source: { how: 'link', pageTitle: TITLE_A } });
  // Linked, and its pixels hashed all the same: the background may read them (host access).
  expect(saved!.pixelHash).toMatch(/^[0-9a-f]{64}$/);
  await panelA.close();

  // --- From page B: the panel warns before saving, naming the asset, its group and owner. ---
  const panelB = await openSidePanel(browser, b.tabId, pageErrors);
  await tile(panelB, imageB).waitFor({ timeout: 15_000 });
  await tile(panelB, imageB).getByRole('checkbox').check();
  await panelB.getByLabel('Group').selectOption({ label: GROUP_NAME });
  await panelB.getByRole('button', { name: `Save 1 to ${GROUP_NAME}` }).click();
  const warning = panelB.getByTestId('duplicate-warning');
  await warning.waitFor({ state: 'visible', timeout: 30_000 });
  expect(await warning.getAttribute('role')).toBe('alertdialog');
  const said = await warning.innerText();
  expect(said).toContain(GROUP_NAME);
  expect(said).toContain(saved!.name);
  expect(said).toContain('added by you');
  await expect.poll(() => panelB.evaluate(() => document.activeElement?.textContent)).toBe('Open the existing one');

  // --- "Open the existing one": nothing is added; the Library tab shows the one there. ---
  await warning.getByRole('button', { name: 'Open the existing one' }).click();
  await panelB.locator('#library-asset-title').waitFor({ state: 'visible', timeout: 15_000 });
  expect(await panelB.locator('#library-asset-title').innerText()).toContain(saved!.name);
  expect(await panelB.getByTestId('duplicate-warning').count()).toBe(0);
  // A moment for a save that should not happen to show up.
  await new Promise((done) => setTimeout(done, 1_000));
  const assets = await readStore(browser, 'assets');
  expect(assets.map((r) => r.localId)).toEqual([saved!.localId]);
  const { Result: listed } = await asMember<{ Result: { Items: { Id: string }[] } }>('/api/v3?Action=ListAssets&Version=2024-01-01', { Filter: { GroupIds: [groupId] }, PageSize: 100 });
  expect(listed.Items.map((i) => i.Id)).toEqual([saved!.assetId]);

  // --- The popup's search by page A's title finds it. ---
  const popup = await openExtensionPage(browser, 'popup.html', pageErrors);
  const search = popup.locator('#library-search');
  await search.waitFor({ state: 'visible', timeout: 15_000 });
  await search.fill(TITLE_A);
  const found = popup.getByRole('listbox').getByRole('option');
  await expect.poll(() => found.allInnerTexts(), { timeout: 15_000 }).toEqual([expect.stringContaining(saved!.name)]);
  await search.fill('nothing like this title');
  await expect.poll(() => found.count()).toBe(0);
  await popup.close();

  // --- Back on page B's media: the image is marked as already saved, in its group. ---
  await panelB.getByRole('tab', { name: 'This page' }).click();
  const mark = tile(panelB, imageB).getByTestId('pm-in-library');
  await mark.waitFor({ state: 'visible', timeout: 30_000 });
  expect(await mark.getAttribute('aria-label')).toContain(GROUP_NAME);

  expect(pageErrors).toEqual([]);
  await Promise.all([a.page.close(), b.page.close(), panelB.close(), options.close()]);
});
