/**
 * Uploads end to end in Chromium: the built extension, connected to a proxy (with its media store,
 * local R2) in front of the sandbox, saves the media of a page the service could not download
 * itself, each through the path the extension chooses (capture-plan):
 * - a `data:` image, a `blob:` image and an 8 MB `blob:` video: read in the page, uploaded;
 * - an image the site serves only with the cookie the page set (a check without it is refused):
 *   read in the page with its cookies, uploaded;
 * - a public video: linked, as before (the service downloads it);
 * - a plain `http://` image, once the proxy is known to take no http (its capabilities' flag as the
 *   extension stored it; the proxy itself keeps ALLOW_HTTP_MEDIA on, since locally its own signed
 *   addresses are http://127.0.0.1 and the sandbox must download them): uploaded.
 * Each ends Active in the library; the proxy's `GET /proxy/uploads` lists exactly the uploads, and
 * the library's URL of each asset is the proxy's signed address for an upload, the page's for a link.
 *
 * The page is read through activeTab, which a menu click grants; native menus cannot be clicked
 * here, so the test grants it as the toolbar button does, through the DevTools protocol
 * (`Extensions.triggerAction` on the tab, with --enable-unsafe-extension-debugging), then calls the
 * background's menu handler through the service worker (as capture.test.ts does). No host access
 * to the page is declared or granted.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { MEDIA_FIXTURES_DIR } from '../support/media-server';
import { REPO_ROOT } from './support/build-extension';
import { clickMenu, connectThroughOptions, grantActiveTab, openExtensionPage, readStore, tabIdOf } from './support/extension';
import { useLocalStack } from './support/local-stack';
import type { AssetRecord } from '@/lib/storage/records/asset-record';

const GROUP_NAME = 'Upload test';
const SCREENSHOTS = join(REPO_ROOT, 'test-results', 'screenshots');


interface UploadRow {
  id: string;
  size: number;
  contentType: string | null;
  name: string | null;
}

const stack = useLocalStack({ member: 'Upload tester', chromiumArgs: ['--enable-unsafe-extension-debugging'] });
const pageErrors: string[] = [];

const sw = () => stack().browser.serviceWorker;
const readAssets = () => readStore(stack().browser, 'assets');

/** A member call to the proxy. */
const member = <T>(path: string, body?: unknown) => stack().asMember<T>(path, body);

/** The stored connection's `allowHttpMedia` (the proxy's capabilities flag, as read at connect). */
const setAllowHttp = (allow: boolean) =>
  sw().evaluate(
    (value) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('arkbridge');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('settings', 'readwrite');
          const store = tx.objectStore('settings');
          const read = store.get('connection');
          read.onsuccess = () => store.put({ ...read.result, allowHttpMedia: value }, 'connection');
          tx.oncomplete = () => (open.result.close(), resolve());
          tx.onerror = () => reject(tx.error);
        };
      }),
    allow,
  );

/** Waits until every record is final; answers them. */
async function settled(count: number): Promise<AssetRecord[]> {
  const deadline = Date.now() + 90_000;
  let rows: AssetRecord[] = [];
  while (Date.now() < deadline) {
    rows = await readAssets();
    if (rows.length === count && rows.every((r) => r.status === 'Active' || r.status === 'Failed')) return rows;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`not settled: ${JSON.stringify(rows.map((r) => [r.name, r.status, r.capture]))}`);
}

test('what the service cannot fetch is read in the page and uploaded; public media is linked; all end Active', async () => {
  const { media, proxy, browser, memberToken } = stack();
  const options = await connectThroughOptions(browser, proxy.url, memberToken, pageErrors);
  const { Result: group } = await member<{ Result: { Id: string } }>('/api/v3?Action=CreateAssetGroup&Version=2024-01-01', { Name: GROUP_NAME });
  await options.getByRole('button', { name: 'Refresh groups' }).click();
  await expect.poll(() => options.locator('#groups-note').innerText(), { timeout: 30_000 }).toContain('1 group loaded.');
  // The proxy takes http:// media (ALLOW_HTTP_MEDIA=on), and the extension stored it at connect.
  expect((await member<{ media: { allowHttp: boolean } }>('/proxy/capabilities')).media.allowHttp).toBe(true);

  // --- The page: it signs the visitor in (a cookie) and makes its blobs. ---
  const page = await browser.context.newPage();
  page.on('pageerror', (error) => pageErrors.push(`capture page: ${error.message}`));
  const pageUrl = `${media.url}/capture-page/${encodeURIComponent(GROUP_NAME)}`;
  await page.goto(pageUrl);
  await page.waitForFunction(() => document.documentElement.dataset.ready === '1');
  const src = await page.evaluate(() => {
    const of = (id: string) => (document.getElementById(id) as HTMLImageElement | HTMLVideoElement).currentSrc || (document.getElementById(id) as HTMLImageElement).src;
    return { data: of('data-image'), blob: of('blob-image'), private: of('private-image'), http: of('http-image'), video: of('video'), bigVideo: of('big-video') };
  });
  expect(src.data).toMatch(/^data:image\/png;base64,/);
  expect(src.blob).toMatch(/^blob:http:\/\/127\.0\.0\.1:\d+\//);
  expect(src.bigVideo).toMatch(/^blob:/);
  // Without the page's cookie the private image is refused: the service could not download it.
  expect((await fetch(src.private)).status).toBe(403);

  await grantActiveTab(browser, pageUrl);
  const tabId = await tabIdOf(browser, pageUrl);
  expect(tabId, 'the activeTab grant shows the tab to the extension').toBeGreaterThanOrEqual(0);
  const click = (mediaType: 'image' | 'video', srcUrl: string) => clickMenu(browser, { menuItemId: `arkbridge-media/group:${group.Id}`, mediaType, srcUrl, pageUrl }, { id: tabId, title: GROUP_NAME });

  // --- While http:// is taken: the four the service cannot fetch are uploaded, the public video linked. ---
  const stages: string[] = [];
  const sentSeen: number[] = [];
  const watching = (async () => {
    // The big video's stages as the item shows them (the read from the page, then the upload).
    for (let i = 0; i < 400 && !stages.includes('uploaded'); i++) {
      const big = (await readAssets()).find((a) => a.capture?.how === 'upload' && a.capture.source === src.bigVideo);
      const stage = big?.capture?.how === 'upload' ? big.capture.stage : undefined;
      if (stage && stages.at(-1) !== stage) stages.push(stage);
      const sent = big?.capture?.how === 'upload' ? big.capture.sent : undefined;
      if (sent !== undefined && sentSeen.at(-1) !== sent) sentSeen.push(sent);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  })();
  await click('image', src.data);
  await click('image', src.blob);
  await click('image', src.private);
  await click('video', src.video);
  await click('video', src.bigVideo);
  await watching;
  let rows = await settled(5);

  // --- A proxy that takes no http://: the plain-http image is uploaded too. ---
  await setAllowHttp(false);
  await click('image', src.http);
  rows = await settled(6);

  const bySource = (source: string) => rows.find((r) => (r.capture?.how === 'upload' ? r.capture.source : r.url) === source);
  const expected = [
    { source: src.blob, how: 'upload', reason: 'blob', type: 'Image', bytes: await readFile(join(MEDIA_FIXTURES_DIR, 'sample.jpg')) },
    { source: src.private, how: 'upload', reason: 'signin', type: 'Image', bytes: await readFile(join(MEDIA_FIXTURES_DIR, 'sample.png')) },
    { source: src.video, how: 'link', type: 'Video' },
    { source: src.bigVideo, how: 'upload', reason: 'blob', type: 'Video', size: 8 * 1024 * 1024 },
    { source: src.http, how: 'upload', reason: 'http', type: 'Image', bytes: await readFile(join(MEDIA_FIXTURES_DIR, 'sample.jpg')) },
  ] as const;
  const dataRow = rows.find((r) => r.capture?.how === 'upload' && r.capture.reason === 'data');
  expect(dataRow, JSON.stringify(rows)).toMatchObject({ status: 'Active', type: 'Image', capture: { how: 'upload', stage: 'uploaded', contentType: 'image/png', size: 7739 } });
  for (const item of expected) {
    const row = bySource(item.source);
    expect(row, item.source).toBeDefined();
    expect(row!.status, `${item.source}: ${row!.error}`).toBe('Active');
    expect(row!.type).toBe(item.type);
    expect(row!.capture).toMatchObject(item.how === 'link' ? { how: 'link' } : { how: 'upload', reason: item.reason, stage: 'uploaded' });
    if ('bytes' in item) expect(row!.capture).toMatchObject({ size: item.bytes.length });
    if ('size' in item) expect(row!.capture).toMatchObject({ size: item.size, contentType: 'video/mp4' });
  }

  // Chrome's service worker has no XMLHttpRequest: the uploads went through the offscreen document,
  // which counts the bytes sent (the item's "Uploading: 3 MB of 8 MB").
  const offscreen = await browser.serviceWorker.evaluate(async () => {
    const runtime = (globalThis as unknown as { chrome: { runtime: { getContexts(filter: object): Promise<{ documentUrl?: string }[]> } } }).chrome.runtime;
    return (await runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'] })).map((c) => new URL(c.documentUrl ?? '').pathname);
  });
  expect(offscreen).toEqual(['/offscreen.html']);

  // --- The proxy kept exactly the uploads; the library's URLs say which path each took. ---
  const { uploads } = await member<{ uploads: UploadRow[] }>('/proxy/uploads');
  const uploadedRows = rows.filter((r) => r.capture?.how === 'upload');
  // Captures of the same bytes share one upload (the proxy answers the one it keeps): one per id.
  const byUpload = new Map(uploadedRows.map((r) => [(r.capture as { uploadId: string }).uploadId, (r.capture as { size: number }).size]));
  expect(byUpload.size).toBeLessThan(uploadedRows.length);
  expect(uploads.map((u) => u.id).sort()).toEqual([...byUpload.keys()].sort());
  expect(uploads.map((u) => u.size).sort((a, b) => a - b)).toEqual([...byUpload.values()].sort((a, b) => a - b));
  const { Result: listed } = await member<{ Result: { Items: { Id: string; URL: string; Status: string }[] } }>('/api/v3?Action=ListAssets&Version=2024-01-01', {
    Filter: { GroupIds: [group.Id] },
    PageSize: 100,
  });
  expect(listed.Items).toHaveLength(6);
  for (const row of rows) {
    const item = listed.Items.find((i) => i.Id === row.assetId)!;
    expect(item.Status).toBe('Active');
    if (row.capture?.how === 'upload') expect(item.URL.startsWith(`${proxy.url}/media/u-`), item.URL).toBe(true);
    else expect(item.URL).toBe(src.video);
  }

  // --- The popup says in each item what happened. ---
  const popup = await openExtensionPage(browser, 'popup.html', pageErrors);
  await popup.setViewportSize({ width: 420, height: 600 });
  await popup.getByRole('listbox').getByRole('option').filter({ hasText: GROUP_NAME }).click();
  // The list view (the grid of thumbnails is the default) says how each item came.
  await popup.getByRole('button', { name: 'List' }).click();
  await popup.getByRole('listbox', { name: `Assets of ${GROUP_NAME}` }).getByRole('option').first().waitFor({ state: 'visible', timeout: 15_000 });
  await expect.poll(() => popup.getByText('Saved by link').count(), { timeout: 10_000 }).toBe(1);
  expect(await popup.getByText('Uploaded 7.6 KB (the site needs sign-in)').count()).toBe(1);
  expect(await popup.getByText('Uploaded 8 MB (only the page can read it)').count()).toBe(1);
  expect(await popup.getByText(/the proxy takes no http:\/\/ links/).count()).toBe(1);
  await popup.screenshot({ path: join(SCREENSHOTS, 'popup-uploads.png'), fullPage: true });

  expect(pageErrors).toEqual([]);
  console.info(`capture-upload e2e: big video stages seen ${JSON.stringify(stages)}, bytes sent seen ${JSON.stringify(sentSeen)}; uploads ${JSON.stringify(uploads.map((u) => [u.contentType, u.size]))}`);
  await Promise.all([page.close(), options.close(), popup.close()]);
});
