/**
 * The studio (studio.html) in Firefox ESR, the Firefox MV3 build on the local stack, connected
 * through its options page over CORS (firefox.test.ts): a three-shot storyboard whose shots 2 and 3
 * start from the previous shot's last frame, run to `completed`; a batch of four seeds, quoted and
 * launched; two takes compared and one chosen; the storyboard exported, its MP4 read with
 * mediabunny in Node and decoded by Firefox (H.264 through the system's libavcodec); a chained
 * two-shot run that the background finishes with the studio closed (studio-runs.test.ts in
 * Chromium), reached from the options page since Firefox's background is an event page.
 * Last, the themes: the four pages light in this Firefox, dark in one launched with a dark system
 * theme (DARK_THEME_PREFS), axe clean in both. Screenshots: test-results/screenshots/firefox-studio-*.png.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { beforeAll, expect, test } from 'vitest';
import { createOutputSize } from '../../shared/catalog/output-size';
import type { BatchRecord, StoryboardRecord } from '@/lib/storage/records/studio-records';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import { watch } from '../support/poll-until';
import { buildExtension, REPO_ROOT } from './support/build-extension';
import { axeViolations, describeViolations } from './support/axe';
import { backgroundPass, clickButton, DARK_THEME_PREFS, launchFirefox, type LaunchedFirefox, openExtensionTabs, readNotifications, recordNotifications, textOf } from './support/firefox';
import { useLocalStack } from './support/local-stack';
import { readStoreInPage } from './support/read-store-in-page';
import { bodyBackgroundInPage, DARK, LIGHT, luminance, THEMED_PAGES } from './support/theme';
import { bytesOf, FRAME_SECONDS, keepBlobsInPage, lastMp4InPage, mp4Facts, playLastMp4InPage, priceStudioModel, sandboxCreates, stillsInPage, storyboardPlayInPage, STUDIO_MODEL, timeExportInPage, untilDone } from './support/studio';

const SCREENSHOTS = join(REPO_ROOT, 'test-results', 'screenshots');
const MEMBER = 'Firefox studio tester';
const RUN_PROMPTS = ['A kite lifts off a beach.', 'The kite climbs into the clouds.'] as const;
const PROMPTS = ['Shot A: a lighthouse at dawn, slow push in.', 'Shot B: the lamp turns, gulls cross the frame.', 'Shot C: the camera rises above the clouds.'];

const stack = useLocalStack({ browser: 'firefox', member: MEMBER });
const pageErrors: string[] = [];
/** axe's findings (WCAG 2 A/AA), by page and theme. */
const accessibility: string[] = [];
let studio: Page;

beforeAll(async () => {
  await mkdir(SCREENSHOTS, { recursive: true });
  await priceStudioModel(stack().proxy.url);
});

const screenshot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `firefox-studio-${name}.png`), fullPage: true });
const storyboards = () => studio.evaluate(readStoreInPage, 'storyboards') as Promise<StoryboardRecord[]>;
const batches = () => studio.evaluate(readStoreInPage, 'batches') as Promise<BatchRecord[]>;
const tasksById = async () => new Map(((await studio.evaluate(readStoreInPage, 'tasks')) as TaskRecord[]).map((t) => [t.localId, t]));
const count = (selector: string) => studio.evaluate((s) => document.querySelectorAll(s).length, selector);
const until = async (what: string, check: () => Promise<boolean>, timeoutMs = 15_000, shown = '.studio-panel') => {
  const seen = await watch(check, Boolean, timeoutMs);
  if (!seen.last) throw new Error(`not reached in ${timeoutMs} ms: ${what}; the page shows: ${(await textOf(studio, shown)).replace(/\s+/g, ' ').slice(0, 1500)}`);
};

/**
 * Sets a field as typing does (Preact listens to `input`), in one step: cleared and typed apart, a
 * render in between could put the old value back before the typing (a seed count of 4 became 44).
 */
async function fill(selector: string, value: string): Promise<void> {
  await studio.waitForSelector(selector, { timeout: 15_000 });
  await studio.$eval(
    selector,
    (el, text) => {
      const field = el as HTMLInputElement | HTMLTextAreaElement;
      Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), 'value')!.set!.call(field, text);
      field.dispatchEvent(new Event('input', { bubbles: true }));
    },
    value,
  );
  if ((await studio.$eval(selector, (el) => (el as HTMLInputElement).value)) !== value) throw new Error(`${selector} does not hold ${value}`);
}

/** Connects the extension in `firefox` through its options page, over CORS, as the member. */
async function connect(firefox: LaunchedFirefox): Promise<void> {
  const { proxy, memberToken } = stack();
  const options = await firefox.openExtensionPage('options.html', pageErrors);
  await options.waitForSelector('#proxy-url', { timeout: 15_000 });
  await options.$eval('#proxy-url', (el) => ((el as HTMLInputElement).value = ''));
  await options.type('#proxy-url', proxy.url);
  await options.type('#member-token', memberToken);
  await clickButton(options, 'Connect');
  await options.waitForSelector('#groups-note', { timeout: 30_000 });
  expect(await textOf(options, 'main')).toContain(`Connected as ${MEMBER}`);
  await options.close();
}

/** Checks the page with axe (WCAG 2 A/AA); what it finds is kept for the themes test's verdict. */
async function checkAccessibility(page: Page, name: string): Promise<void> {
  const violations = await axeViolations(page);
  if (violations.length) accessibility.push(`${name}:\n${describeViolations(violations)}`);
}

test('connects over CORS and builds a chained three-shot storyboard, run to completed', async () => {
  const { firefox, sandbox } = stack();
  await connect(firefox);

  studio = await firefox.openExtensionPage('studio.html', pageErrors);
  await studio.evaluate(keepBlobsInPage);
  await studio.waitForSelector('[data-testid="new-storyboard"]', { timeout: 30_000 });
  await studio.click('[data-testid="new-storyboard"]');
  await studio.waitForSelector('#shot-model', { timeout: 15_000 });
  await studio.select('#shot-model', STUDIO_MODEL);
  await fill('[data-testid="shot-prompt"]', PROMPTS[0]!);
  // The rarely changed settings wait, closed, behind "More settings".
  expect(await studio.$eval('[data-testid="more-settings"]', (details) => (details as HTMLDetailsElement).open), '"More settings" closed by default').toBe(false);
  expect(await textOf(studio, '[data-testid="more-settings"] summary')).toMatch(/^More settings\s+\S/);
  for (const [i, prompt] of PROMPTS.slice(1).entries()) {
    const n = i + 2;
    await studio.click('[data-testid="add-shot"]');
    await until(`shot ${n} added`, async () => (await count('[data-testid="shot"]')) === n);
    await studio.click(`[data-shot="${n}"] .shot__title`);
    await until(`shot ${n} open`, async () => (await textOf(studio, '#shot-editor-title')) === `Shot ${n}`);
    await fill('[data-testid="shot-prompt"]', prompt);
    await studio.click('[data-testid="chain-toggle"]');
  }
  await until('the prompts and chains stored', async () => {
    const [board] = await storyboards();
    return JSON.stringify(board?.shots.map((s) => [s.form.prompt, s.chain])) === JSON.stringify(PROMPTS.map((p, i) => [p, i > 0]));
  });
  await screenshot(studio, '01-storyboard');

  const createsBefore = await sandboxCreates(sandbox.url);
  await studio.click('[data-testid="run-in-order"]');
  const statuses = async () => {
    const [board] = await storyboards();
    const tasks = await tasksById();
    return board!.shots.map((s) => (s.takes.length ? (tasks.get(s.takes.at(-1)!)?.status ?? 'missing') : s.queued ? 'queued' : 'idle'));
  };
  const settled = await untilDone(sandbox.url, statuses, (s) => s.every((x) => x === 'completed' || x === 'failed'), 90_000);
  expect(settled).toEqual(['completed', 'completed', 'completed']);
  expect(await sandboxCreates(sandbox.url)).toBe(createsBefore + 3);
  await until('the shots shown completed', async () => JSON.stringify(await studio.$$eval('[data-testid="shot-status"]', (els) => els.map((e) => e.textContent?.trim()))) === JSON.stringify(['Completed', 'Completed', 'Completed']));

  const [board] = await storyboards();
  const tasks = await tasksById();
  const takes = board!.shots.map((s) => tasks.get(s.takes[0]!)!);
  for (const n of [1, 2]) {
    const frame = takes[n - 1]!.keptLastFrameUrl ?? takes[n - 1]!.lastFrameUrl;
    expect(frame, `shot ${n} has a last frame`).toBeTruthy();
    const firstFrames = (takes[n]!.body.content ?? []).filter((c) => c.type === 'image_url' && (c as { role?: string }).role === 'first_frame');
    expect(firstFrames, `shot ${n + 1}'s create`).toEqual([expect.objectContaining({ image_url: { url: frame } })]);
  }
  // Shot 3's take plays in Firefox (H.264 through libavcodec).
  await studio.click('[data-shot="3"] .shot__title');
  // At the size shot 3 asked (the sandbox makes each video at its resolution and ratio).
  const width = createOutputSize(takes[2]!.body)!.width;
  await until('shot 3 player decoded', () => studio.evaluate((w) => [...document.querySelectorAll<HTMLVideoElement>('.shot-editor video')].some((v) => v.readyState >= 2 && v.videoWidth === w), width), 20_000);
  await screenshot(studio, '02-storyboard-completed');

  // Stills before anything plays (shot 3's take, each timeline card's head and tail), none black.
  await until('the stills taken', async () => (await count('.shot-editor video[data-still="ready"]')) === 1 && (await count('[data-testid="card-head"]')) === 3 && (await count('[data-testid="card-tail"]')) === 3, 30_000);
  const stills = await studio.evaluate(stillsInPage, '.shot-editor video, [data-testid="card-head"], [data-testid="card-tail"]');
  expect(stills).toHaveLength(7);
  for (const still of stills) expect(still.lit, `the still ${still.src} has content`).toBeGreaterThan(0.05);
  // Play storyboard: shot 1, then shot 2 when it ends, the highlight following.
  await studio.click('[data-testid="play-storyboard"]');
  const ids = board!.shots.map((s) => s.id);
  await until('shot 1 playing', async () => (await studio.evaluate(storyboardPlayInPage, false)).shot === ids[0]);
  await until('shot 2 playing after shot 1 ended', async () => (await studio.evaluate(storyboardPlayInPage, true)).shot === ids[1], 30_000);
  await screenshot(studio, '02-timeline-playing');
  await studio.click('[data-testid="stop-storyboard"]');
});

test('a batch of four seeds: the total quoted, four tasks launched', async () => {
  const { sandbox, asMember } = stack();
  await studio.click('#stab-batch');
  await studio.waitForSelector('#batch-model', { timeout: 15_000 });
  await studio.select('#batch-model', STUDIO_MODEL);
  await fill('[data-testid="batch-prompt"]', 'A paper boat drifts down a rainy street, close up.');
  await fill('[data-testid="batch-seeds"]', '4');
  await until('the total quoted', async () => /4 tasks[\s\S]*\d[\d.,]*\s*CNY/.test(await textOf(studio, '[data-testid="quote-total"]')));
  const shownText = await textOf(studio, '[data-testid="quote-total"]');
  await screenshot(studio, '03-batch-quoted');
  const createsBefore = await sandboxCreates(sandbox.url);
  await studio.click('[data-testid="launch-batch"]');
  await until('launched', async () => (await textOf(studio, '.batch')).includes('Batch launched: 4 tasks.'), 30_000);
  // (A create still unanswered is sent again by the queue: all four reach the sandbox.)
  await until('four creates reach the sandbox', async () => (await sandboxCreates(sandbox.url)) === createsBefore + 4, 30_000);
  const [batch] = await batches();
  const tasks = await tasksById();
  const bodies = batch!.takes.map((id) => tasks.get(id)!.body);
  const one = await asMember<{ cost: number }>('/proxy/quote', bodies[0]);
  expect(Number(/([\d.,]+)\s*CNY/.exec(shownText)![1]!.replace(/,/g, ''))).toBeCloseTo(4 * one.cost, 2);
  const settled = await untilDone(
    sandbox.url,
    async () => {
      const now = await tasksById();
      return batch!.takes.map((id) => now.get(id)?.status);
    },
    (s) => s.every((x) => x === 'completed' || x === 'failed'),
    60_000,
  );
  expect(settled).toEqual(['completed', 'completed', 'completed', 'completed']);
  await until('four players', async () => (await count('[data-testid="batch-cell"] video')) === 4);
  await screenshot(studio, '04-batch-grid');
});

test('compare two takes of the batch, played together; one chosen', async () => {
  await studio.click('#stab-compare');
  await studio.waitForSelector('#compare-source', { timeout: 15_000 });
  // It opens on the first source, shot 1 of the storyboard (one take): its player loads.
  await until('shot 1 shown in compare', () => studio.evaluate(() => [...document.querySelectorAll<HTMLVideoElement>('.compare-grid video')].some((v) => v.readyState >= 2)), 20_000);
  const value = await studio.$eval('#compare-source', (el) => [...(el as HTMLSelectElement).options].find((o) => o.value.startsWith('batch:'))?.value ?? '');
  expect(value).not.toBe('');
  await studio.select('#compare-source', value);
  await until('two players decoded', () => studio.evaluate(() => [...document.querySelectorAll<HTMLVideoElement>('.compare-grid video')].filter((v) => v.readyState >= 2).length === 2), 20_000);
  await studio.click('[data-testid="compare-play"]');
  await until('both playing', () => studio.evaluate(() => [...document.querySelectorAll<HTMLVideoElement>('.compare-grid video')].every((v) => v.currentTime > 0.3)));
  await studio.click('[data-testid="compare-play"]');
  await studio.evaluate(() => document.querySelectorAll<HTMLButtonElement>('[data-testid="compare-choose"]')[1]!.click());
  await until('the second take chosen', async () => (await count('.compare-cell:nth-child(2) [data-testid="chosen-mark"]')) === 1);
  const [batch] = await batches();
  expect(batch!.chosen).toBe(batch!.takes[1]);
  await screenshot(studio, '05-compare');
  await studio.click('#stab-history');
  await until('the history lists seven tasks', async () => (await textOf(studio, '.history')).includes('7 of 7 tasks'));
  await screenshot(studio, '06-history');
});

test('exports the storyboard: one MP4 as long as its clips, decoded in Firefox', async () => {
  await studio.click('#stab-storyboard');
  await studio.waitForSelector('[data-testid="export-button"]', { timeout: 15_000 });
  const exported = await studio.evaluate(timeExportInPage);
  const joinedInPage = Buffer.from(await studio.evaluate(lastMp4InPage), 'base64');
  expect(joinedInPage.length, `export: ${exported.text}`).toBeGreaterThan(1000);
  // The download Firefox saved (the downloads API, as the studio's own permission sees it): the same bytes.
  const download = await studio.evaluate(async () => {
    type Item = { filename: string; state: string; error?: string };
    const ext = (globalThis as unknown as { browser: { downloads: { search(q: object): Promise<Item[]> } } }).browser;
    for (let i = 0; i < 100; i++) {
      const [newest] = await ext.downloads.search({ orderBy: ['-startTime'], limit: 1 });
      if (newest && newest.state !== 'in_progress') return newest;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return null;
  });
  expect(download, `the download: ${JSON.stringify(download)}`).toMatchObject({ state: 'complete' });
  const mp4 = await readFile(download!.filename);
  expect(mp4.equals(joinedInPage), 'the downloaded file is the joined MP4').toBe(true);
  const [board] = await storyboards();
  const tasks = await tasksById();
  const clips = await Promise.all(board!.shots.map(async (s) => mp4Facts(await bytesOf(tasks.get(s.takes[0]!)!.keptUrl ?? tasks.get(s.takes[0]!)!.videoUrl!))));
  const sum = clips.reduce((total, clip) => total + clip.duration, 0);
  const joined = await mp4Facts(mp4);
  expect(Math.abs(joined.duration - sum)).toBeLessThanOrEqual(FRAME_SECONDS);
  const played = await studio.evaluate(playLastMp4InPage);
  expect(played.error).toBeNull();
  const asked = createOutputSize(tasks.get(board!.shots[0]!.takes[0]!)!.body)!;
  expect(played).toMatchObject({ width: asked.width, height: asked.height });
  expect(played.played).toBeGreaterThan(1);
  console.info(`firefox studio export: "${exported.text}" in ${exported.ms.toFixed(0)} ms; ${joined.duration.toFixed(3)} s joined from ${clips.map((c) => c.duration.toFixed(3)).join(' + ')} s; played to ${played.played.toFixed(2)} s`);
  expect(exported.text).toMatch(/^Exported \d/);
  await screenshot(studio, '07-exported');
  expect(pageErrors).toEqual([]);
});

test('a chained two-shot run completes with the studio closed, and the studio shows it finished', async () => {
  const { firefox, sandbox } = stack();
  // A page of the extension that is not the studio: the test reads the database and asks the
  // background for its passes from it while no studio is open.
  const probe = await firefox.openExtensionPage('options.html', pageErrors);
  const storyboardsNow = () => probe.evaluate(readStoreInPage, 'storyboards') as Promise<StoryboardRecord[]>;
  await recordNotifications(probe);
  await studio.click('[data-testid="new-storyboard"]');
  await until('storyboard 2 open', async () => (await count('[data-testid="shot"]')) === 1 && (await storyboards()).length === 2);
  const boardId = await studio.$eval('#board-choose', (el) => (el as HTMLSelectElement).value);
  const board = async () => (await storyboardsNow()).find((b) => b.id === boardId);
  await studio.waitForSelector('#shot-model', { timeout: 15_000 });
  await studio.select('#shot-model', STUDIO_MODEL);
  await fill('[data-testid="shot-prompt"]', RUN_PROMPTS[0]);
  await studio.click('[data-testid="add-shot"]');
  await until('shot 2 added', async () => (await count('[data-testid="shot"]')) === 2);
  await studio.click('[data-shot="2"] .shot__title');
  await until('shot 2 open', async () => (await textOf(studio, '#shot-editor-title')) === 'Shot 2');
  await fill('[data-testid="shot-prompt"]', RUN_PROMPTS[1]);
  await studio.click('[data-testid="chain-toggle"]');
  await until('the prompts and the chain stored', async () => JSON.stringify((await board())?.shots.map((s) => [s.form.prompt, s.chain])) === JSON.stringify([[RUN_PROMPTS[0], false], [RUN_PROMPTS[1], true]]));

  const before = await sandboxCreates(sandbox.url);
  await studio.click('[data-testid="run-in-order"]');
  await until('shot 1 created', async () => (await sandboxCreates(sandbox.url)) === before + 1, 20_000);
  await studio.close();
  expect((await openExtensionTabs(probe)).filter((href) => href.includes('studio.html')), 'no studio open').toEqual([]);

  // The studio is closed: the background alone follows shot 1, launches shot 2 from its last frame, and ends the run.
  const state = async () => {
    await recordNotifications(probe);
    await backgroundPass(probe);
    return (await board())?.run?.state;
  };
  expect(await untilDone(sandbox.url, state, (s) => s !== 'running', 90_000)).toBe('completed');
  expect(await sandboxCreates(sandbox.url), 'one create per shot').toBe(before + 2);
  const ended = (await board())!;
  const records = new Map(((await probe.evaluate(readStoreInPage, 'tasks')) as TaskRecord[]).map((t) => [t.localId, t]));
  const [first, second] = ended.shots.map((s) => records.get(s.takes.at(-1)!)!);
  expect([first!.status, second!.status]).toEqual(['completed', 'completed']);
  const frame = first!.keptLastFrameUrl ?? first!.lastFrameUrl;
  expect(frame).toBeTruthy();
  expect((second!.body.content ?? []).filter((c) => (c as { role?: string }).role === 'first_frame')).toEqual([expect.objectContaining({ image_url: { url: frame } })]);
  // The end told once: the notification the background made, and the run marked as told.
  const told = await watch(
    async () => ({ announced: (await board())?.run?.announced ?? false, notes: (await readNotifications(probe)).filter((n) => n.id === `run-${boardId}`) }),
    (seen) => seen.announced && seen.notes.length > 0,
    15_000,
  );
  expect(told.last).toEqual({ announced: true, notes: [{ id: `run-${boardId}`, title: `Storyboard “${ended.name}” is finished`, message: expect.stringMatching(/All 2 shots/) }] });
  await probe.close();

  // Opened again, the studio shows where the run stands: this storyboard, finished, both shots completed.
  studio = await firefox.openExtensionPage('studio.html', pageErrors);
  await studio.waitForSelector('[data-testid="run-status"]', { timeout: 30_000 });
  expect(await studio.$eval('#board-choose', (el) => (el as HTMLSelectElement).value)).toBe(boardId);
  await until('the run shown completed', async () => (await studio.$eval('[data-testid="run-status"]', (el) => el.getAttribute('data-state'))) === 'completed');
  await until('both shots shown completed', async () => JSON.stringify(await studio.$$eval('[data-testid="shot-status"]', (els) => els.map((e) => e.textContent?.trim()))) === JSON.stringify(['Completed', 'Completed']));
  await screenshot(studio, '08-run-closed-studio');
  expect(pageErrors).toEqual([]);
});

test('themes: under a dark system theme the popup, side panel, options and studio paint dark, light otherwise, axe clean in both', async () => {
  const seen: Record<string, number> = {};
  // This stack's Firefox has the light default (its studio opens on the storyboard just run); a
  // second one is launched with a dark system theme and connected too, so that its pages show what
  // a member sees, the studio a new storyboard's shot form.
  for (const path of THEMED_PAGES) {
    const page = await stack().firefox.openExtensionPage(path, pageErrors);
    seen[`${path} light`] = luminance(await page.evaluate(bodyBackgroundInPage));
    if (path === 'studio.html') await page.waitForSelector('[data-testid="shot-status"]', { timeout: 15_000 });
    await checkAccessibility(page, `${path} light`);
    await page.close();
  }
  const dark = await launchFirefox(await buildExtension({}, { browser: 'firefox' }), { prefs: DARK_THEME_PREFS });
  try {
    await connect(dark);
    for (const path of THEMED_PAGES) {
      const page = await dark.openExtensionPage(path, pageErrors);
      seen[`${path} dark`] = luminance(await page.evaluate(bodyBackgroundInPage));
      expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches), `${path} matches dark`).toBe(true);
      if (path === 'studio.html') {
        await page.waitForSelector('[data-testid="new-storyboard"]', { timeout: 30_000 });
        await page.click('[data-testid="new-storyboard"]');
        await page.waitForSelector('[data-testid="shot-prompt"]', { timeout: 15_000 });
        await screenshot(page, '09-dark');
      }
      await checkAccessibility(page, `${path} dark`);
      await page.close();
    }
  } finally {
    await dark.close();
  }
  console.info(`firefox themes: body luminance ${Object.entries(seen).map(([name, l]) => `${name} ${l.toFixed(3)}`).join(', ')}`);
  for (const path of THEMED_PAGES) {
    expect(seen[`${path} dark`], `${path} dark`).toBeLessThan(DARK);
    expect(seen[`${path} light`], `${path} light`).toBeGreaterThan(LIGHT);
  }
  expect(accessibility, `accessibility problems (axe, WCAG 2 A/AA):\n${accessibility.join('\n')}`).toEqual([]);
  expect(pageErrors).toEqual([]);
});
