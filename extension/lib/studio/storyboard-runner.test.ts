import { beforeEach, describe, expect, it } from 'vitest';
import { modelSpec } from '@@/shared';
import { MODEL_IDS as ids } from '@@/shared/catalog/testing/model-ids';
import { emptyForm } from '@/lib/generate/generate-form';
import { pollTasks } from '@/lib/poll/task-polling';
import { ProxyClient } from '@/lib/proxy/proxy-client';
import { closeDb } from '@/lib/storage/database';
import { storyboardStore } from '@/lib/storage/storyboard-store';
import { taskStore } from '@/lib/storage/task-store';
import { addShot, applyEdit, newStoryboard, updateShot } from '@/lib/studio/storyboard-edit';
import { advanceRun, type RunnerDeps, startRun } from '@/lib/studio/storyboard-runner';
import { VideoFakeProxy } from '@/lib/tasks/testing/fake-video';
import { PROXY_URL, TOKEN } from '@/lib/testing/fake-proxy';
import { resetState } from '@/lib/testing/test-setup';

let proxy: VideoFakeProxy;
let deps: RunnerDeps;

beforeEach(async () => {
  await resetState();
  proxy = new VideoFakeProxy();
  deps = { client: new ProxyClient({ proxyUrl: PROXY_URL, token: TOKEN }, proxy.fetch), specOf: modelSpec, allowHttp: false, frameLabel: 'Last frame' };
});

/** A storyboard of two Seedance 2.0 shots, the second chained to the first, stored. */
async function chainedBoard() {
  let board = newStoryboard('Trailer', ids.s2);
  board = applyEdit(board, addShot(ids.s2), modelSpec);
  board = applyEdit(board, updateShot(board.shots[0]!.id, (s) => ({ ...s, form: { ...emptyForm(ids.s2), prompt: 'A door opens' } })), modelSpec);
  board = applyEdit(board, updateShot(board.shots[1]!.id, (s) => ({ ...s, chain: true, form: { ...emptyForm(ids.s2), prompt: 'She walks in' } })), modelSpec);
  await storyboardStore.put(board);
  return board;
}

const creates = () => proxy.callsOf('createVideo').map((c) => c.body);

describe('running a storyboard', () => {
  it('keeps a storyboard across a reload (a new connection to the database)', async () => {
    const board = await chainedBoard();
    await closeDb();
    const read = await storyboardStore.get(board.id);
    expect(read?.shots.map((s) => [s.form.prompt, s.chain])).toEqual([
      ['A door opens', false],
      ['She walks in', true],
    ]);
  });

  it('creates the first shot asking for its last frame, then the chained one from the kept last frame once it completed', async () => {
    const board = await chainedBoard();
    await startRun(board.id, 'all');
    expect(await advanceRun(board.id, deps)).toEqual({ created: 1, pending: true });
    expect(creates()).toHaveLength(1);
    expect(creates()[0]).toMatchObject({ model: ids.s2, return_last_frame: true });

    // Nothing more while the first shot runs.
    expect(await advanceRun(board.id, deps)).toEqual({ created: 0, pending: true });

    const first = (await storyboardStore.get(board.id))!.shots[0]!;
    const take = (await taskStore.get(first.takes[0]!))!;
    expect(take.status).toBe('queued');
    proxy.setTask(take.taskId!, {
      status: 'completed',
      progress: 100,
      metadata: { url: 'https://cdn.test/1.mp4', last_frame_url: 'https://cdn.test/1-last.png' },
      arkbridge: { cost: 1, currency: 'CNY', priced: true, keptUrl: 'https://proxy.test/media/v1', keptUntil: 2_000_000_000, keptLastFrameUrl: 'https://proxy.test/media/f1' },
    });
    await pollTasks(deps.client);
    expect(await taskStore.get(take.localId)).toMatchObject({ lastFrameUrl: 'https://cdn.test/1-last.png', keptLastFrameUrl: 'https://proxy.test/media/f1' });

    expect(await advanceRun(board.id, deps)).toEqual({ created: 1, pending: false });
    const second = creates()[1];
    // The proxy's kept copy of the last frame, not the service's 24-hour link.
    expect(second.content).toContainEqual({ type: 'image_url', image_url: { url: 'https://proxy.test/media/f1' }, role: 'first_frame' });
    expect(second.return_last_frame).toBeUndefined();
    // The takes are ordinary task records, linked to their shots.
    const stored = (await storyboardStore.get(board.id))!;
    expect((await taskStore.newestFirst()).map((t) => t.localId).sort()).toEqual(stored.shots.flatMap((s) => s.takes).sort());
  });

  it('stops a chained shot when its predecessor fails, saying why', async () => {
    const board = await chainedBoard();
    await startRun(board.id, 'order');
    await advanceRun(board.id, deps);
    const first = (await storyboardStore.get(board.id))!.shots[0]!;
    const take = (await taskStore.get(first.takes[0]!))!;
    proxy.setTask(take.taskId!, { status: 'failed', progress: 0, error: { code: 'x', message: 'no' } });
    await pollTasks(deps.client);
    expect(await advanceRun(board.id, deps)).toEqual({ created: 0, pending: false });
    expect((await storyboardStore.get(board.id))!.shots[1]).toMatchObject({ halted: { reason: 'previous-failed' }, takes: [] });
    expect(creates()).toHaveLength(1);
  });

  it('never creates a queued shot twice, however often it is stepped', async () => {
    const board = await chainedBoard();
    await storyboardStore.update(board.id, (b) => ({ ...b, shots: b.shots.map((s) => ({ ...s, chain: false })) }));
    await startRun(board.id, 'all');
    await Promise.all([advanceRun(board.id, deps), advanceRun(board.id, deps), advanceRun(board.id, deps)]);
    expect(creates()).toHaveLength(2);
  });
});

describe('takes made from other takes', () => {
  it('links a final beside its draft in the same shot, and stores the chosen take', async () => {
    const { linkTakeBeside, chooseTake } = await import('@/lib/studio/take-links');
    const board = await chainedBoard();
    await storyboardStore.update(board.id, (b) => ({ ...b, shots: b.shots.map((s, i) => (i === 0 ? { ...s, takes: ['draft'] } : s)) }));
    expect(await linkTakeBeside('draft', 'final')).toBe(true);
    await chooseTake({ kind: 'shot', boardId: board.id, shotId: board.shots[0]!.id }, 'final');
    await closeDb();
    expect((await storyboardStore.get(board.id))!.shots[0]).toMatchObject({ takes: ['draft', 'final'], chosen: 'final' });
  });
});
