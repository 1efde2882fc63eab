/**
 * The popup end to end in Chromium: the built extension, connected through its options page to a
 * proxy in front of the sandbox (both started here). In the popup a member creates a group, adds an
 * image to it through the background's context-menu handler and watches it become Active;
 * generates a video with it as a reference and watches progress reach completion and the player
 * load the MP4; fails a task on purpose (a reference that cannot be downloaded) and sees the
 * element the error names; and runs the real-person flow: consent, QR code, the phone page opened
 * in a second tab and completed, the new group in the library; then once more with the popup
 * closed while the person is on the phone, so that the background resolves the code.
 *
 * Each screen is saved to test-results/screenshots/popup-*.png and checked with axe (WCAG 2 A/AA:
 * no violations). The popup's bundle size and its first-paint time are printed; what the first
 * paint loads (the files asked for before its mark) must fit in 34 KB gzipped (the time is a number
 * to watch, not pass/fail).
 */
import { writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { AdminClient } from '../../scripts/lib/admin-client';
import { startMediaServer, type MediaServer } from '../support/media-server';
import { startProxy, startSandbox, TEST_PROXY_SECRETS, type Server } from '../support/sandbox';
import { buildExtension, REPO_ROOT } from './support/build-extension';
import { axeViolations, describeViolations } from './support/axe';
import { bundleSize, describeBundle, describeFiles, gzipTotal, measure, POPUP_FIRST_PAINT_BUDGET_GZIP } from './support/bundle-size';
import { launchExtension, type LaunchedExtension } from './support/chromium';
import { clickMenu, connectThroughOptions, openExtensionPage, readStore, tabIdOf } from './support/extension';
import { watch } from '../support/poll-until';

const SCREENSHOTS = join(REPO_ROOT, 'test-results', 'screenshots');
const MEMBER = 'Popup tester';
const GROUP_NAME = 'Moodboard';
const MODEL = 'doubao-seedance-2-0-260128';
/** The popup's size in Chrome's toolbar (its CSS sets the width; the height is the browser's limit). */
const POPUP_VIEWPORT = { width: 420, height: 600 };

let media: MediaServer | undefined;
let sandbox: Server | undefined;
let proxy: Server | undefined;
let browser: LaunchedExtension | undefined;
let extensionDir: string;
let memberToken: string;
const pageErrors: string[] = [];

beforeAll(async () => {
  await mkdir(SCREENSHOTS, { recursive: true });
  media = await startMediaServer();
  // Assets become Active after 2 s; a video takes 8 s, long enough to watch its progress.
  sandbox = await startSandbox({ SANDBOX_ASSET_SECONDS: '2', SANDBOX_VIDEO_SECONDS: '8' });
  proxy = await startProxy(sandbox.url);
  const added = await new AdminClient(proxy.url, TEST_PROXY_SECRETS.ADMIN_TOKEN).add(MEMBER);
  memberToken = added.token;
  // A price for the model and a budget for the member: the popup shows what is left and what a task cost.
  const admin = (path: string, body: unknown) =>
    fetch(`${proxy!.url}${path}`, { method: 'PUT', headers: { Authorization: `Bearer ${TEST_PROXY_SECRETS.ADMIN_TOKEN}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  expect((await admin('/admin/prices', { currency: 'CNY', models: { [MODEL]: { '*': 0.2 } } })).status).toBe(200);
  expect((await admin(`/admin/members/${added.id}/budget`, { limit: 10, period: 'month' })).status).toBe(200);
  extensionDir = await buildExtension({ WXT_DEFAULT_PROXY_URL: proxy.url });
  // The floor of first paint on this machine: an extension page with one line of text and no script
  // (this file's private copy of the build only).
  writeFileSync(join(extensionDir, 'blank.html'), '<!doctype html><html lang="en"><meta charset="utf-8"><title>Blank</title><p>Arkbridge</p></html>');
  browser = await launchExtension(extensionDir);
});

afterAll(async () => {
  // Each step on its own: one failing stop must not leave the others running.
  await browser?.close().catch(() => {});
  await proxy?.stop().catch(() => {});
  await sandbox?.stop().catch(() => {});
  await media?.close().catch(() => {});
});

/** Accessibility violations (axe, WCAG 2 A/AA) of every screen shot, by screen. */
const accessibility: string[] = [];

/** Saves a screenshot of the screen and checks its accessibility. */
async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `popup-${name}.png`), fullPage: true });
  const violations = await axeViolations(page);
  if (violations.length) accessibility.push(`${name}:\n${describeViolations(violations)}`);
}

async function openPopup(beforeLoad?: (page: Page) => void): Promise<Page> {
  const popup = await openExtensionPage(browser!, 'popup.html', pageErrors, beforeLoad);
  await popup.setViewportSize(POPUP_VIEWPORT);
  await popup.getByRole('heading', { name: 'Arkbridge' }).waitFor({ state: 'visible', timeout: 15_000 });
  return popup;
}

const tab = (popup: Page, name: string) => popup.getByRole('tab', { name, exact: true }).click();

/** The Tasks tab's entry for the newest task (the list is newest first). */
const newestTask = (popup: Page): Locator => popup.getByRole('list', { name: 'Video tasks, newest first' }).getByRole('listitem').first();

interface PaintTiming {
  /** First contentful paint. */
  fcp: number | null;
  /** The popup's own mark: the first frame showing what IndexedDB holds. */
  shown: number | null;
  domContentLoaded: number | null;
  /** performance.timeOrigin (ms since the epoch), to place the page's requests against the mark. */
  origin: number;
}

/** Runs in a page: its first contentful paint (ms from navigation start), waiting up to 5 s for it. */
async function readFirstContentfulPaint(): Promise<number | null> {
  for (let i = 0; i < 100 && !performance.getEntriesByName('first-contentful-paint').length; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  return performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null;
}

/** Runs in the popup: waits for its first-paint mark and the browser's paint entry, then reads both. */
async function readPaintTiming(): Promise<PaintTiming> {
  const mark = 'arkbridge:first-data-paint';
  const ready = () => performance.getEntriesByName(mark).length > 0 && performance.getEntriesByName('first-contentful-paint').length > 0;
  for (let i = 0; i < 100 && !ready(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  return {
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
    shown: performance.getEntriesByName(mark)[0]?.startTime ?? null,
    domContentLoaded: nav?.domContentLoadedEventEnd ?? null,
    origin: performance.timeOrigin,
  };
}


/** What the person does on their phone: agree, the liveness check, name and description, finish. */
async function completeOnPhone(h5Link: string, groupName: string, screenshot?: string): Promise<void> {
  const phone = await browser!.context.newPage();
  await phone.setViewportSize({ width: 390, height: 844 });
  await phone.goto(h5Link);
  await phone.locator('#consent').check();
  await phone.getByRole('button', { name: 'Start liveness check' }).click();
  await phone.locator('#details').waitFor({ state: 'visible', timeout: 15_000 });
  await phone.locator('#name').fill(groupName);
  await phone.locator('#description').fill('Consent recorded in the popup test.');
  await phone.getByRole('button', { name: 'Finish' }).click();
  await phone.locator('#done').waitFor({ state: 'visible', timeout: 15_000 });
  if (screenshot) await phone.screenshot({ path: join(SCREENSHOTS, screenshot), fullPage: true });
  await phone.close();
}

test('popup: group, capture, generate to completion, a named failure, and the real-person flow', async () => {
  const options = await connectThroughOptions(browser!, proxy!.url, memberToken, pageErrors);
  await options.close();

  // --- Library: create a group in the popup. ---
  const popup = await openPopup();
  expect(await popup.getByText(`Connected as ${MEMBER}`).isVisible()).toBe(true);
  // Settings opens the options page.
  const [settings] = await Promise.all([browser!.context.waitForEvent('page'), popup.getByRole('button', { name: 'Settings' }).click()]);
  await settings.waitForURL(/options\.html/);
  await settings.close();
  await tab(popup, 'Library');
  await popup.getByText('No groups yet.').waitFor({ state: 'visible', timeout: 15_000 });
  await shot(popup, '01-library-empty');
  await popup.getByRole('button', { name: 'New group' }).click();
  await popup.getByLabel('Group name').fill(GROUP_NAME);
  await popup.getByLabel('Description').fill('References for the spring campaign.');
  await shot(popup, '02-new-group');
  await popup.getByRole('button', { name: 'Create group' }).click();
  await popup.getByRole('heading', { name: GROUP_NAME }).waitFor({ state: 'visible', timeout: 15_000 });
  // The list view (the grid of thumbnails is the default): each row says its status, Active included.
  await popup.getByRole('button', { name: 'List' }).click();
  const group = (await readStore(browser!, 'groups')).find((g) => g.name === GROUP_NAME);
  expect(group, 'the new group is stored in IndexedDB').toMatchObject({ type: 'AIGC' });

  // --- Add an image from a web page through the context-menu handler; it turns Active in the popup. ---
  const pageUrl = `${media!.url}/page/${encodeURIComponent('Spring references')}`;
  const page = await browser!.context.newPage();
  await page.goto(pageUrl);
  const imageUrl = await page.evaluate(() => (document.getElementById('image') as HTMLImageElement).currentSrc);
  await clickMenu(browser!, { menuItemId: `arkbridge-media/group:${group!.id}`, mediaType: 'image', srcUrl: imageUrl, pageUrl }, { id: await tabIdOf(browser!, pageUrl), title: 'Spring references' });
  const asset = (await readStore(browser!, 'assets')).find((a) => a.url === imageUrl);
  expect(asset, 'the click is recorded at once').toMatchObject({ groupId: group!.id });
  const row = popup.getByRole('listbox').getByRole('option').filter({ hasText: asset!.name });
  const rowStatuses = await watch(
    async () => ((await row.count()) ? (await row.locator('.chip').first().innerText()).trim() : ''),
    (status) => status === 'Active',
    60_000,
  );
  expect(rowStatuses.last, `statuses shown: ${JSON.stringify(rowStatuses.seen)}`).toBe('Active');
  expect(rowStatuses.seen).toContain('Processing');
  await shot(popup, '03-asset-active');

  // --- The asset's page: preview and readiness per model; "Use in Generate" takes it to the form. ---
  await row.click();
  await popup.getByRole('heading', { name: 'Model readiness' }).waitFor({ state: 'visible', timeout: 15_000 });
  const readiness = popup.locator('section[aria-labelledby="library-readiness-title"]');
  await readiness.getByText('Ready').first().waitFor({ state: 'visible', timeout: 15_000 });
  expect(await readiness.innerText()).toContain('Seedance 2.0');
  await shot(popup, '04-asset-detail');
  await popup.getByRole('button', { name: 'Use in Generate' }).click();

  // --- Generate with the asset as reference image. ---
  const model = popup.getByLabel('Model', { exact: true });
  await model.waitFor({ state: 'visible', timeout: 30_000 });
  await model.selectOption(MODEL);
  expect(await popup.getByRole('button', { name: 'Remove Reference image 1' }).count(), 'the asset is reference image 1').toBe(1);
  await popup.getByLabel('Prompt', { exact: true }).fill('A slow dolly shot across the reference picture, spring light.');
  await popup.getByLabel('Duration (s)').fill('5');
  const panel = popup.getByRole('tabpanel');
  await panel.evaluate((el) => el.scrollTo(0, 0));
  await shot(popup, '05-generate-form');
  await panel.evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await shot(popup, '06-generate-submit');
  const submit = popup.getByRole('button', { name: 'Generate video' });
  expect(await submit.isEnabled()).toBe(true);
  await submit.click();

  // --- Tasks: progress, then completion with a player that loads the MP4. ---
  const task = newestTask(popup);
  await task.waitFor({ state: 'visible', timeout: 15_000 });
  const stored = (await readStore(browser!, 'tasks'))[0];
  expect(stored?.idempotencyKey, 'the task and its key are stored before the request').toMatch(/\S/);
  let progressShot = false;
  const taskStatuses = await watch(
    async () => {
      const status = (await task.locator('.task__status').innerText()).trim();
      if (!progressShot && /^Generating [1-9]/.test(status)) {
        progressShot = true;
        await shot(popup, '07-task-progress');
      }
      return status;
    },
    (status) => status === 'Completed' || status === 'Failed',
    60_000,
  );
  expect(taskStatuses.last, `statuses shown: ${JSON.stringify(taskStatuses.seen)}`).toBe('Completed');
  expect(taskStatuses.seen.some((s) => /^Generating \d+%$/.test(s)), `statuses shown: ${JSON.stringify(taskStatuses.seen)}`).toBe(true);
  const player = task.getByLabel('Generated video');
  await player.waitFor({ state: 'visible' });
  await popup.waitForFunction(
    (el) => (el as HTMLVideoElement).readyState >= 1 && (el as HTMLVideoElement).videoWidth > 0,
    await player.elementHandle(),
    { timeout: 20_000 },
  );
  const video = await player.evaluate((el) => ({ src: (el as HTMLVideoElement).currentSrc, width: (el as HTMLVideoElement).videoWidth, height: (el as HTMLVideoElement).videoHeight, duration: (el as HTMLVideoElement).duration }));
  // The proxy's kept copy (its media store), not the service's 24-hour link.
  expect(video.src).toMatch(new RegExp(`^${proxy!.url}/media/o-m[0-9a-f]{16}-cgt-[\\w-]+\\?expires=\\d+&sig=[0-9a-f]{64}$`));
  // Seedance 2.0 at its default size, 720p 16:9 (the sandbox makes the size asked).
  expect(video).toMatchObject({ width: 1248, height: 704 });
  expect(video.duration).toBeGreaterThan(1);
  expect(await task.getByRole('button', { name: 'Download' }).isVisible()).toBe(true);
  expect(await task.getByText(/^Kept until /).isVisible()).toBe(true);
  expect(await task.getByText(/Links expire about 24 hours/).count()).toBe(0);
  // 5 s at 0.2 CNY a second, reserved against the 10 CNY budget at the create.
  expect(await task.getByText('1 CNY').isVisible()).toBe(true);
  expect(await popup.locator('.budget__line').innerText()).toContain('9 CNY left of 10 CNY this month');
  await shot(popup, '08-task-completed');

  // --- "Your video is ready": a click on the notification opens the popup on Tasks. ---
  await tab(popup, 'Library');
  const taskId = (await readStore(browser!, 'tasks'))[0]!.localId;
  const opened = browser!.context.waitForEvent('page', { predicate: (p) => p.url().endsWith('/popup.html'), timeout: 15_000 });
  await browser!.serviceWorker.evaluate(async (id) => {
    const seam = (globalThis as unknown as { arkbridge: { onNotificationClick(id: string): Promise<void> } }).arkbridge;
    await seam.onNotificationClick(`task-${id}`);
  }, taskId);
  const fromNotification = await opened;
  await fromNotification.getByRole('tab', { name: 'Tasks', selected: true }).waitFor({ state: 'visible', timeout: 15_000 });
  await fromNotification.close();
  await tab(popup, 'Tasks');

  // --- A task that fails on purpose: its second reference image cannot be downloaded. ---
  await tab(popup, 'Generate');
  await popup.getByLabel('Prompt', { exact: true }).waitFor({ state: 'visible', timeout: 15_000 });
  // The form was kept: the library asset is still reference image 1.
  expect(await popup.getByRole('button', { name: 'Remove Reference image 1' }).count()).toBe(1);
  const unreachable = `${media!.url}/status/404`;
  await popup.getByLabel('Reference URL').fill(unreachable);
  await popup.getByRole('button', { name: 'Add URL' }).click();
  await popup.getByRole('button', { name: 'Remove Reference image 2' }).waitFor({ state: 'visible' });
  await popup.getByRole('button', { name: 'Generate video' }).click();
  const failing = newestTask(popup);
  await failing.getByText('Failed', { exact: true }).waitFor({ state: 'visible', timeout: 60_000 });
  expect(await failing.locator('.task__error').innerText()).toMatch(/^Problem with Reference image 2:.*download failed/s);
  const named = failing.locator('.task__line--named');
  expect(await named.count()).toBe(1);
  expect(await named.innerText()).toContain('Reference image 2');
  expect(await named.innerText()).toContain(unreachable);
  expect(await named.getAttribute('aria-current')).toBe('true');
  // The library reference reads as the asset's name.
  expect(await failing.locator('.task__line').filter({ hasText: 'Reference image 1' }).innerText()).toContain(`${asset!.name} (library, asset://`);
  expect(await failing.getByRole('button', { name: 'Submit again' }).isVisible()).toBe(true);
  await shot(popup, '09-task-failed');
  const tasksBefore = (await readStore(browser!, 'tasks')).length;
  expect(tasksBefore).toBe(2);

  // --- Real person: nothing happens before consent; then the QR code, completed on a "phone". ---
  await tab(popup, 'Real person');
  const start = popup.getByRole('button', { name: 'Record consent and show QR code' });
  await start.waitFor({ state: 'visible', timeout: 15_000 });
  expect(await popup.getByText('Authorization and personal-information rules').isVisible()).toBe(true);
  expect(await start.isDisabled()).toBe(true);
  await shot(popup, '10-portrait-rules');
  await popup.getByLabel('I have shown these rules to the person and they agree').check();
  await start.click();
  const qr = popup.getByRole('img', { name: 'QR code for the phone authorization page' });
  await qr.waitFor({ state: 'visible', timeout: 30_000 });
  expect(await qr.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  expect(await popup.getByRole('timer').innerText()).toMatch(/^Code expires in \d/);
  const h5Link = await popup.getByLabel('Phone link').inputValue();
  expect(h5Link).toMatch(/\/h5\/portrait\//);
  expect(h5Link, 'the partner token stays on the proxy').not.toMatch(/PartnerToken|token=/i);
  await shot(popup, '11-portrait-qr');

  const personGroup = `Actor ${Date.now()}`;
  await completeOnPhone(h5Link, personGroup, 'popup-12-phone-done.png');

  await popup.getByText('The real-person group was created.').waitFor({ state: 'visible', timeout: 30_000 });
  // The heading shows while the group is being saved; the group's details follow.
  await popup.locator('.portrait-group dd').first().waitFor({ state: 'visible', timeout: 30_000 });
  expect(await popup.locator('.portrait-group dd').first().innerText()).toBe(personGroup);
  await popup.getByRole('button', { name: 'Done' }).waitFor({ state: 'visible' });
  await shot(popup, '13-portrait-resolved');
  const personRecord = (await readStore(browser!, 'groups')).find((g) => g.name === personGroup);
  expect(personRecord, 'the real-person group is stored in IndexedDB').toMatchObject({ type: 'LivenessFace' });

  // --- Again, but the member closes the popup while the person is on the phone: the background finishes. ---
  await popup.getByRole('button', { name: 'Done' }).click();
  await popup.getByLabel('I have shown these rules to the person and they agree').check();
  await popup.getByRole('button', { name: 'Record consent and show QR code' }).click();
  await qr.waitFor({ state: 'visible', timeout: 30_000 });
  const laterLink = await popup.getByLabel('Phone link').inputValue();
  expect(laterLink).not.toBe(h5Link);
  await popup.close();
  const laterGroup = `Stand-in ${Date.now()}`;
  await completeOnPhone(laterLink, laterGroup);
  await expect
    .poll(async () => (await readStore(browser!, 'groups')).find((g) => g.name === laterGroup)?.type, { timeout: 30_000, message: 'the background resolves the code' })
    .toBe('LivenessFace');
  await expect.poll(async () => (await readStore(browser!, 'assets')).filter((a) => a.name.startsWith(laterGroup)).length, { timeout: 10_000 }).toBeGreaterThan(0);

  const library = await openPopup();
  await tab(library, 'Library');
  const allGroups = library.getByRole('button', { name: '← All groups' });
  if (await allGroups.count()) await allGroups.click();
  for (const name of [personGroup, laterGroup]) {
    const personRow = library.getByRole('listbox').getByRole('option').filter({ hasText: name });
    await personRow.waitFor({ state: 'visible', timeout: 15_000 });
    expect(await personRow.innerText()).toContain('Real person');
  }
  await shot(library, '14-library-groups');
  await library.close();
  await page.close();

  // --- Numbers: the popup's bundle and its first paint from IndexedDB (a fresh page). ---
  // The first paint's files: those the page asked for before its first paint of saved data (the
  // mark); what it loads after (the proxy client, for the refresh) is printed apart.
  const loaded: Request[] = [];
  const origin = `chrome-extension://${browser!.extensionId}/`;
  const recordLoads = (page: Page) => page.on('request', (request) => request.url().startsWith(origin) && loaded.push(request));
  const timings: PaintTiming[] = [];
  const blankFcps: number[] = [];
  for (let run = 0; run < 5; run++) {
    const again = await openPopup(run === 0 ? recordLoads : undefined);
    timings.push(await again.evaluate(readPaintTiming));
    if (run === 0) await shot(again, '15-reopened');
    await again.close();
    // Interleaved with the popup's openings, so that both meet the same load.
    const blank = await openExtensionPage(browser!, 'blank.html', pageErrors);
    const fcp = await blank.evaluate(readFirstContentfulPaint);
    if (fcp !== null) blankFcps.push(fcp);
    await blank.close();
  }
  expect(timings.every((t) => t.shown !== null), 'the popup marks its first paint of saved data').toBe(true);
  const median = (key: keyof PaintTiming) => {
    const values = timings.map((t) => t[key]).filter((v): v is number => v !== null).sort((a, b) => a - b);
    return values.length ? `${values[Math.floor(values.length / 2)]!.toFixed(0)} ms` : 'n/a';
  };
  const markAt = timings[0]!.origin + timings[0]!.shown!;
  // Request start from the browser's own timing (ms since the epoch; -1 when unknown: counted as before).
  const beforeMark = (request: Request) => request.timing().startTime <= markAt;
  const pathsOf = (requests: Request[]) => [...new Set(requests.map((r) => new URL(r.url()).pathname.slice(1)))];
  const firstPaintFiles = pathsOf(loaded.filter(beforeMark)).map((path) => measure(extensionDir, path));
  const afterFiles = pathsOf(loaded.filter((r) => !beforeMark(r))).filter((path) => !firstPaintFiles.some((f) => f.path === path)).map((path) => measure(extensionDir, path));
  console.info(`popup first paint (Library tab) loaded ${describeFiles(firstPaintFiles)}: ${firstPaintFiles.map((f) => f.path).join(', ')}`);
  if (afterFiles.length) console.info(`then, after the first paint: ${describeFiles(afterFiles)}: ${afterFiles.map((f) => f.path).join(', ')}`);
  console.info(describeBundle('popup.html', bundleSize(extensionDir, 'popup.html')));
  console.info(
    `popup first paint, median of ${timings.length} openings from navigation start (headless Chromium): ` +
      `first contentful paint ${median('fcp')}, saved library shown ${median('shown')}, DOMContentLoaded ${median('domContentLoaded')}`,
  );
  const fcps = timings.map((t) => t.fcp).filter((v): v is number => v !== null).sort((a, b) => a - b);
  const middle = (values: number[]) => (values.length ? values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!.toFixed(0) : 'n/a');
  console.info(
    `perf: popup first contentful paint ${middle(fcps)} ms, median of ${timings.length} openings (target 100 ms); ` +
      `a blank extension page (one line of text, no script) ${middle(blankFcps)} ms in the same run`,
  );
  expect(gzipTotal(firstPaintFiles), `the popup's first paint within ${POPUP_FIRST_PAINT_BUDGET_GZIP / 1024} KB gzipped`).toBeLessThanOrEqual(POPUP_FIRST_PAINT_BUDGET_GZIP);
  expect(accessibility, `accessibility problems (axe, WCAG 2 A/AA):\n${accessibility.join('\n')}`).toEqual([]);
  console.info(`popup e2e: asset statuses ${JSON.stringify(rowStatuses.seen)}; task statuses ${JSON.stringify(taskStatuses.seen)}`);

  expect(pageErrors).toEqual([]);
});

/**
 * Scrolls `list` 600 px a frame for 120 frames, after 120 idle frames (this machine's baseline):
 * frame times at p50/p95, and the most rows in the page meanwhile (a list's items, a grid's rows).
 */
async function measureScroll(list: Locator) {
  return list.evaluate(async (element) => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    const stats = (frames: number[]) => {
      const sorted = [...frames].sort((a, b) => a - b);
      return { p50: sorted[Math.floor(sorted.length / 2)]!, p95: sorted[Math.floor(sorted.length * 0.95)]! };
    };
    /** Frame times of 120 frames, doing `step` before each. */
    const measure = async (step: () => void) => {
      const frames: number[] = [];
      await frame();
      let last = performance.now();
      for (let i = 0; i < 120; i++) {
        step();
        await frame();
        const now = performance.now();
        frames.push(now - last);
        last = now;
      }
      return stats(frames);
    };
    let maxRows = 0;
    // The same page doing nothing: this machine's baseline frame time.
    const idle = await measure(() => {});
    const scrolling = await measure(() => {
      element.scrollTop += 600;
      maxRows = Math.max(maxRows, new Set([...element.querySelectorAll<HTMLElement>('[role="option"]')].map((o) => o.dataset.row)).size);
    });
    return { idle, scrolling, maxRows, scrollTop: element.scrollTop };
  });
}

/**
 * What the page's main thread does per frame while `list` scrolls `step` px a frame for 60 frames,
 * from Chromium's performance trace (devtools.timeline): per frame, the time in script (the scroll
 * events and the renders they cause), style, layout, paint and image decoding, and how many of
 * each ran. Printed: it says whether a scroll frame does more than move rows.
 */
async function traceScroll(list: Locator, step: number): Promise<string> {
  const page = list.page();
  const session = await page.context().newCDPSession(page);
  const events: { name: string; ph: string; dur?: number; tid: number; pid: number; args?: { data?: { type?: string } } }[] = [];
  session.on('Tracing.dataCollected', (e) => void events.push(...(e.value as unknown as typeof events)));
  const done = new Promise<void>((resolve) => session.once('Tracing.tracingComplete', () => resolve()));
  await session.send('Tracing.start', { transferMode: 'ReportEvents', traceConfig: { includedCategories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] } });
  const frames = 60;
  await list.evaluate(
    async (element, { count, by }) => {
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      for (let i = 0; i < count; i++) {
        element.scrollTop += by;
        await frame();
      }
    },
    { count: frames, by: step },
  );
  await session.send('Tracing.end');
  await done;
  await session.detach();
  // The page's main thread: the one that dispatched the scroll events.
  const scrollEvent = events.find((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'scroll');
  if (!scrollEvent) return 'no scroll event in the trace';
  const main = events.filter((e) => e.pid === scrollEvent.pid && e.tid === scrollEvent.tid && e.ph === 'X');
  const kinds: [string, (name: string) => boolean][] = [
    ['scroll handlers', (n) => n === 'EventDispatch'],
    ['script', (n) => n === 'FunctionCall' || n === 'EvaluateScript' || n === 'TimerFire' || n === 'FireAnimationFrame' || n === 'RunMicrotasks' || n === 'v8.callFunction'],
    ['style', (n) => n === 'UpdateLayoutTree' || n === 'RecalculateStyles'],
    ['layout', (n) => n === 'Layout'],
    ['pre-paint', (n) => n === 'PrePaint'],
    ['paint', (n) => n === 'Paint'],
    ['layerize', (n) => n === 'Layerize'],
    ['image decode', (n) => n === 'Decode Image' || n === 'ImageDecodeTask' || n === 'Decode LazyPixelRef'],
    ['gc', (n) => n === 'MinorGC' || n === 'MajorGC' || n === 'V8.GC_SCAVENGER' || n === 'BlinkGC.AtomicPhase'],
  ];
  const busy = main.filter((e) => e.name === 'RunTask').reduce((sum, e) => sum + (e.dur ?? 0), 0) / 1000;
  const parts = kinds.map(([label, is]) => {
    const hits = main.filter((e) => is(e.name));
    const ms = hits.reduce((sum, e) => sum + (e.dur ?? 0), 0) / 1000;
    return `${label} ${(ms / frames).toFixed(2)} ms (${(hits.length / frames).toFixed(1)}×)`;
  });
  const dispatched = new Map<string, number>();
  for (const e of main) if (e.name === 'EventDispatch') dispatched.set(e.args?.data?.type ?? '?', (dispatched.get(e.args?.data?.type ?? '?') ?? 0) + 1);
  const eventsPerFrame = [...dispatched].map(([type, n]) => `${type} ${(n / frames).toFixed(1)}×`).join(', ');
  return `main thread busy ${(busy / frames).toFixed(2)} ms a frame; ${parts.join(', ')}; events dispatched: ${eventsPerFrame}`;
}

test('popup: a group of 10,000 assets opens from IndexedDB and scrolls with a handful of rows in the page', async () => {
  // Runs after the flow above (same browser, connected): 10,000 more assets in "Moodboard", written
  // straight into IndexedDB, and the library marked fresh so that no refresh replaces them.
  const group = (await readStore(browser!, 'groups')).find((g) => g.name === GROUP_NAME);
  expect(group, 'the flow above created the group').toBeDefined();
  const COUNT = 10_000;
  await browser!.serviceWorker.evaluate(
    ({ groupId, count, mediaUrl }) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('arkbridge');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const database = open.result;
          const tx = database.transaction(['assets', 'settings'], 'readwrite');
          const assets = tx.objectStore('assets');
          const now = Date.now();
          for (let i = 0; i < count; i++) {
            const id = String(i).padStart(5, '0');
            assets.put({
              localId: `scale-${id}`,
              assetId: `asset-scale-${id}`,
              groupId,
              name: `Reference ${id}`,
              // Each its own address, as in a real library: thumbnails load as rows come into view.
              url: `${mediaUrl}/media/sample.png?n=${id}`,
              type: 'Image',
              status: i % 50 === 0 ? 'Failed' : 'Active',
              error: i % 50 === 0 ? 'Download of the reference failed: HTTP 404.' : undefined,
              idempotencyKey: `scale-${id}`,
              notified: true,
              createdAt: now - count + i,
              updatedAt: now,
            });
          }
          tx.objectStore('settings').put(Date.now(), 'libraryRefreshedAt');
          tx.oncomplete = () => {
            database.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    { groupId: group!.id, count: COUNT, mediaUrl: media!.url },
  );

  const popup = await openPopup();
  // The list first, as a member who chose it has it remembered (the grid, the default, comes after).
  await popup.evaluate(() => localStorage.setItem('arkbridge.library.layout', 'list'));
  await tab(popup, 'Library');
  const allGroups = popup.getByRole('button', { name: '← All groups' });
  if (await allGroups.count()) await allGroups.click();
  // Timed in the page: from the click on the group to the frame after its first asset row is in the DOM.
  const groupRow = popup.getByRole('listbox').getByRole('option').filter({ hasText: GROUP_NAME });
  await groupRow.waitFor({ state: 'visible' });
  const openMs = await groupRow.evaluate(
    (row, label) =>
      new Promise<number>((resolve) => {
        const start = performance.now();
        const shown = () => document.querySelector(`[role="listbox"][aria-label="${label}"] [role="option"]`) !== null;
        const poll = () => (shown() ? requestAnimationFrame(() => resolve(performance.now() - start)) : requestAnimationFrame(poll));
        (row as HTMLElement).click();
        poll();
      }),
    `Assets of ${GROUP_NAME}`,
  );
  const list = popup.getByRole('listbox', { name: `Assets of ${GROUP_NAME}` });
  await list.getByRole('option').first().waitFor({ state: 'visible', timeout: 15_000 });
  expect(await popup.getByText(`${COUNT + 1} assets`).count()).toBe(1);

  const scroll = await measureScroll(list);
  const listTrace = [await traceScroll(list, 600), await traceScroll(list, 100)];
  expect(scroll.scrollTop).toBeGreaterThan(0);
  // Virtualised: only the rows in view (and a few around them) exist in the page.
  expect(scroll.maxRows).toBeLessThan(60);

  // At the very end, the last rows are there.
  await list.evaluate((element) => (element.scrollTop = element.scrollHeight));
  await expect.poll(() => list.evaluate((element) => Math.max(...[...element.querySelectorAll('[role="option"]')].map((o) => Number(o.getAttribute('aria-posinset'))))), { timeout: 5_000 }).toBe(COUNT + 1);
  await shot(popup, '16-library-10000-assets');

  // The same group as a grid of thumbnails: rows of several items, still only those in view.
  await popup.getByRole('button', { name: 'Grid' }).click();
  const grid = popup.locator('#library-assets.vlist--grid');
  await grid.getByRole('option').first().waitFor({ state: 'visible', timeout: 5_000 });
  const gridScroll = await measureScroll(grid);
  const gridTrace = [await traceScroll(grid, 600), await traceScroll(grid, 100)];
  expect(gridScroll.scrollTop).toBeGreaterThan(0);
  expect(gridScroll.maxRows).toBeLessThan(20);
  // Images only for the items in view: at most three rows of them (the rendered rows beyond have none).
  const columns = await grid.evaluate((element) => new Set([...element.querySelectorAll<HTMLElement>('[role="option"]')].map((o) => o.style.left)).size);
  expect(await grid.locator('img').count()).toBeLessThanOrEqual(4 * columns);
  await grid.evaluate((element) => (element.scrollTop = 0));
  // The thumbnails in view arrive (the media server answers each address).
  await expect
    .poll(() => grid.locator('img').evaluateAll((images) => images.filter((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0).length), { timeout: 10_000 })
    .toBeGreaterThan(0);
  await shot(popup, '17-library-10000-assets-grid');
  await popup.screenshot({ path: join(SCREENSHOTS, 'library-grid.png') });
  // Back to the list: the choice is remembered for the next opening.
  await popup.getByRole('button', { name: 'List' }).click();
  await popup.close();
  expect(accessibility, `accessibility problems (axe, WCAG 2 A/AA):\n${accessibility.join('\n')}`).toEqual([]);
  console.info(
    `popup with ${COUNT + 1} assets in a group: list shown ${openMs.toFixed(0)} ms after the click; scrolling 120 frames: ` +
      `frame time p50 ${scroll.scrolling.p50.toFixed(1)} ms, p95 ${scroll.scrolling.p95.toFixed(1)} ms ` +
      `(the same page idle: p50 ${scroll.idle.p50.toFixed(1)} ms, p95 ${scroll.idle.p95.toFixed(1)} ms); at most ${scroll.maxRows} rows in the page`,
  );
  console.info(
    `popup grid with ${COUNT + 1} assets (${columns} columns): scrolling 120 frames: frame time p50 ${gridScroll.scrolling.p50.toFixed(1)} ms, ` +
      `p95 ${gridScroll.scrolling.p95.toFixed(1)} ms (idle: p50 ${gridScroll.idle.p50.toFixed(1)} ms); at most ${gridScroll.maxRows} rows in the page`,
  );
  // The targets (printed, not asserted: machines vary): shown within 100 ms, no dropped frame while scrolling.
  const within = (scrolling: { p95: number }, idle: { p95: number }) =>
    `${scrolling.p95.toFixed(1)} ms vs idle p95 ${idle.p95.toFixed(1)} ms (+${(scrolling.p95 - idle.p95).toFixed(1)} ms; target within 1 ms of idle)`;
  console.info(`perf: group of ${COUNT + 1} shown in ${openMs.toFixed(0)} ms after the click (target 100 ms)`);
  console.info(`perf: list scroll p95 ${within(scroll.scrolling, scroll.idle)}`);
  console.info(`perf: grid scroll p95 ${within(gridScroll.scrolling, gridScroll.idle)}`);
  // What a scroll frame does (a fling of 600 px a frame, and 100 px a frame as a wheel does), printed.
  for (const [what, traces] of [['list', listTrace], ['grid', gridTrace]] as const) {
    console.info(`perf: ${what} scroll, per frame of 600 px (60 frames, Chromium's trace): ${traces[0]}`);
    console.info(`perf: ${what} scroll, per frame of 100 px (60 frames, Chromium's trace): ${traces[1]}`);
  }
  expect(pageErrors).toEqual([]);
});
