import { describe, expect, it } from 'vitest';
import { MODEL_IDS as ids } from '@@/shared/catalog/testing/model-ids';
import { emptyForm } from '@/lib/generate/generate-form';
import type { LocalTaskStatus, TaskRecord } from '@/lib/storage/records/task-record';
import type { ShotRecord, StoryboardRecord } from '@/lib/storage/records/studio-records';
import { planRun, queueRun, shotProgress } from '@/lib/studio/run-plan';

const shot = (id: string, over: Partial<ShotRecord> = {}): ShotRecord => ({ id, form: { ...emptyForm(ids.s2), prompt: id }, chain: false, takes: [], ...over });
const board = (shots: ShotRecord[], runMode?: StoryboardRecord['runMode']): StoryboardRecord => ({ id: 'b', name: 'B', shots, createdAt: 0, updatedAt: 0, ...(runMode ? { runMode } : {}) });
const task = (localId: string, status: LocalTaskStatus, over: Partial<TaskRecord> = {}): TaskRecord =>
  ({ localId, model: ids.s2, body: { model: ids.s2 }, status, progress: 0, idempotencyKey: localId, notified: false, createdAt: 0, ...over }) as TaskRecord;
const tasks = (...list: TaskRecord[]) => new Map(list.map((t) => [t.localId, t]));

describe('a storyboard run', () => {
  it('run all: every unchained shot is created at once; a chained one waits for its predecessor', () => {
    const queued = queueRun(board([shot('1'), shot('2', { chain: true }), shot('3')]), 'all');
    const plan = planRun(queued, tasks());
    expect(plan.create.map((c) => c.index)).toEqual([0, 2]);
    expect(plan.waiting).toEqual([1]);
  });

  it('run in order: only the first shot goes; the next waits until it finished, completed or failed', () => {
    const queued = queueRun(board([shot('1'), shot('2'), shot('3')]), 'order');
    expect(planRun(queued, tasks()).create.map((c) => c.index)).toEqual([0]);

    const started = { ...queued, shots: [{ ...queued.shots[0]!, queued: false, takes: ['t1'] }, ...queued.shots.slice(1)] };
    expect(planRun(started, tasks(task('t1', 'in_progress'))).create).toEqual([]);
    expect(planRun(started, tasks(task('t1', 'in_progress'))).waiting).toEqual([1, 2]);
    expect(planRun(started, tasks(task('t1', 'failed'))).create.map((c) => c.index)).toEqual([1]);
    expect(planRun(started, tasks(task('t1', 'completed'))).create.map((c) => c.index)).toEqual([1]);
  });

  it('a shot after one whose take waits for the service (queued at the proxy) waits too: the chain does not stop', () => {
    const queued = queueRun(board([shot('1', { takes: ['t1'] }), shot('2', { chain: true }), shot('3')]), 'order', ['2', '3']);
    const waiting = task('t1', 'waiting', { queueId: 'abq_000000000000000000000001', queuePosition: 3 });
    expect(shotProgress(queued.shots[0]!, tasks(waiting))).toBe('running');
    const plan = planRun(queued, tasks(waiting));
    expect(plan).toEqual({ create: [], halt: [], waiting: [1, 2] });
  });

  it('a chained shot starts from the previous take’s kept last frame once it completed', () => {
    const queued = queueRun(board([shot('1', { takes: ['t1'] }), shot('2', { chain: true })]), 'all', ['2']);
    const done = task('t1', 'completed', { keptLastFrameUrl: 'https://proxy.test/media/kept.png', lastFrameUrl: 'https://cdn.test/own.png' });
    expect(planRun(queued, tasks(done)).create).toEqual([{ index: 1, lastFrame: 'https://proxy.test/media/kept.png' }]);
  });

  it('stops a chained shot whose predecessor failed, has no last frame or was never made, saying which', () => {
    const chained = (takes: string[]) => queueRun(board([shot('1', { takes }), shot('2', { chain: true })]), 'all', ['2']);
    expect(planRun(chained(['t1']), tasks(task('t1', 'failed'))).halt).toEqual([{ index: 1, reason: 'previous-failed' }]);
    expect(planRun(chained(['t1']), tasks(task('t1', 'completed'))).halt).toEqual([{ index: 1, reason: 'previous-no-frame' }]);
    expect(planRun(chained([]), tasks()).halt).toEqual([{ index: 1, reason: 'previous-not-run' }]);
  });

  it('uses a shot’s latest take: a retried shot that completed lets the chain go on', () => {
    const queued = queueRun(board([shot('1', { takes: ['old', 'new'] }), shot('2', { chain: true })]), 'all', ['2']);
    const plan = planRun(queued, tasks(task('old', 'failed'), task('new', 'completed', { lastFrameUrl: 'https://cdn.test/new.png' })));
    expect(plan.create).toEqual([{ index: 1, lastFrame: 'https://cdn.test/new.png' }]);
  });

  it('retrying one shot queues only it and clears its earlier stop', () => {
    const start = board([shot('1'), shot('2', { halted: { reason: 'previous-failed' } })]);
    const queued = queueRun(start, 'all', ['2']);
    expect(queued.shots.map((s) => [s.queued ?? false, s.halted])).toEqual([
      [false, undefined],
      [true, undefined],
    ]);
  });

  it('tells where each shot stands', () => {
    expect(shotProgress(shot('1', { queued: true }), tasks())).toBe('queued');
    expect(shotProgress(shot('1'), tasks())).toBe('idle');
    expect(shotProgress(shot('1', { takes: ['a'] }), tasks(task('a', 'submitting')))).toBe('running');
    expect(shotProgress(shot('1', { takes: ['a'] }), tasks(task('a', 'completed')))).toBe('completed');
  });
});
