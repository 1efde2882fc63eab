/**
 * The sandbox's real-person (portrait) H5 page, driven in Chromium with a phone-sized viewport:
 * consent, simulated liveness check, group name and description, then resolution through the
 * signed asset library interface (calls made with the independent spec client).
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { signedCall } from '../../scripts/spec-client';
import { axeViolations, describeViolations } from './support/axe';
import { REPO_ROOT } from './support/build-extension';
import { findChromium } from './support/chromium';
import { startSandbox, type Sandbox } from '../support/sandbox';

const DEV = { accessKeyId: 'AKSANDBOXDEV', secretAccessKey: 'sandbox-dev-secret-key' };
const OTHER = { accessKeyId: 'AKSANDBOXOTHER', secretAccessKey: 'sandbox-other-secret-key' };
const SCREENSHOTS = join(REPO_ROOT, 'test-results', 'screenshots');

interface Session { H5Link: string; PartnerToken: string; ExpiresIn: number; ExpireTime: string }
interface AssetItem { Id: string; GroupId: string; AssetType: string; Status: string }

let sandbox: Sandbox;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  await mkdir(SCREENSHOTS, { recursive: true });
  [sandbox, browser] = await Promise.all([
    startSandbox(),
    chromium.launch({
      executablePath: findChromium(),
      headless: true,
      args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-gpu'],
    }),
  ]);
  context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
});

afterAll(async () => {
  await context?.close().catch(() => {});
  await browser?.close().catch(() => {});
  await sandbox?.stop();
});

/** Saves a screenshot of the phone page and checks it with axe (WCAG 2 A/AA): a person must be able to complete it. */
async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `h5-${name}.png`), fullPage: true });
  const violations = await axeViolations(page);
  expect(violations, `${name}:\n${describeViolations(violations)}`).toEqual([]);
}

/** Opens a page that records script errors and failed requests, for a final check. */
async function openPage(url: string): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  // Failed responses by URL; the browser's own /favicon.ico probe is not the page's concern.
  page.on('response', (r) => r.status() >= 400 && new URL(r.url()).pathname !== '/favicon.ico' && problems.push(`HTTP ${r.status()} ${r.url()}`));
  page.on('console', (msg) => msg.type() === 'error' && !/Failed to load resource/.test(msg.text()) && problems.push(`console: ${msg.text()}`));
  const res = await page.goto(url);
  expect(res?.status()).toBe(200);
  return { page, problems };
}

test('a person completes the H5 flow and the creator resolves the real-person group', async () => {
  const session = await signedCall<Session>(sandbox.url, DEV, 'CreatePortraitSession', { ContinuousCreate: false });
  expect(session.H5Link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/h5\/portrait\//);
  expect(session.ExpiresIn).toBeGreaterThan(0);
  expect(Date.parse(session.ExpireTime)).toBeGreaterThan(Date.now());

  // Before the phone flow: ValidationError ("retry later").
  await expect(signedCall(sandbox.url, DEV, 'ResolvePartnerToken', { PartnerToken: session.PartnerToken })).rejects.toMatchObject({ code: 'ValidationError' });

  const { page, problems } = await openPage(session.H5Link);
  expect(await page.locator('#rules').innerText()).toContain('Authorization');
  expect(await page.locator('#rules').innerText()).toContain('Personal information');
  const consent = page.locator('#consent');
  const start = page.getByRole('button', { name: 'Start liveness check' });
  expect(await consent.isChecked()).toBe(false);
  expect(await start.isDisabled()).toBe(true);
  await shot(page, '1-authorization');

  await consent.check();
  expect(await start.isEnabled()).toBe(true);
  await shot(page, '2-consent');

  await start.click();
  await page.locator('#capture').waitFor({ state: 'visible' });
  await shot(page, '3-liveness');
  await page.locator('#details').waitFor({ state: 'visible', timeout: 10_000 });

  const groupName = `H5 person ${Date.now()}`;
  await page.locator('#name').fill(groupName);
  await page.locator('#description').fill('Entered on the phone page in the e2e test.');
  await shot(page, '4-details');
  await page.getByRole('button', { name: 'Finish' }).click();
  await page.locator('#done').waitFor({ state: 'visible', timeout: 10_000 });
  expect(await page.locator('#done').innerText()).toContain('Authorization is complete');
  await shot(page, '5-done');
  expect(problems).toEqual([]);

  // Only the creating account may resolve; then the creator gets the group entered on the phone.
  await expect(signedCall(sandbox.url, OTHER, 'ResolvePartnerToken', { PartnerToken: session.PartnerToken })).rejects.toMatchObject({ code: 'AccessDenied' });
  const resolved = await signedCall<{ GroupId: string; GroupName: string; GroupDescription: string }>(sandbox.url, DEV, 'ResolvePartnerToken', { PartnerToken: session.PartnerToken });
  expect(resolved).toMatchObject({ GroupName: groupName, GroupDescription: 'Entered on the phone page in the e2e test.' });
  expect(resolved.GroupId).toMatch(/\S/);

  // The session is single use.
  await expect(signedCall(sandbox.url, DEV, 'ResolvePartnerToken', { PartnerToken: session.PartnerToken })).rejects.toMatchObject({ code: 'ValidationError' });

  const group = await signedCall<{ GroupType: string; Name: string }>(sandbox.url, DEV, 'GetAssetGroup', { Id: resolved.GroupId });
  expect(group).toMatchObject({ GroupType: 'LivenessFace', Name: groupName });
  const assets = await signedCall<{ Items: AssetItem[]; TotalCount: number }>(sandbox.url, DEV, 'ListAssets', {
    Filter: { GroupIds: [resolved.GroupId], GroupType: 'LivenessFace' },
  });
  const active = assets.Items.filter((a) => a.GroupId === resolved.GroupId && a.AssetType === 'Image' && a.Status === 'Active');
  expect(active.length).toBeGreaterThanOrEqual(1);

  // The page now reports the completed session instead of offering the flow again.
  await page.reload();
  expect(await page.locator('#notice').innerText()).toContain('Authorization is complete');
  expect(await page.locator('#start').count()).toBe(0);
  await page.close();
});

test('an expired session shows the expired message and cannot be completed or resolved', async () => {
  const session = await signedCall<Session>(sandbox.url, DEV, 'CreatePortraitSession', {});
  const res = await fetch(`${sandbox.url}/sandbox/clock`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ advanceSeconds: session.ExpiresIn + 100 }) });
  expect(res.status).toBe(200);

  const { page, problems } = await openPage(session.H5Link);
  expect(await page.locator('body').innerText()).toContain('This QR code has expired');
  expect(await page.locator('#start').count()).toBe(0);
  expect(await page.locator('#details').count()).toBe(0);
  await shot(page, '6-expired');
  expect(problems).toEqual([]);
  await page.close();

  const complete = await fetch(`${sandbox.url}/sandbox/portrait/complete`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ H5Link: session.H5Link, GroupName: 'Too late', GroupDescription: '' }),
  });
  expect(complete.ok).toBe(false);
  await expect(signedCall(sandbox.url, DEV, 'ResolvePartnerToken', { PartnerToken: session.PartnerToken })).rejects.toMatchObject({ code: 'ValidationError' });
});
