/**
 * Screenshots and video frames end to end in Chromium: the built extension, connected to a proxy in
 * front of the sandbox, captures a region the member drags over a scrolled page (the overlay in the
 * page, the crop in the service worker), the visible area, the frame of a same-origin video (its
 * own pixels, at its own size) and of a cross-origin video without CORS (a tainted canvas: the
 * visible tab cropped to the video's box instead), and a region again under DevTools' device
 * emulation (a page ratio of 2 over a screenshot at 1: the crop follows the screenshot). Each is
 * uploaded through the proxy and ends Active in the default group; the bytes the service got are
 * checked: a PNG of the expected size and, for the regions, of the block's colour.
 *
 * Native menus cannot be clicked in headless Chromium, and a click is what grants activeTab (which
 * `tabs.captureVisibleTab` needs: host access to the page would not do): the test grants it as the
 * toolbar button does, through the DevTools protocol (as capture-upload.test.ts), then calls the
 * background's menu handler through the service worker.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startMediaServer, type MediaServer } from '../support/media-server';
import { REPO_ROOT } from './support/build-extension';
import { connectThroughOptions, grantActiveTab, readNotifications, readStore, recordNotifications, tabIdOf, uploadOf } from './support/extension';
import { clickCapture, pngSize, shareOfColour } from './support/screen-capture';
import { useLocalStack } from './support/local-stack';
import type { AssetRecord } from '@/lib/storage/records/asset-record';

const PAGE_TITLE = 'Capture test';
const SCREENSHOTS = join(REPO_ROOT, 'test-results', 'screenshots');
/** The coloured block the region is dragged over. */
const BLOCK_RGB: [number, number, number] = [220, 40, 60];


/** A second origin, for a video the page shows without CORS. */
let otherOrigin: MediaServer;
const stack = useLocalStack({ member: 'Capture tester', chromiumArgs: ['--enable-unsafe-extension-debugging'] });
const pageErrors: string[] = [];

beforeAll(async () => {
  otherOrigin = await startMediaServer();
});

afterAll(async () => {
  await otherOrigin?.close().catch(() => {});
});

const readAssets = () => readStore(stack().browser, 'assets');

/** A member call to the proxy. */
const member = <T>(path: string, body?: unknown) => stack().asMember<T>(path, body);

/** Waits until `count` records exist and all are final; answers them. */
async function settled(count: number): Promise<AssetRecord[]> {
  const deadline = Date.now() + 60_000;
  let rows: AssetRecord[] = [];
  while (Date.now() < deadline) {
    rows = await readAssets();
    if (rows.length === count && rows.every((r) => r.status === 'Active' || r.status === 'Failed')) return rows;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`not settled: ${JSON.stringify(rows.map((r) => [r.name, r.status, r.error, r.capture]))}`);
}

/** The bytes the service got for a record: its asset's URL is the proxy's signed address of the upload. */
async function uploadedBytes(row: AssetRecord): Promise<Uint8Array> {
  const { Result } = await member<{ Result: { Items: { Id: string; URL: string; Status: string }[] } }>('/api/v3?Action=ListAssets&Version=2024-01-01', {
    Filter: { GroupIds: [row.groupId] },
    PageSize: 100,
  });
  const item = Result.Items.find((i) => i.Id === row.assetId);
  expect(item, row.name).toBeDefined();
  expect(item!.Status).toBe('Active');
  expect(item!.URL.startsWith(`${stack().proxy.url}/media/u-`), item!.URL).toBe(true);
  const res = await fetch(item!.URL);
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

test('a dragged region, the visible area and video frames (same-origin, and cross-origin without CORS) end Active as PNGs', async () => {
  const { media, proxy, browser, memberToken } = stack();
  const options = await connectThroughOptions(browser, proxy.url, memberToken, pageErrors);

  // --- The page, scrolled: a coloured block in view, the video at a display size unlike its own. ---
  const page = await browser.context.newPage();
  page.on('pageerror', (error) => pageErrors.push(`capture page: ${error.message}`));
  const pageUrl = `${media.url}/page/${encodeURIComponent(PAGE_TITLE)}`;
  await page.goto(pageUrl);
  await page.bringToFront();
  await page.evaluate(
    ([r, g, b]) => {
      document.body.style.cssText = 'margin:0;min-height:3000px;background:#fff';
      const block = Object.assign(document.createElement('div'), { id: 'block' });
      block.style.cssText = `position:absolute;left:100px;top:700px;width:240px;height:160px;background:rgb(${r},${g},${b})`;
      document.body.append(block);
      const video = document.getElementById('video') as HTMLVideoElement;
      video.removeAttribute('controls');
      video.style.cssText = 'position:absolute;left:400px;top:640px;width:480px;height:270px;object-fit:fill';
      scrollTo(0, 500);
    },
    BLOCK_RGB,
  );
  const scrolled = await page.evaluate(() => ({ y: scrollY, dpr: devicePixelRatio, width: innerWidth, height: innerHeight }));
  expect(scrolled.y).toBe(500);
  // Playwright's pages are 1 device pixel per CSS pixel; case (5) emulates 2.
  expect(scrolled.dpr).toBe(1);

  await grantActiveTab(browser, pageUrl);
  const tabId = await tabIdOf(browser, pageUrl);
  expect(tabId, 'the activeTab grant shows the tab to the extension').toBeGreaterThanOrEqual(0);
  await recordNotifications(browser);
  const tab = { id: tabId, title: PAGE_TITLE };

  // --- Escape closes the overlay: nothing captured, nothing said. ---
  const overlay = page.locator('[data-arkbridge-region]');
  const cancelled = clickCapture(browser, { menuItemId: 'arkbridge-capture-region', pageUrl }, tab);
  await overlay.waitFor({ state: 'attached', timeout: 10_000 });
  await page.keyboard.press('Escape');
  await cancelled;
  expect(await overlay.count()).toBe(0);
  expect(await readAssets()).toEqual([]);
  expect(await readNotifications(browser)).toEqual([]);

  // --- (1) A region: the overlay, a drag over the block (viewport 120,220 → 320,340), the crop. ---
  const region = clickCapture(browser, { menuItemId: 'arkbridge-capture-region', pageUrl }, tab);
  await overlay.waitFor({ state: 'attached', timeout: 10_000 });
  await expect.poll(() => overlay.getAttribute('aria-label')).toBe('Arkbridge: select a region to capture');
  await page.mouse.move(120, 220);
  await page.mouse.down();
  await page.mouse.move(220, 280, { steps: 4 });
  await page.mouse.move(320, 340, { steps: 4 });
  await page.screenshot({ path: join(SCREENSHOTS, 'region-select.png') });
  expect(await page.evaluate(() => document.querySelector('[data-arkbridge-region]')!.shadowRoot!.querySelector('.size')!.textContent)).toBe('200 × 120');
  await page.mouse.up();
  await region;
  expect(await overlay.count(), 'the overlay removed itself').toBe(0);
  expect(await page.evaluate(() => scrollY), 'the page did not move').toBe(500);

  // --- (2) The visible area. ---
  await clickCapture(browser, { menuItemId: 'arkbridge-capture-visible', pageUrl }, tab);

  // --- (3) A same-origin video's frame: its own pixels, 320 × 180. ---
  const hasPicture = () => page.waitForFunction(() => {
    const video = document.getElementById('video') as HTMLVideoElement;
    return video.readyState >= 2 && !video.seeking && video.videoWidth > 0;
  }, undefined, { timeout: 15_000 });
  expect(await page.evaluate(() => document.createElement('video').canPlayType('video/mp4; codecs="avc1.42E01E"'))).not.toBe('');
  const videoSrc = await page.evaluate(() => {
    const video = document.getElementById('video') as HTMLVideoElement;
    video.preload = 'auto';
    video.currentTime = 0.5; // a seek loads a picture (preload is only metadata by default)
    return video.currentSrc;
  });
  await hasPicture();
  expect(videoSrc).toBe(`${media.url}/media/sample.mp4`);
  await clickCapture(browser, { menuItemId: 'arkbridge-capture-frame', mediaType: 'video', srcUrl: videoSrc, pageUrl }, tab);

  // --- (4) The same video from another origin without CORS: a tainted canvas, so the screen's pixels of its box. ---
  const crossSrc = `${otherOrigin.url}/media/sample.mp4`;
  await page.evaluate((src) => {
    const video = document.getElementById('video') as HTMLVideoElement;
    video.src = src;
    video.currentTime = 0.5;
  }, crossSrc);
  await hasPicture();
  const tainted = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.getContext('2d')!.drawImage(document.getElementById('video') as HTMLVideoElement, 0, 0);
    try {
      canvas.toDataURL();
      return false;
    } catch {
      return true;
    }
  });
  expect(tainted, 'the cross-origin video taints a canvas').toBe(true);
  await clickCapture(browser, { menuItemId: 'arkbridge-capture-frame', mediaType: 'video', srcUrl: crossSrc, pageUrl }, tab);

  // --- (5) DevTools' device mode: the page says 2 device pixels per CSS pixel, the screenshot stays
  // at the screen's 1. The crop follows the screenshot's own scale: the block, 160 × 100. ---
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setDeviceMetricsOverride', { width: scrolled.width, height: scrolled.height, deviceScaleFactor: 2, mobile: false });
  expect(await page.evaluate(() => devicePixelRatio)).toBe(2);
  const emulatedRegion = clickCapture(browser, { menuItemId: 'arkbridge-capture-region', pageUrl }, tab);
  await overlay.waitFor({ state: 'attached', timeout: 10_000 });
  await page.mouse.move(130, 230);
  await page.mouse.down();
  await page.mouse.move(290, 330, { steps: 4 });
  await page.mouse.up();
  await emulatedRegion;
  await cdp.send('Emulation.clearDeviceMetricsOverride');
  await cdp.detach();

  // --- Each ends Active, uploaded as PNG, in the default group; the notifications say where. ---
  const rows = await settled(5);
  for (const row of rows) expect(row.status, `${row.name}: ${row.error}`).toBe('Active');
  expect(new Set(rows.map((r) => r.groupId)).size, 'one group: the default one, made by the first capture').toBe(1);
  const shots = rows.filter((r) => uploadOf(r)?.reason === 'screenshot');
  const frames = rows.filter((r) => uploadOf(r)?.reason === 'frame');
  expect(shots).toHaveLength(3);
  expect(frames).toHaveLength(2);
  for (const row of shots) expect(row.name).toMatch(/^Screenshot of Capture test \d{4}-\d\d-\d\d \d\d:\d\d$/);
  for (const row of frames) expect(row.name).toMatch(/^Frame of Capture test at 0:00$/);
  const notes = await readNotifications(browser);
  expect(notes.filter((n) => n.id === 'arkbridge-snapshot').map((n) => n.title)).toEqual(Array(5).fill('Saved to Web captures'));

  const sized = await Promise.all(
    rows.map(async (row) => {
      const bytes = await uploadedBytes(row);
      return { row, bytes, size: pngSize(bytes) };
    }),
  );
  const sizes = sized.map((s) => s.size);
  const regionShot = sized.find((s) => s.size?.width === 200 && s.size.height === 120);
  expect(regionShot, `a 200 × 120 region among ${JSON.stringify(sizes)}`).toBeDefined();
  expect(uploadOf(regionShot!.row)?.reason).toBe('screenshot');
  expect(await shareOfColour(page, regionShot!.bytes, BLOCK_RGB)).toBeGreaterThan(0.97);
  const emulatedShot = sized.find((s) => s.size?.width === 160 && s.size.height === 100);
  expect(emulatedShot, `a 160 × 100 region (emulated ratio 2) among ${JSON.stringify(sizes)}`).toBeDefined();
  expect(await shareOfColour(page, emulatedShot!.bytes, BLOCK_RGB)).toBeGreaterThan(0.97);
  const visible = sized.find((s) => uploadOf(s.row)?.reason === 'screenshot' && s !== regionShot && s !== emulatedShot)!;
  expect(visible.size).toEqual({ width: scrolled.width, height: scrolled.height });
  // The block is 240 × 160 of the viewport.
  const blockShare = (240 * 160) / (scrolled.width * scrolled.height);
  expect(await shareOfColour(page, visible.bytes, BLOCK_RGB)).toBeGreaterThan(blockShare * 0.9);
  const frameSizes = sized.filter((s) => uploadOf(s.row)?.reason === 'frame').map((s) => s.size);
  expect(frameSizes).toContainEqual({ width: 320, height: 180 }); // the video's own pixels
  expect(frameSizes).toContainEqual({ width: 480, height: 270 }); // the screen's, of its box

  expect(pageErrors).toEqual([]);
  console.info(`screen-capture e2e: viewport ${scrolled.width} × ${scrolled.height}, PNGs ${JSON.stringify(sizes)}`);
  await Promise.all([page.close(), options.close()]);
});
