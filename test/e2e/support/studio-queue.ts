/**
 * The studio on a busy service, end to end in Chromium (studio-queue*.test.ts): the proxy may have
 * `cap` tasks running at the service (`UPSTREAM_MAX_RUNNING`), the studio launches a batch of
 * `tasks`. The creates ask to be queued (`Prefer: respond-async`); those the proxy holds show their
 * place in line ("Waiting for the service (n ahead)") and launch as slots free. Every task ends
 * `completed`, none failed, and the service received one create per task.
 */
import type { Page } from 'playwright-core';
import { beforeAll, expect, test } from 'vitest';
import type { BatchRecord } from '@/lib/storage/records/studio-records';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import { connectThroughOptions, openExtensionPage } from './extension';
import { useLocalStack } from './local-stack';
import { readStoreInPage } from './read-store-in-page';
import { freezeSandbox, priceStudioModel, sandboxCreates, STUDIO_MODEL, untilDone } from './studio';

/** Declares the file's stack and its one test: a batch of `tasks` on a cap of `cap`. */
export function batchOnCap(cap: number, tasks: number): void {
  const stack = useLocalStack({ member: 'Queue tester', proxyVars: () => ({ UPSTREAM_MAX_RUNNING: String(cap) }) });
  const pageErrors: string[] = [];

  beforeAll(async () => {
    await priceStudioModel(stack().proxy.url);
  });

  test(`a batch of ${tasks} on a cap of ${cap}: the held tasks show their place in line, then every task completes`, async () => {
    const { browser, proxy, memberToken, sandbox } = stack();
    const options = await connectThroughOptions(browser, proxy.url, memberToken, pageErrors);
    await options.close();
    const studio: Page = await openExtensionPage(browser, 'studio.html', pageErrors);
    await studio.getByRole('heading', { name: 'Arkbridge Studio' }).waitFor({ state: 'visible', timeout: 15_000 });
    await studio.getByRole('tab', { name: 'Batch', exact: true }).click();
    await studio.locator('#batch-model').waitFor({ state: 'visible', timeout: 15_000 });
    await studio.locator('#batch-model').selectOption(STUDIO_MODEL);
    await studio.getByTestId('batch-prompt').fill('A kite over a windy beach, wide shot.');
    expect(Number(await studio.getByTestId('batch-seeds').getAttribute('max')), 'a batch the studio launches').toBeGreaterThanOrEqual(tasks);
    await studio.getByTestId('batch-seeds').fill(String(tasks));
    await expect.poll(() => studio.getByTestId('quote-total').innerText(), { timeout: 15_000 }).toMatch(new RegExp(`${tasks} tasks[\\s\\S]*\\d[\\d.,]*\\s*CNY`));

    const createsBefore = await sandboxCreates(sandbox.url);
    // The sandbox's clock stands still until the held tasks have been seen: the first ones cannot end
    // (and free their slots) while the test looks, however long the machine stalls.
    await freezeSandbox(sandbox.url, true);
    await studio.getByTestId('launch-batch').click();
    await studio.getByText(`Batch launched: ${tasks} tasks.`).waitFor({ state: 'visible', timeout: 30_000 });
    // The first `cap` run, the others wait, each with its place.
    await studio.getByText(/Waiting for the service \((next in line|\d+ ahead)\)/).first().waitFor({ state: 'visible', timeout: 30_000 });
    const shown = await studio.locator('[data-testid="batch-cell"] .take__status').allInnerTexts();
    console.info(`studio queue (${tasks} on ${cap}): right after the launch, ${shown.join(' | ')}`);
    const [batch] = (await studio.evaluate(readStoreInPage, 'batches')) as BatchRecord[];
    expect(batch!.takes).toHaveLength(tasks);
    const held = ((await studio.evaluate(readStoreInPage, 'tasks')) as TaskRecord[]).filter((t) => t.status === 'waiting');
    expect(held.length, 'creates held by the proxy').toBeGreaterThan(0);
    expect(held.every((t) => /^abq_/.test(t.queueId ?? '') && !t.taskId)).toBe(true);
    await freezeSandbox(sandbox.url, false);

    const settled = await untilDone(
      sandbox.url,
      async () => {
        const records = new Map(((await studio.evaluate(readStoreInPage, 'tasks')) as TaskRecord[]).map((t) => [t.localId, t]));
        return batch!.takes.map((id) => records.get(id)?.status);
      },
      (s) => s.every((x) => x === 'completed' || x === 'failed' || x === 'cancelled'),
      120_000,
    );
    expect(settled).toEqual(Array(tasks).fill('completed'));
    const records = (await studio.evaluate(readStoreInPage, 'tasks')) as TaskRecord[];
    expect(records.filter((t) => batch!.takes.includes(t.localId))).toHaveLength(tasks);
    expect(new Set(records.map((t) => t.taskId)).size, 'one service task per record').toBe(records.length);
    expect(await sandboxCreates(sandbox.url), 'each create reached the service once').toBe(createsBefore + tasks);
    await expect.poll(() => studio.locator('[data-testid="batch-cell"] video').count(), { timeout: 15_000 }).toBe(tasks);
    expect(pageErrors).toEqual([]);
  });
}
