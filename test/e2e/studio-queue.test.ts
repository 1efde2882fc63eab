/**
 * The studio on a busy service, end to end in Chromium: the proxy may have two tasks running at the
 * service (`UPSTREAM_MAX_RUNNING=2`), the studio launches a batch of eight. The creates it sends ask
 * to be queued (`Prefer: respond-async`); the six the proxy holds show their place in line
 * ("Waiting for the service (n ahead)") and launch as slots free. Every task ends `completed`, none
 * failed, and the service received eight creates: each queued create launched once.
 */
import type { Page } from 'playwright-core';
import { beforeAll, expect, test } from 'vitest';
import type { BatchRecord } from '@/lib/storage/records/studio-records';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import { connectThroughOptions, openExtensionPage } from './support/extension';
import { useLocalStack } from './support/local-stack';
import { readStoreInPage } from './support/read-store-in-page';
import { freezeSandbox, priceStudioModel, sandboxCreates, STUDIO_MODEL, untilDone } from './support/studio';

const CAP = 2;
const TASKS = 8;

const stack = useLocalStack({ member: 'Queue tester', proxyVars: () => ({ UPSTREAM_MAX_RUNNING: String(CAP) }) });
const pageErrors: string[] = [];

beforeAll(async () => {
  await priceStudioModel(stack().proxy.url);
});

test(`a batch of ${TASKS} on a cap of ${CAP}: the held tasks show their place in line, then every task completes`, async () => {
  const { browser, proxy, memberToken, sandbox } = stack();
  const options = await connectThroughOptions(browser, proxy.url, memberToken, pageErrors);
  await options.close();
  const studio: Page = await openExtensionPage(browser, 'studio.html', pageErrors);
  await studio.getByRole('heading', { name: 'Arkbridge Studio' }).waitFor({ state: 'visible', timeout: 15_000 });
  await studio.getByRole('tab', { name: 'Batch', exact: true }).click();
  await studio.locator('#batch-model').waitFor({ state: 'visible', timeout: 15_000 });
  await studio.locator('#batch-model').selectOption(STUDIO_MODEL);
  await studio.getByTestId('batch-prompt').fill('A kite over a windy beach, wide shot.');
  await studio.getByTestId('batch-seeds').fill(String(TASKS));
  await expect.poll(() => studio.getByTestId('quote-total').innerText(), { timeout: 15_000 }).toMatch(new RegExp(`${TASKS} tasks[\\s\\S]*\\d[\\d.,]*\\s*CNY`));

  const createsBefore = await sandboxCreates(sandbox.url);
  // The sandbox's clock stands still until the held tasks have been seen: the first two cannot end
  // (and free their slots) while the test looks, however long the machine stalls.
  await freezeSandbox(sandbox.url, true);
  await studio.getByTestId('launch-batch').click();
  await studio.getByText(`Batch launched: ${TASKS} tasks.`).waitFor({ state: 'visible', timeout: 30_000 });
  // The first two run, the others wait, each with its place.
  await studio.getByText(/Waiting for the service \((next in line|\d+ ahead)\)/).first().waitFor({ state: 'visible', timeout: 30_000 });
  const shown = await studio.locator('[data-testid="batch-cell"] .take__status').allInnerTexts();
  console.info(`studio queue: right after the launch, ${shown.join(' | ')}`);
  const [batch] = (await studio.evaluate(readStoreInPage, 'batches')) as BatchRecord[];
  expect(batch!.takes).toHaveLength(TASKS);
  const held = ((await studio.evaluate(readStoreInPage, 'tasks')) as TaskRecord[]).filter((t) => t.status === 'waiting');
  expect(held.length, 'creates held by the proxy').toBeGreaterThan(0);
  expect(held.every((t) => /^abq_/.test(t.queueId ?? '') && !t.taskId)).toBe(true);
  await freezeSandbox(sandbox.url, false);

  const settled = await untilDone(
    sandbox.url,
    async () => {
      const tasks = new Map(((await studio.evaluate(readStoreInPage, 'tasks')) as TaskRecord[]).map((t) => [t.localId, t]));
      return batch!.takes.map((id) => tasks.get(id)?.status);
    },
    (s) => s.every((x) => x === 'completed' || x === 'failed' || x === 'cancelled'),
    120_000,
  );
  expect(settled).toEqual(Array(TASKS).fill('completed'));
  const tasks = (await studio.evaluate(readStoreInPage, 'tasks')) as TaskRecord[];
  expect(tasks.filter((t) => batch!.takes.includes(t.localId))).toHaveLength(TASKS);
  expect(new Set(tasks.map((t) => t.taskId)).size, 'one service task per record').toBe(tasks.length);
  expect(await sandboxCreates(sandbox.url), 'each create reached the service once').toBe(createsBefore + TASKS);
  await expect.poll(() => studio.locator('[data-testid="batch-cell"] video').count(), { timeout: 15_000 }).toBe(TASKS);
  expect(pageErrors).toEqual([]);
});
