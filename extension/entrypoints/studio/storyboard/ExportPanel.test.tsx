import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { button, click, mount, text, unmount } from '@/components/dom-testing';
import { ExportPanel } from '@/entrypoints/studio/storyboard/ExportPanel';
import { byTestId } from '@/entrypoints/studio/testing/studio-testbed';
import type { LocalTaskStatus, TaskRecord } from '@/lib/storage/records/task-record';
import type { StoryboardRecord } from '@/lib/storage/records/studio-records';

const join = vi.hoisted(() => ({ result: null as unknown, release: () => {} }));
vi.mock('@@/shared/media/mp4-join', () => ({
  joinMp4: async (_clips: unknown[], options: { onProgress?: (f: number) => void }) => {
    options.onProgress?.(0.5);
    await new Promise<void>((resolve) => (join.release = resolve));
    return join.result;
  },
}));

const task = (localId: string, status: LocalTaskStatus, over: Partial<TaskRecord> = {}): TaskRecord =>
  ({ localId, model: 'm', body: { model: 'm' }, status, progress: 100, idempotencyKey: localId, notified: false, createdAt: 0, videoUrl: `https://cdn.test/${localId}.mp4`, ...over }) as TaskRecord;
const board: StoryboardRecord = {
  id: 'b',
  name: 'Trailer',
  createdAt: 0,
  updatedAt: 0,
  shots: [
    { id: 's1', form: { model: 'm', prompt: '', references: [], params: {} }, chain: false, takes: ['a'] },
    { id: 's2', form: { model: 'm', prompt: '', references: [], params: {} }, chain: false, takes: ['b'] },
  ],
};
const keptUntil = Math.floor(Date.now() / 1000) + 86_400;
const tasks = new Map([
  ['a', task('a', 'completed', { keptUrl: 'https://proxy.test/media/a', keptUntil })],
  ['b', task('b', 'completed')],
]);
let fetched: string[];

beforeEach(() => {
  fetched = [];
  vi.stubGlobal('fetch', async (url: string) => (fetched.push(url), new Response(new Uint8Array([0, 0, 0, 8]))));
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:studio/1', revokeObjectURL: () => {} }));
  (fakeBrowser as any).downloads = { download: vi.fn(async () => 1) };
});
afterEach(() => {
  unmount();
  vi.unstubAllGlobals();
});

describe('Studio: export', () => {
  it('fetches each shot’s clip (the kept copy first), shows the progress and downloads one MP4', async () => {
    join.result = { ok: true, bytes: new Uint8Array([1, 2, 3]), duration: 10, clips: [] };
    mount(<ExportPanel board={board} tasks={tasks} />);
    click(byTestId('export-button'));
    await vi.waitFor(() => expect(byTestId<HTMLProgressElement>('export-progress').value).toBe(75));
    expect(fetched).toEqual(['https://proxy.test/media/a', 'https://cdn.test/b.mp4']);
    join.release();
    await vi.waitFor(() => expect(text()).toContain('Exported 10 s'));
    expect((fakeBrowser as any).downloads.download).toHaveBeenCalledWith({ url: 'blob:studio/1', filename: 'Trailer.mp4', saveAs: false });
  });

  it('says plainly which shot cannot be joined, and why', async () => {
    join.result = { ok: false, clip: 1, reason: 'audio_presence', message: 'Clip 2 has no audio; clip 1 has AAC' };
    mount(<ExportPanel board={board} tasks={tasks} />);
    click(button('Export MP4'));
    // The join has started (its first progress) before it answers.
    await vi.waitFor(() => expect(byTestId<HTMLProgressElement>('export-progress').value).toBe(75));
    join.release();
    await vi.waitFor(() => expect(text()).toContain('Shot 2 cannot be joined: one of them has sound and the other none.'));
  });

  it('names the shots with nothing to export', async () => {
    mount(<ExportPanel board={board} tasks={new Map([['a', tasks.get('a')!]])} />);
    click(button('Export MP4'));
    await vi.waitFor(() => expect(text()).toContain('Cannot export yet: this shot has no completed take: 2.'));
  });

  describe('takes of different sizes', () => {
    const sized = (localId: string, resolution: string, ratio: string) =>
      task(localId, 'completed', { body: { model: 'm', resolution, ratio } as TaskRecord['body'], keptUrl: `https://proxy.test/media/${localId}`, keptUntil });
    const three: StoryboardRecord = { ...board, shots: [...board.shots, { id: 's3', form: board.shots[0]!.form, chain: false, takes: ['c'] }] };

    it('names the shot of another size than the storyboard’s (shot 1’s on a tie), downloads nothing, and offers to make it again', async () => {
      const made: string[] = [];
      const makeAgain = (shotId: string, size: { resolution: string; ratio: string }) => async () => void made.push(`${shotId} ${size.resolution} ${size.ratio}`);
      mount(<ExportPanel board={board} tasks={new Map([['a', sized('a', '480p', '16:9')], ['b', sized('b', '720p', '16:9')]])} makeAgain={makeAgain} />);
      click(button('Export MP4'));
      await vi.waitFor(() => expect(text()).toContain('they are not all one size. The storyboard is 864×480 (480p 16:9).'));
      expect(byTestId('export-odd-shots').textContent).toBe('Shot 2 is 1248×704 (720p 16:9). Make again at 864×480 (480p 16:9)');
      expect(fetched).toEqual([]);
      click(button('Make again at 864×480 (480p 16:9)'));
      await vi.waitFor(() => expect(text()).toContain('Making shot 2 again at 864×480 (480p 16:9). Export once it completes.'));
      expect(made).toEqual(['s2 480p 16:9']);
    });

    it('takes the size most shots have, and says when a shot’s model cannot make it', async () => {
      const takes = new Map([['a', sized('a', '1080p', '9:16')], ['b', sized('b', '720p', '1:1')], ['c', sized('c', '720p', '1:1')]]);
      mount(<ExportPanel board={three} tasks={takes} makeAgain={() => null} />);
      click(button('Export MP4'));
      await vi.waitFor(() => expect(text()).toContain('The storyboard is 960×960 (720p 1:1).'));
      expect(byTestId('export-odd-shots').textContent).toBe('Shot 1 is 1088×1920 (1080p 9:16). Its model cannot make 960×960 (720p 1:1): change its model, or make the other shots at its size.');
      expect(document.querySelector('[data-testid^="make-again"]')).toBeNull();
    });
  });
});
