/**
 * The popup before any connection, in English and in Simplified Chinese (the browser's language
 * decides; the Chinese strings are a chunk of their own, loaded before the first render), and what
 * its first paint loads: within 34 KB gzipped, the other views and the proxy client being chunks
 * loaded on demand (the proxy client right after the first paint, with the Library's refresh).
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { buildExtension, REPO_ROOT } from './support/build-extension';
import { bundleSize, describeBundle, gzipTotal, POPUP_FIRST_PAINT_BUDGET_GZIP } from './support/bundle-size';
import { launchExtension, type LaunchedExtension } from './support/chromium';

let browser: LaunchedExtension | undefined;

afterEach(async () => {
  await browser?.close();
  browser = undefined;
});

async function openPopup(locale?: string) {
  browser = await launchExtension(await buildExtension(), locale ? { locale } : {});
  const page = await browser.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  await page.goto(`chrome-extension://${browser.extensionId}/popup.html`);
  await page.getByRole('heading', { name: 'Arkbridge' }).waitFor({ state: 'visible', timeout: 10_000 });
  const screenshots = join(REPO_ROOT, 'test-results', 'screenshots');
  await mkdir(screenshots, { recursive: true });
  return { page, errors, screenshots };
}

test('the popup opens and asks to connect first', async () => {
  const { page, errors, screenshots } = await openPopup();
  expect(await page.getByRole('alert').innerText()).toContain('Connect Arkbridge to your team');
  expect(await page.getByRole('button', { name: 'Open options' }).isVisible()).toBe(true);
  await page.screenshot({ path: join(screenshots, 'popup-smoke.png') });
  expect(errors).toEqual([]);
});

test('in a Simplified Chinese browser the popup speaks Chinese', async () => {
  const { page, errors, screenshots } = await openPopup('zh-CN');
  expect(await page.evaluate(() => [navigator.language, document.documentElement.lang])).toEqual(['zh-CN', 'zh-CN']);
  expect(await page.getByRole('alert').innerText()).toMatch(/[\u4e00-\u9fff]/);
  expect(await page.getByRole('alert').innerText()).not.toContain('Connect Arkbridge');
  await page.screenshot({ path: join(screenshots, 'popup-smoke-zh-CN.png') });
  expect(errors).toEqual([]);
});

test("the popup loads at most 34 KB gzipped up front; the other tabs, an asset's detail and the proxy client on demand", async () => {
  const size = bundleSize(await buildExtension(), 'popup.html');
  console.info(describeBundle('popup.html', size));
  expect(gzipTotal(size.initial)).toBeLessThanOrEqual(POPUP_FIRST_PAINT_BUDGET_GZIP);
  const onDemand = size.lazy.map((f) => f.path);
  for (const part of ['GenerateView', 'TasksView', 'PortraitView', 'AssetDetail', 'qrcode', 'zh-CN', 'library-remote']) {
    expect(onDemand.some((path) => path.startsWith(`chunks/${part}-`)), `${part} is a chunk loaded on demand`).toBe(true);
  }
});
