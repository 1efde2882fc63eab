import { describe, expect, it, vi } from 'vitest';
import type { LocalTaskStatus, TaskRecord } from '@/lib/storage/records/task-record';
import type { ShotRecord } from '@/lib/storage/records/studio-records';
import { COPY_READS, fetchClips, selectClips, takesAwaitingCopy, withKeptCopies } from '@/lib/studio/export-clips';
import { exportStoryboard, type JoinFn } from '@/lib/studio/storyboard-export';

const NOW = 1_800_000_000_000;
const task = (localId: string, status: LocalTaskStatus, over: Partial<TaskRecord> = {}): TaskRecord =>
  ({ localId, model: 'm', body: { model: 'm' }, status, progress: 100, idempotencyKey: localId, notified: false, createdAt: 0, videoUrl: `https://cdn.test/${localId}.mp4`, ...over }) as TaskRecord;
const shot = (id: string, takes: string[], chosen?: string): ShotRecord => ({ id, form: { model: 'm', prompt: '', references: [], params: {} }, chain: false, takes, ...(chosen ? { chosen } : {}) });
const map = (...list: TaskRecord[]) => new Map(list.map((t) => [t.localId, t]));

describe('which clips a storyboard exports', () => {
  it('takes each shot’s chosen take, else its latest completed one', () => {
    const tasks = map(task('a1', 'completed'), task('a2', 'completed'), task('b1', 'completed'), task('b2', 'failed'));
    const picked = selectClips({ shots: [shot('a', ['a1', 'a2'], 'a1'), shot('b', ['b1', 'b2'])] }, tasks, NOW);
    expect(picked.ok && picked.clips.map((c) => [c.shotNumber, c.task.localId])).toEqual([
      [1, 'a1'],
      [2, 'b1'],
    ]);
  });

  it('fetches from the proxy’s kept copy while it is kept, else the service’s address', () => {
    const kept = task('a1', 'completed', { keptUrl: 'https://proxy.test/media/a1', keptUntil: NOW / 1000 + 3600 });
    const gone = task('b1', 'completed', { keptUrl: 'https://proxy.test/media/b1', keptUntil: NOW / 1000 - 1 });
    const picked = selectClips({ shots: [shot('a', ['a1']), shot('b', ['b1'])] }, map(kept, gone), NOW);
    expect(picked.ok && picked.clips.map((c) => c.url)).toEqual(['https://proxy.test/media/a1', 'https://cdn.test/b1.mp4']);
  });

  it('asks again about the takes whose copy the proxy may have made since (not a kept, failed or deleted one)', () => {
    const until = NOW / 1000 + 3600;
    const tasks = map(
      task('a1', 'completed', { taskId: 't-a1', keep: 'pending' }),
      task('b1', 'completed', { taskId: 't-b1' }),
      task('c1', 'completed', { taskId: 't-c1', keptUrl: 'https://proxy.test/media/c1', keptUntil: until }),
      task('d1', 'completed', { taskId: 't-d1', keep: 'failed' }),
      task('e1', 'completed', { taskId: 't-e1', keep: 'deleted' }),
      task('f1', 'completed'),
      task('g0', 'completed', { taskId: 't-g0', keep: 'pending' }),
      task('g1', 'completed', { taskId: 't-g1', keptUrl: 'https://proxy.test/media/g1', keptUntil: until }),
    );
    const shots = [shot('a', ['a1']), shot('b', ['b1']), shot('c', ['c1']), shot('d', ['d1']), shot('e', ['e1']), shot('f', ['f1']), shot('g', ['g0', 'g1'], 'g1')];
    expect(takesAwaitingCopy({ shots }, tasks, NOW).map((t) => t.localId)).toEqual(['a1', 'b1']);
  });

  it('reads those takes again, and a copy still being made again after a wait, a few times at most', async () => {
    const kept = { keptUrl: 'https://proxy.test/media/x', keptUntil: NOW / 1000 + 3600 };
    const tasks = map(task('a1', 'completed', { taskId: 't-a1', keep: 'pending' }), task('b1', 'completed', { taskId: 't-b1' }), task('c1', 'completed', { taskId: 't-c1', keep: 'pending' }));
    const board = { shots: [shot('a', ['a1']), shot('b', ['b1']), shot('c', ['c1'])] };
    const reads: string[] = [];
    let waits = 0;
    // a1 is kept on its second read; b1's proxy keeps nothing (no answer changes); c1 stays pending.
    const read = async (t: TaskRecord) => {
      reads.push(t.localId);
      if (t.localId === 'a1' && reads.filter((id) => id === 'a1').length === 2) return { ...t, keep: undefined, ...kept };
      return undefined;
    };
    const fresh = await withKeptCopies(board, tasks, read, async () => void waits++, () => NOW);
    expect(fresh.get('a1')).toMatchObject(kept);
    expect(fresh.get('b1')).toBe(tasks.get('b1'));
    expect(reads.filter((id) => id === 'b1')).toHaveLength(1);
    expect(reads.filter((id) => id === 'c1')).toHaveLength(COPY_READS);
    expect(waits).toBe(COPY_READS - 1);
    // Nothing awaiting a copy: nothing read.
    reads.length = 0;
    await withKeptCopies({ shots: [shot('a', ['a1'])] }, map({ ...tasks.get('a1')!, ...kept, keep: undefined }), read, async () => {}, () => NOW);
    expect(reads).toEqual([]);
  });

  it('names the shots that have no completed take (a chosen take that failed falls back)', () => {
    const tasks = map(task('a1', 'failed'), task('b1', 'completed'), task('c1', 'in_progress'));
    expect(selectClips({ shots: [shot('a', ['a1'], 'a1'), shot('b', ['b1']), shot('c', ['c1'])] }, tasks, NOW)).toEqual({ ok: false, missing: [1, 3] });
  });

  it('names the shot whose clip cannot be fetched', async () => {
    const clips = [
      { shotNumber: 1, shotId: 'a', task: task('a1', 'completed'), url: 'https://cdn.test/a1.mp4' },
      { shotNumber: 2, shotId: 'b', task: task('b1', 'completed'), url: 'https://cdn.test/b1.mp4' },
    ];
    const fetcher = vi.fn(async (url: string) => (url.includes('b1') ? new Response('gone', { status: 403 }) : new Response(new Uint8Array([1, 2]))));
    expect(await fetchClips(clips, fetcher as unknown as typeof fetch)).toEqual({ ok: false, shotNumber: 2, message: 'HTTP 403' });
  });
});

describe('exporting a storyboard', () => {
  const tasks = map(task('a1', 'completed'), task('b1', 'completed'));
  const board = { shots: [shot('a', ['a1']), shot('b', ['b1'])] };
  const fetcher = (async () => new Response(new Uint8Array([0, 0, 0, 8]))) as unknown as typeof fetch;

  it('joins the fetched clips in order into one MP4, reporting progress to the end', async () => {
    const join = vi.fn<JoinFn>(async (clips, { onProgress }) => {
      onProgress?.(1);
      return { ok: true, bytes: new Uint8Array([1, 2, 3]), duration: 10, clips: clips.map((_, i) => ({ start: i * 5, duration: 5 })) };
    });
    const progress: number[] = [];
    const outcome = await exportStoryboard(board, tasks, { fetcher, loadJoin: async () => join, onProgress: (f) => progress.push(f), now: NOW });
    expect(outcome.ok && [outcome.blob.size, outcome.blob.type, outcome.duration]).toEqual([3, 'video/mp4', 10]);
    expect(join.mock.calls[0]![0]).toHaveLength(2);
    expect(progress.at(-1)).toBe(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('names the shot whose clip the join refuses, with its reason', async () => {
    const join: JoinFn = async () => ({ ok: false, clip: 1, reason: 'video_codec', message: 'clip 1 is 1280x720, clip 0 848x480' });
    expect(await exportStoryboard(board, tasks, { fetcher, loadJoin: async () => join, now: NOW })).toEqual({
      ok: false,
      kind: 'join',
      shotNumber: 2,
      reason: 'video_codec',
      message: 'clip 1 is 1280x720, clip 0 848x480',
    });
  });
});
