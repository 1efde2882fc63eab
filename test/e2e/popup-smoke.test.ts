import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildExtension, REPO_ROOT } from './support/build-extension';
import { launchExtension, type LaunchedExtension } from './support/chromium';

let browser: LaunchedExtension;

beforeAll(async () => {
  browser = await launchExtension(await buildExtension());
});

afterAll(async () => {
  await browser?.close();
});

test('the popup opens and shows the Arkbridge heading', async () => {
  const page = await browser.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));

  await page.goto(`chrome-extension://${browser.extensionId}/popup.html`);
  const heading = page.getByRole('heading', { name: 'Arkbridge' });
  await heading.waitFor({ state: 'visible', timeout: 10_000 });
  expect(await heading.isVisible()).toBe(true);

  const screenshots = join(REPO_ROOT, 'test-results', 'screenshots');
  await mkdir(screenshots, { recursive: true });
  await page.screenshot({ path: join(screenshots, 'popup-smoke.png') });

  expect(errors).toEqual([]);
});
