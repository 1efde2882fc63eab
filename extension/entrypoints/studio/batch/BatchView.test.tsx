import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { QuoteAnswer } from '@@/shared';
import { MODEL_IDS as ids } from '@@/shared/catalog/testing/model-ids';
import { byLabel, click, mount, select, text, type, unmount } from '@/components/dom-testing';
import { BatchView } from '@/entrypoints/studio/batch/BatchView';
import { allByTestId, byTestId, studioTestbed } from '@/entrypoints/studio/testing/studio-testbed';
import { batchStore } from '@/lib/storage/batch-store';
import { taskStore } from '@/lib/storage/task-store';
import type { VideoFakeProxy } from '@/lib/tasks/testing/fake-video';

let proxy: VideoFakeProxy;
const price = (body: any, remaining: number): QuoteAnswer => ({ cost: body.model === ids.s2 ? 1.5 : 0.25, currency: 'CNY', priced: true, unit: 'second', tokens: null, remaining, teamRemaining: null });

beforeEach(async () => {
  proxy = await studioTestbed();
});
// The fake proxy stays behind `fetch` after a test (a late refresh must not reach the network); the next test stubs its own.
afterEach(() => unmount());

/** Seedance 2.0 and 2.0 Fast over three seeds from 100: six tasks. */
async function sixTasks() {
  mount(<BatchView handoff={null} onHandoffTaken={() => {}} />);
  await vi.waitFor(() => byLabel<HTMLSelectElement>('Model'), { timeout: 8000 });
  select(byLabel<HTMLSelectElement>('Model'), ids.s2);
  type(byLabel<HTMLTextAreaElement>('Prompt'), 'A fox in the snow');
  type(byTestId<HTMLInputElement>('batch-seeds'), '3');
  type(byLabel<HTMLInputElement>('First seed'), '100');
  click(byLabel('Seedance 2.0 Fast'));
}

const quotedModels = () => proxy.callsOf('/proxy/quote').map((c) => c.body.model);

// Mounting the form loads the model list and quotes through the fake proxy: slow on a loaded machine, so the waits (8 s) fit inside the test's own limit.
describe('Studio: batch', { timeout: 20_000 }, () => {
  it('before the first batch, says in one line what to do first', async () => {
    mount(<BatchView handoff={null} onHandoffTaken={() => {}} />);
    await vi.waitFor(() => byTestId('empty-batch'), { timeout: 8000 });
    expect(byTestId('empty-batch').textContent).toBe('No batch yet: write one prompt above, choose how many seeds, then Launch batch.');
  });

  it('quotes the total once per request shape, summed, against what the budget has left', async () => {
    proxy.quote = (body) => price(body, 50);
    await sixTasks();
    await vi.waitFor(() => expect(byTestId('quote-total').textContent).toContain('Costs up to 5.25 CNY · 50 CNY left'), { timeout: 8000 });
    expect(byTestId('quote-total').textContent).toContain('6 tasks');
    // The seeds do not change the price: the final form was asked once per model.
    expect(quotedModels().slice(-2).sort()).toEqual([ids.s2, ids.s2fast].sort());
    expect(byTestId<HTMLButtonElement>('launch-batch').disabled).toBe(false);
  });

  it('keeps every edit made before the next render: none undoes another', async () => {
    mount(<BatchView handoff={null} onHandoffTaken={() => {}} />);
    await vi.waitFor(() => byLabel<HTMLSelectElement>('Model'), { timeout: 8000 });
    const [first, second] = allByTestId<HTMLInputElement>('batch-model');
    // Two changes in one task, as a fast member or an effect and a click can make them.
    act(() => {
      first!.click();
      second!.click();
    });
    expect(allByTestId<HTMLInputElement>('batch-model').filter((box) => box.checked)).toHaveLength(2);
  });

  it('refuses to launch what the budget cannot hold, saying why', async () => {
    proxy.quote = (body) => price(body, 5);
    await sixTasks();
    await vi.waitFor(() => expect(text()).toContain('Your budget cannot cover this task: 5 CNY left, and it costs up to 5.25 CNY'), { timeout: 8000 });
    const launch = byTestId<HTMLButtonElement>('launch-batch');
    expect(launch.disabled).toBe(true);
    expect(launch.getAttribute('aria-describedby')).toContain('gen-over-budget');
  });

  it('launches one task per model and seed, and shows them in a grid', async () => {
    proxy.quote = (body) => price(body, 50);
    await sixTasks();
    await vi.waitFor(() => expect(byTestId<HTMLButtonElement>('launch-batch').disabled).toBe(false), { timeout: 8000 });
    await vi.waitFor(() => expect(byTestId('quote-total').textContent).toContain('5.25'), { timeout: 8000 });
    click(byTestId('launch-batch'));
    await vi.waitFor(() => expect(proxy.callsOf('createVideo')).toHaveLength(6), { timeout: 8000 });
    expect(proxy.callsOf('createVideo').map((c) => [c.body.model, c.body.seed])).toEqual([
      [ids.s2, 100],
      [ids.s2, 101],
      [ids.s2, 102],
      [ids.s2fast, 100],
      [ids.s2fast, 101],
      [ids.s2fast, 102],
    ]);
    await vi.waitFor(() => expect(allByTestId('batch-cell')).toHaveLength(6));
    const [batch] = await batchStore.newestFirst();
    expect((await taskStore.newestFirst()).map((t) => t.localId).sort()).toEqual([...batch!.takes].sort());
  });

  it('on a busy service, the tasks the team’s cap holds wait with their place in line (none fails), and one can be cancelled', async () => {
    proxy.quote = (body) => price(body, 50);
    proxy.maxRunning = 2;
    await sixTasks();
    await vi.waitFor(() => expect(byTestId<HTMLButtonElement>('launch-batch').disabled).toBe(false), { timeout: 8000 });
    await vi.waitFor(() => expect(byTestId('quote-total').textContent).toContain('5.25'), { timeout: 8000 });
    click(byTestId('launch-batch'));
    await vi.waitFor(() => expect(allByTestId('batch-cell')).toHaveLength(6), { timeout: 8000 });
    await vi.waitFor(() => expect(text()).toContain('Batch launched: 6 tasks.'), { timeout: 8000 });
    expect(proxy.callsOf('createVideo').every((c) => c.prefer === 'respond-async')).toBe(true);
    const statuses = () => allByTestId('batch-cell').map((cell) => cell.querySelector('.take__status')!.textContent);
    await vi.waitFor(() => expect(statuses()).toEqual(['Queued', 'Queued', 'Waiting for the service (next in line)', 'Waiting for the service (1 ahead)', 'Waiting for the service (2 ahead)', 'Waiting for the service (3 ahead)']));
    expect((await taskStore.newestFirst()).filter((t) => t.status === 'failed')).toEqual([]);

    click(allByTestId('batch-cell')[5]!.querySelector<HTMLButtonElement>('[data-testid="waiting-cancel"]')!);
    await vi.waitFor(() => expect(statuses()[5]).toBe('Cancelled'));
    expect(proxy.calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
  });
});
