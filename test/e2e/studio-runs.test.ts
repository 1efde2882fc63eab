/**
 * A storyboard run goes on with the studio closed (Chromium, local stack): two shots on a model
 * that declares `return_last_frame`, the second starting from the first's last frame, run in order;
 * the studio tab is closed right after launch, the background's alarm launches shot 2 once shot 1
 * has completed (the test asks the service worker for its passes rather than waiting out its
 * backoff, and moves the sandbox's clock), the end is notified, and the studio opened again shows
 * the run finished.
 */
import type { Page } from 'playwright-core';
import { beforeAll, expect, test } from 'vitest';
import type { StoryboardRecord } from '@/lib/storage/records/studio-records';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import { connectThroughOptions, openExtensionPage, readNotifications, recordNotifications } from './support/extension';
import { useLocalStack } from './support/local-stack';
import { readStoreInPage } from './support/read-store-in-page';
import { priceStudioModel, sandboxCreates, STUDIO_MODEL, untilDone } from './support/studio';

const stack = useLocalStack({ member: 'Runs tester' });
const pageErrors: string[] = [];

beforeAll(async () => {
  await priceStudioModel(stack().proxy.url);
});

async function openStudio(): Promise<Page> {
  const page = await openExtensionPage(stack().browser, 'studio.html', pageErrors);
  await page.getByRole('heading', { name: 'Arkbridge Studio' }).waitFor({ state: 'visible', timeout: 15_000 });
  return page;
}

/** Read in the service worker: no page of the extension is open. */
const storyboards = () => stack().browser.serviceWorker.evaluate(readStoreInPage, 'storyboards') as Promise<StoryboardRecord[]>;
const tasks = async () => new Map(((await stack().browser.serviceWorker.evaluate(readStoreInPage, 'tasks')) as TaskRecord[]).map((t) => [t.localId, t]));
/** One pass of the background now (its alarm would come later, after its backoff). */
const backgroundPass = () => stack().browser.serviceWorker.evaluate(() => (globalThis as unknown as { arkbridge: { syncSoon(): Promise<void> } }).arkbridge.syncSoon());

test('a chained two-shot run completes with the studio closed, and the studio shows it finished', async () => {
  const { browser, proxy, memberToken, sandbox } = stack();
  const options = await connectThroughOptions(browser, proxy.url, memberToken, pageErrors);
  await options.close();
  await recordNotifications(browser);
  let studio = await openStudio();
  await studio.getByTestId('new-storyboard').click();
  await studio.getByTestId('shot').first().waitFor({ state: 'visible', timeout: 15_000 });
  await studio.locator('#shot-model').selectOption(STUDIO_MODEL);
  await studio.getByTestId('shot-prompt').fill('A kite lifts off a beach.');
  await studio.getByTestId('add-shot').click();
  await studio.getByRole('button', { name: 'Edit shot 2' }).click();
  await studio.getByRole('heading', { name: 'Shot 2', exact: true }).waitFor({ state: 'visible' });
  await studio.getByTestId('shot-prompt').fill('The kite climbs into the clouds.');
  await studio.getByTestId('chain-toggle').check();
  await expect.poll(async () => (await storyboards())[0]?.shots.map((s) => [s.form.prompt, s.chain])).toEqual([
    ['A kite lifts off a beach.', false],
    ['The kite climbs into the clouds.', true],
  ]);

  const before = await sandboxCreates(sandbox.url);
  await studio.getByTestId('run-in-order').click();
  await expect.poll(() => sandboxCreates(sandbox.url), { timeout: 20_000 }).toBe(before + 1);
  await studio.close();
  expect(browser.context.pages().filter((p) => p.url().includes('studio.html'))).toEqual([]);

  // The studio is closed: the background alone follows shot 1, launches shot 2 from its last frame, and ends the run.
  const state = async () => {
    await backgroundPass();
    return (await storyboards())[0]?.run?.state;
  };
  expect(await untilDone(sandbox.url, state, (s) => s !== 'running', 90_000)).toBe('completed');
  expect(await sandboxCreates(sandbox.url), 'one create per shot').toBe(before + 2);
  const [board] = await storyboards();
  const records = await tasks();
  const [first, second] = board!.shots.map((s) => records.get(s.takes.at(-1)!)!);
  expect([first!.status, second!.status]).toEqual(['completed', 'completed']);
  const frame = first!.keptLastFrameUrl ?? first!.lastFrameUrl;
  expect(frame).toBeTruthy();
  expect((second!.body.content ?? []).filter((c) => (c as { role?: string }).role === 'first_frame')).toEqual([expect.objectContaining({ image_url: { url: frame } })]);
  await expect.poll(async () => (await readNotifications(browser)).filter((n) => n.id === `run-${board!.id}`)).toEqual([
    { id: `run-${board!.id}`, title: `Storyboard “${board!.name}” is finished`, message: expect.stringMatching(/All 2 shots/) },
  ]);

  // Opened again, the studio shows where the run stands: finished, both shots completed.
  studio = await openStudio();
  await expect.poll(() => studio.getByTestId('run-status').getAttribute('data-state'), { timeout: 15_000 }).toBe('completed');
  await expect.poll(() => studio.getByTestId('shot-status').allInnerTexts(), { timeout: 15_000 }).toEqual(['Completed', 'Completed']);
  expect(pageErrors).toEqual([]);
});
