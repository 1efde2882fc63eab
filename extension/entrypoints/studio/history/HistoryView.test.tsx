import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MODEL_IDS as ids } from '@@/shared/catalog/testing/model-ids';
import { button, byLabel, click, mount, select, text, unmount } from '@/components/dom-testing';
import type { Handoff } from '@/entrypoints/studio/handoff';
import { HistoryView } from '@/entrypoints/studio/history/HistoryView';
import { allByTestId, byTestId, studioTestbed } from '@/entrypoints/studio/testing/studio-testbed';
import { batchStore } from '@/lib/storage/batch-store';
import type { VideoFakeProxy } from '@/lib/tasks/testing/fake-video';
import { db } from '@/lib/storage/database';
import type { LocalTaskStatus, TaskRecord } from '@/lib/storage/records/task-record';
import { storyboardStore } from '@/lib/storage/storyboard-store';

const STATUSES: LocalTaskStatus[] = ['completed', 'failed', 'in_progress'];
const task = (i: number): TaskRecord => ({
  localId: `t${i}`,
  taskId: `cgt-${i}`,
  model: i % 2 ? ids.s2 : ids.pro15,
  body: { model: i % 2 ? ids.s2 : ids.pro15, content: [{ type: 'text', text: `Prompt ${i}` }], ...(i % 2 ? { resolution: '720p', seed: i } : { duration: 5 }) } as TaskRecord['body'],
  status: STATUSES[i % 3]!,
  progress: 50,
  idempotencyKey: `k${i}`,
  notified: true,
  createdAt: 1_700_000_000_000 + i * 1000,
});

async function seed(count: number) {
  const tx = (await db()).transaction('tasks', 'readwrite');
  for (let i = 0; i < count; i++) void tx.store.put(task(i));
  await tx.done;
}

let reused: Handoff[];
let proxy: VideoFakeProxy;
beforeEach(async () => {
  proxy = await studioTestbed();
  reused = [];
});
afterEach(() => unmount());

describe('Studio: history', { timeout: 20_000 }, () => {
  it('when nothing was made yet, says what to do first and offers the storyboard', async () => {
    const started = vi.fn();
    mount(<HistoryView onReuse={(h) => reused.push(h)} onStart={started} />);
    await vi.waitFor(() => byTestId('empty-history'), { timeout: 5000 });
    expect(byTestId('empty-history').textContent).toContain('Nothing made yet: every video you make, here or in the popup, shows up here. Start with a storyboard.');
    click(button('Open the storyboard'));
    expect(started).toHaveBeenCalledTimes(1);
  });

  it('lists 5,000 tasks with only the visible window of rows in the page', async () => {
    await seed(5000);
    mount(<HistoryView onReuse={(h) => reused.push(h)} onStart={() => {}} />);
    await vi.waitFor(() => expect(text()).toContain('5000 of 5000 tasks'), { timeout: 5000 });
    const rows = allByTestId('history-row');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(40);
    // Newest first.
    expect(rows[0]!.textContent).toContain('Prompt 4999');
  });

  it('filters by model, status and shot', async () => {
    await seed(30);
    await storyboardStore.put({
      id: 'b',
      name: 'Trailer',
      createdAt: 0,
      updatedAt: 0,
      shots: [{ id: 's1', form: { model: ids.s2, prompt: '', references: [], params: {} }, chain: false, takes: ['t1', 't3', 't4'] }],
    });
    mount(<HistoryView onReuse={(h) => reused.push(h)} onStart={() => {}} />);
    await vi.waitFor(() => expect(text()).toContain('30 of 30 tasks'), { timeout: 8000 });
    select(byLabel<HTMLSelectElement>('Model'), ids.s2);
    expect(text()).toContain('15 of 30 tasks');
    select(byLabel<HTMLSelectElement>('Status'), 'failed');
    // Odd and ≡ 1 (mod 3): 1, 7, 13, 19, 25.
    expect(text()).toContain('5 of 30 tasks');
    select(byLabel<HTMLSelectElement>('Status'), 'all');
    select(byLabel<HTMLSelectElement>('Shot'), 's1');
    expect(text()).toContain('2 of 30 tasks');
    expect(allByTestId('history-row').map((r) => r.querySelector('.history-row__prompt')?.textContent)).toEqual(['Prompt 3', 'Prompt 1']);
  });

  it('shows a task’s request and reuses its settings in the storyboard or a batch', async () => {
    await seed(3);
    mount(<HistoryView onReuse={(h) => reused.push(h)} onStart={() => {}} />);
    await vi.waitFor(() => expect(allByTestId('history-row')).toHaveLength(3), { timeout: 8000 });
    click(allByTestId('history-row').find((r) => r.textContent?.includes('Prompt 1'))!.closest<HTMLElement>('[role="option"]')!);
    await vi.waitFor(() => byTestId('reuse-settings'));
    expect(text()).toContain('Prompt 1');
    click(byTestId('reuse-settings'));
    click(byTestId('reuse-settings-batch'));
    expect(reused.map((h) => h.target)).toEqual(['storyboard', 'batch']);
    expect(reused[0]!.form).toMatchObject({ model: ids.s2, prompt: 'Prompt 1', params: { resolution: '720p', seed: 1 } });
  });

  it('makes a draft final: the same request and seed, draft off, at the chosen resolution, beside the draft', async () => {
    const draftBody = { model: ids.pro15, content: [{ type: 'text', text: 'Waves' }], draft: true, resolution: '480p', seed: 42, duration: 5 } as TaskRecord['body'];
    await (await db()).put('tasks', { ...task(0), localId: 'draft', model: ids.pro15, body: draftBody, status: 'completed', videoUrl: 'https://cdn.test/d.mp4' });
    await batchStore.put({ id: 'batch', form: { model: ids.pro15, prompt: 'Waves', references: [], params: {} }, takes: ['draft'], createdAt: 1 });
    mount(<HistoryView onReuse={(h) => reused.push(h)} onStart={() => {}} />);
    await vi.waitFor(() => expect(allByTestId('history-row')).toHaveLength(1), { timeout: 8000 });
    click(allByTestId('history-row')[0]!.closest<HTMLElement>('[role="option"]')!);
    await vi.waitFor(() => byTestId('make-final'));
    expect(text()).toContain('Draft');
    select(byLabel<HTMLSelectElement>('Final resolution'), '1080p');
    click(byTestId('make-final'));
    await vi.waitFor(() => expect(text()).toContain('Final requested: same request and seed, at 1080p.'));
    expect(proxy.callsOf('createVideo').map((c) => c.body)).toEqual([{ model: ids.pro15, content: [{ type: 'text', text: 'Waves' }], resolution: '1080p', seed: 42, duration: 5 }]);
    expect((await batchStore.get('batch'))!.takes).toHaveLength(2);
  });
});
