import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { mount, text, unmount } from '@/components/dom-testing';
import { StudioApp } from '@/entrypoints/studio/StudioApp';
import { byTestId, completedTake, studioTestbed } from '@/entrypoints/studio/testing/studio-testbed';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import type { StoryboardRecord } from '@/lib/storage/records/studio-records';
import { storyboardStore } from '@/lib/storage/storyboard-store';
import { taskStore } from '@/lib/storage/task-store';

vi.mock('@@/shared/media/mp4-join', () => ({
  joinMp4: async () => ({ ok: true, bytes: new Uint8Array([1, 2, 3]), duration: 10, clips: [] }),
}));

const keptUntil = Math.floor(Date.now() / 1000) + 86_400;
const take = (localId: string): TaskRecord => completedTake(localId, { createdAt: 0, keptUrl: `https://proxy.test/media/${localId}`, keptUntil });
const form = { model: 'm', prompt: '', references: [], params: {} };
const board: StoryboardRecord = {
  id: 'done',
  name: 'Finished',
  createdAt: 0,
  updatedAt: 0,
  shots: [
    { id: 's1', form, chain: false, takes: ['a'] },
    { id: 's2', form, chain: false, takes: ['b'] },
    { id: 's3', form, chain: false, takes: ['c'] },
  ],
};

let fetched: string[];

beforeEach(async () => {
  const proxy = await studioTestbed();
  await storyboardStore.put(board);
  for (const id of ['a', 'b', 'c']) await taskStore.put(take(id));
  localStorage.setItem('arkbridge.studio.board', board.id);
  fetched = [];
  // The clips' kept copies answer with bytes; every other call goes to the fake proxy (the model list).
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input);
    if (url.startsWith('https://proxy.test/media/')) return fetched.push(url), new Response(new Uint8Array([0, 0, 0, 8]));
    return proxy.fetch(input, init);
  });
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:studio/1', revokeObjectURL: () => {} }));
  (fakeBrowser as any).downloads = { download: vi.fn(async () => 1) };
});
afterEach(() => {
  unmount();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('Studio: export of a storyboard as stored', { timeout: 20_000 }, () => {
  it('exports the completed takes when Export is pressed before the view has read them', async () => {
    // The view's read of the takes is held: the studio shows the storyboard (and its Export) first,
    // as it does when the reads of a page just opened or a tab just chosen are slow.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const get = taskStore.get.bind(taskStore);
    vi.spyOn(taskStore, 'get').mockImplementation(async (localId) => (await held, get(localId)));

    mount(<StudioApp />);
    await vi.waitFor(() => byTestId('export-button'), { timeout: 8000 });
    byTestId<HTMLButtonElement>('export-button').click();
    release();

    await vi.waitFor(() => expect(text()).toMatch(/Exported 10 s|Cannot export yet/));
    expect(text()).not.toContain('Cannot export yet');
    expect(text()).toContain('Exported 10 s');
    expect(fetched).toEqual(['https://proxy.test/media/a', 'https://proxy.test/media/b', 'https://proxy.test/media/c']);
    expect((fakeBrowser as any).downloads.download).toHaveBeenCalledWith({ url: 'blob:studio/1', filename: 'Finished.mp4', saveAs: false });
  });
});
