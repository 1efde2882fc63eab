/**
 * The studio's export of takes of different sizes, end to end in Chromium on the local stack: a
 * 2-shot storyboard, shot 1 at 480p and shot 2 at 720p (the sandbox makes each at the size asked);
 * the export names shot 2 as not the storyboard's size, "Make again at 864×480 (480p 16:9)" makes a
 * new take of it at 480p, and the export then joins the two into one 864×480 MP4.
 */
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import type { StoryboardRecord } from '@/lib/storage/records/studio-records';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import { connectThroughOptions, openExtensionPage } from './support/extension';
import { useLocalStack } from './support/local-stack';
import { readStoreInPage } from './support/read-store-in-page';
import { bytesOf, keepBlobsInPage, lastMp4InPage, mp4Facts, STUDIO_MODEL, timeExportInPage, untilDone } from './support/studio';

const stack = useLocalStack({ member: 'Studio sizes tester' });
const pageErrors: string[] = [];
let studio: Page;

const storyboards = () => studio.evaluate(readStoreInPage, 'storyboards') as Promise<StoryboardRecord[]>;
const tasksById = async () => new Map(((await studio.evaluate(readStoreInPage, 'tasks')) as TaskRecord[]).map((t) => [t.localId, t]));

/** Sets the open shot's resolution (in "More settings"). */
async function setResolution(resolution: string): Promise<void> {
  const more = studio.getByTestId('more-settings');
  if (!(await more.evaluate((details) => (details as HTMLDetailsElement).open))) await more.locator('summary').click();
  await studio.getByLabel('Resolution').selectOption(resolution);
}

/** Each shot's latest take's status, once the sandbox's clock moved on until none is running. */
async function settle(): Promise<string[]> {
  const statuses = async () => {
    const [board] = await storyboards();
    const tasks = await tasksById();
    return board!.shots.map((s) => (s.takes.length ? (tasks.get(s.takes.at(-1)!)?.status ?? 'missing') : s.queued ? 'queued' : 'idle'));
  };
  return untilDone(stack().sandbox.url, statuses, (s) => s.every((x) => x === 'completed' || x === 'failed'), 90_000);
}

test('export of a 480p and a 720p shot names shot 2; "Make again" makes it at 480p, and the export then succeeds', async () => {
  const { browser, proxy, memberToken } = stack();
  await (await connectThroughOptions(browser, proxy.url, memberToken, pageErrors)).close();
  studio = await openExtensionPage(browser, 'studio.html', pageErrors);
  await studio.setViewportSize({ width: 1280, height: 900 });
  await studio.getByRole('heading', { name: 'Arkbridge Studio' }).waitFor({ state: 'visible', timeout: 15_000 });
  await studio.evaluate(keepBlobsInPage);
  await studio.getByTestId('new-storyboard').click();
  await studio.getByTestId('shot').first().waitFor({ state: 'visible', timeout: 15_000 });

  // Shot 1 at 480p; shot 2 (its settings carried over) at 720p.
  await studio.locator('#shot-model').selectOption(STUDIO_MODEL);
  await studio.getByTestId('shot-prompt').fill('Shot A: a harbour at night.');
  await studio.getByLabel('Duration (s)').fill('4');
  await setResolution('480p');
  await studio.getByTestId('add-shot').click();
  await studio.getByRole('button', { name: 'Edit shot 2' }).click();
  await studio.getByRole('heading', { name: 'Shot 2', exact: true }).waitFor({ state: 'visible' });
  await studio.getByTestId('shot-prompt').fill('Shot B: the boats come in.');
  await setResolution('720p');
  await expect.poll(async () => (await storyboards())[0]?.shots.map((s) => s.form.params.resolution)).toEqual(['480p', '720p']);

  await studio.getByTestId('run-all').click();
  expect(await settle()).toEqual(['completed', 'completed']);

  // The export names shot 2, downloads nothing, and offers to make it again at the storyboard's size.
  const refused = await studio.evaluate(timeExportInPage);
  expect(refused.text).toContain('The storyboard is 864×480 (480p 16:9).');
  expect(refused.text).toContain('Shot 2 is 1248×704 (720p 16:9).');
  expect(refused.text).not.toContain('Shot 1 is');
  await studio.getByRole('button', { name: 'Make again at 864×480 (480p 16:9)' }).click();
  await studio.getByText('Making shot 2 again at 864×480 (480p 16:9).').waitFor({ state: 'visible', timeout: 15_000 });

  // A second take of shot 2, asked at 480p, made at 864×480.
  await expect.poll(async () => (await storyboards())[0]?.shots[1]?.takes.length, { timeout: 15_000 }).toBe(2);
  expect(await settle()).toEqual(['completed', 'completed']);
  const [board] = await storyboards();
  const tasks = await tasksById();
  const remade = tasks.get(board!.shots[1]!.takes[1]!)!;
  expect(remade.body).toMatchObject({ resolution: '480p' });
  const clip = await mp4Facts(await bytesOf(remade.keptUrl ?? remade.videoUrl!));
  expect(clip).toMatchObject({ width: 864, height: 480 });

  const exported = await studio.evaluate(timeExportInPage);
  expect(exported.text).toMatch(/^Exported 8 s/);
  const joined = await mp4Facts(Buffer.from(await studio.evaluate(lastMp4InPage), 'base64'));
  expect(joined).toMatchObject({ width: 864, height: 480, codec: 'avc' });
  expect(pageErrors).toEqual([]);
});
