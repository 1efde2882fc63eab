import { beforeEach, describe, expect, it } from 'vitest';
import { modelSpec } from '@@/shared';
import { MODEL_IDS as ids } from '@@/shared/catalog/testing/model-ids';
import { pollTasks } from '@/lib/poll/task-polling';
import { ProxyClient } from '@/lib/proxy/proxy-client';
import { closeDb } from '@/lib/storage/database';
import { storyboardStore } from '@/lib/storage/storyboard-store';
import { taskStore } from '@/lib/storage/task-store';
import { advanceRun, launchIdentity, type RunnerDeps, startRun, stopRun } from '@/lib/studio/run-driver';
import { recordSubmission, resumeSubmissions, RESUME_AFTER_MS } from '@/lib/tasks/task-submit';
import { chainedBoard } from '@/lib/studio/testing/chained-board';
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
    expect(await advanceRun(board.id, deps)).toEqual({ created: 1, state: 'running' });
    expect(creates()).toHaveLength(1);
    expect(creates()[0]).toMatchObject({ model: ids.s2, return_last_frame: true });

    // Nothing more while the first shot runs.
    expect(await advanceRun(board.id, deps)).toEqual({ created: 0, state: 'running' });

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

    expect(await advanceRun(board.id, deps)).toEqual({ created: 1, state: 'running' });
    const second = creates()[1];
    // The proxy's kept copy of the last frame, not the service's 24-hour link.
    expect(second.content).toContainEqual({ type: 'image_url', image_url: { url: 'https://proxy.test/media/f1' }, role: 'first_frame' });
    expect(second.return_last_frame).toBeUndefined();
    // The takes are ordinary task records, linked to their shots.
    const stored = (await storyboardStore.get(board.id))!;
    expect((await taskStore.newestFirst()).map((t) => t.localId).sort()).toEqual(stored.shots.flatMap((s) => s.takes).sort());
  });

  it('stops the run at a shot whose take failed, with the service’s reason: the next shot is not made', async () => {
    const board = await chainedBoard();
    await startRun(board.id, 'order');
    await advanceRun(board.id, deps);
    const first = (await storyboardStore.get(board.id))!.shots[0]!;
    const take = (await taskStore.get(first.takes[0]!))!;
    proxy.setTask(take.taskId!, { status: 'failed', progress: 0, error: { code: 'x', message: 'The prompt was refused' } });
    await pollTasks(deps.client);
    expect(await advanceRun(board.id, deps)).toEqual({ created: 0, state: 'failed' });
    const stored = (await storyboardStore.get(board.id))!;
    expect(stored.run).toMatchObject({ state: 'failed', failure: { shotId: first.id, reason: 'take-failed', message: 'The prompt was refused' } });
    expect(stored.shots.map((s) => s.queued ?? false)).toEqual([false, false]);
    expect(stored.shots[1]!.takes).toEqual([]);
    expect(creates()).toHaveLength(1);
  });

  it('stops the run in order even when the next shot does not start from the failed one', async () => {
    const board = await chainedBoard();
    await storyboardStore.update(board.id, (b) => ({ ...b, shots: b.shots.map((s) => ({ ...s, chain: false })) }));
    await startRun(board.id, 'order');
    await advanceRun(board.id, deps);
    const take = (await taskStore.get((await storyboardStore.get(board.id))!.shots[0]!.takes[0]!))!;
    proxy.setTask(take.taskId!, { status: 'failed', progress: 0, error: { code: 'x', message: 'no' } });
    await pollTasks(deps.client);
    expect(await advanceRun(board.id, deps)).toMatchObject({ state: 'failed' });
    expect(creates()).toHaveLength(1);
  });

  it('waits while the previous shot’s take waits for the service or is queued, then goes on', async () => {
    const board = await chainedBoard();
    await startRun(board.id, 'order');
    await advanceRun(board.id, deps);
    const take = (await taskStore.get((await storyboardStore.get(board.id))!.shots[0]!.takes[0]!))!;
    await taskStore.put({ ...take, status: 'waiting', queueId: 'abq_000000000000000000000001', queuePosition: 2 });
    expect(await advanceRun(board.id, deps)).toEqual({ created: 0, state: 'running' });
    await taskStore.put({ ...take, status: 'queued' });
    expect(await advanceRun(board.id, deps)).toEqual({ created: 0, state: 'running' });
    await taskStore.put({ ...take, status: 'completed', keptLastFrameUrl: 'https://proxy.test/media/f1' });
    expect(await advanceRun(board.id, deps)).toEqual({ created: 1, state: 'running' });
    expect(creates()).toHaveLength(2);
  });

  it('completes once every take of the run has completed', async () => {
    const board = await chainedBoard();
    await storyboardStore.update(board.id, (b) => ({ ...b, shots: b.shots.map((s) => ({ ...s, chain: false })) }));
    await startRun(board.id, 'all');
    await advanceRun(board.id, deps);
    const stored = (await storyboardStore.get(board.id))!;
    for (const shot of stored.shots) await taskStore.update(shot.takes[0]!, (t) => ({ ...t, status: 'completed' }));
    expect(await advanceRun(board.id, deps)).toEqual({ created: 0, state: 'completed' });
    expect((await storyboardStore.get(board.id))!.run).toMatchObject({ state: 'completed' });
  });

  it('sends each launch with a key made of run, shot and attempt', async () => {
    const board = await chainedBoard();
    await startRun(board.id, 'order');
    await advanceRun(board.id, deps);
    const run = (await storyboardStore.get(board.id))!.run!;
    expect(proxy.callsOf('createVideo').map((c) => c.idempotencyKey)).toEqual([launchIdentity(run.id, board.shots[0]!.id, 1).idempotencyKey]);
  });

  it('a driver restarted after writing a launch but before marking it marks it: the shot is made once, with the same key', async () => {
    const board = await chainedBoard();
    await startRun(board.id, 'order');
    const run = (await storyboardStore.get(board.id))!.run!;
    // What a driver stopped mid-step left: the launch's record, the shot still waiting in the run.
    const identity = launchIdentity(run.id, board.shots[0]!.id, 1);
    let clock = 1_000_000;
    await recordSubmission({ model: ids.s2, content: [{ type: 'text', text: 'A door opens' }] }, () => clock, identity);
    await closeDb();

    expect(await advanceRun(board.id, { ...deps, now: () => clock })).toEqual({ created: 0, state: 'running' });
    const stored = (await storyboardStore.get(board.id))!;
    expect(stored.shots[0]).toMatchObject({ takes: [identity.localId] });
    expect(stored.shots[0]!.queued).toBeUndefined();
    expect(creates()).toHaveLength(0);
    // The unsent record goes out once, with its key; another step or a repeat makes nothing new.
    clock += RESUME_AFTER_MS + 1;
    await resumeSubmissions(deps.client, () => clock);
    await resumeSubmissions(deps.client, () => clock);
    await advanceRun(board.id, { ...deps, now: () => clock });
    expect(proxy.callsOf('createVideo').map((c) => c.idempotencyKey)).toEqual([identity.idempotencyKey]);
  });

  it('a driver restarted after sending a launch whose answer was lost sends the same key: one task', async () => {
    const board = await chainedBoard();
    await startRun(board.id, 'order');
    proxy.failNext('createVideo', { kind: 'network-after-commit' });
    let clock = 1_000_000;
    await advanceRun(board.id, { ...deps, now: () => clock });
    const take = (await storyboardStore.get(board.id))!.shots[0]!.takes[0]!;
    expect((await taskStore.get(take))!.status).toBe('submitting');
    await closeDb();
    clock += 60_000;
    await resumeSubmissions(deps.client, () => clock);
    expect(await advanceRun(board.id, { ...deps, now: () => clock })).toEqual({ created: 0, state: 'running' });
    const keys = proxy.callsOf('createVideo').map((c) => c.idempotencyKey);
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(1);
    expect(proxy.tasks.size).toBe(1);
    expect((await taskStore.get(take))!.taskId).toBeTruthy();
  });

  it('stop: the waiting shots come off the queue, the run is stopped and nothing more launches', async () => {
    const board = await chainedBoard();
    await startRun(board.id, 'order');
    await advanceRun(board.id, deps);
    await stopRun(board.id);
    const stored = (await storyboardStore.get(board.id))!;
    expect(stored.run?.state).toBe('stopped');
    expect(stored.shots.some((s) => s.queued)).toBe(false);
    const take = (await taskStore.get(stored.shots[0]!.takes[0]!))!;
    await taskStore.put({ ...take, status: 'completed', keptLastFrameUrl: 'https://proxy.test/media/f1' });
    expect(await advanceRun(board.id, deps)).toEqual({ created: 0, state: 'stopped' });
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
