import { type LocalTaskStatus, OPEN_TASK_STATUSES, type TaskRecord } from '@/lib/storage/records/task-record';
import type { RunMode, RunRecord, ShotRecord, StoryboardRecord } from '@/lib/storage/records/studio-records';
import { lastFrameOf } from '@/lib/studio/shot-chain';

/**
 * What a storyboard's run does next, from what is stored: which queued shots are created now (with
 * the frame a chained one starts from), which wait, which stop with a reason, and whether the run
 * has ended. Pure: the run driver (run-driver, in the background) applies it on every pass.
 *
 * - A chained shot waits for the previous shot to complete, then starts from its last frame.
 * - "Run in order" (`order`): every shot waits for the one before it to finish (completed or failed).
 * - "Run all" (`all`): every shot that is not chained is created at once.
 */

export type HaltReason =
  /** The previous shot's latest take failed: a chained shot cannot start from it. */
  | 'previous-failed'
  /** The previous shot completed without a last frame (it was made before this shot was chained). */
  | 'previous-no-frame'
  /** The previous shot has never been made and is not in this run. */
  | 'previous-not-run';

export interface PlannedShot {
  index: number;
  /** The frame a chained shot starts from. */
  lastFrame: string | null;
}

export interface RunPlan {
  create: PlannedShot[];
  halt: { index: number; reason: HaltReason }[];
  /** Queued shots that wait for the one before them. */
  waiting: number[];
}

// A take waiting for the service (queued at the proxy) is running: a chained shot waits for it.
const RUNNING: readonly LocalTaskStatus[] = OPEN_TASK_STATUSES;

/** The shot's latest take whose record exists (a take whose record is gone counts as none). */
export function latestTake(shot: Pick<ShotRecord, 'takes'>, tasks: ReadonlyMap<string, TaskRecord>): TaskRecord | undefined {
  for (let i = shot.takes.length - 1; i >= 0; i--) {
    const task = tasks.get(shot.takes[i]!);
    if (task) return task;
  }
  return undefined;
}

export type ShotProgress = 'queued' | 'running' | 'completed' | 'failed' | 'idle';

/** Where a shot stands: waiting in the run, its latest take running, completed or failed, or never made. */
export function shotProgress(shot: Pick<ShotRecord, 'takes' | 'queued'>, tasks: ReadonlyMap<string, TaskRecord>): ShotProgress {
  if (shot.queued) return 'queued';
  const take = latestTake(shot, tasks);
  if (!take) return 'idle';
  if (RUNNING.includes(take.status)) return 'running';
  return take.status === 'completed' ? 'completed' : 'failed';
}

export function planRun(board: Pick<StoryboardRecord, 'shots' | 'runMode'>, tasks: ReadonlyMap<string, TaskRecord>): RunPlan {
  const mode: RunMode = board.runMode ?? 'all';
  const plan: RunPlan = { create: [], halt: [], waiting: [] };
  board.shots.forEach((shot, index) => {
    if (!shot.queued) return;
    const chained = shot.chain && index > 0;
    if (!chained && (mode === 'all' || index === 0)) return void plan.create.push({ index, lastFrame: null });
    const previous = board.shots[index - 1]!;
    const before = shotProgress(previous, tasks);
    if (before === 'queued' || before === 'running') return void plan.waiting.push(index);
    if (!chained) return void plan.create.push({ index, lastFrame: null });
    if (before === 'idle') return void plan.halt.push({ index, reason: 'previous-not-run' });
    if (before === 'failed') return void plan.halt.push({ index, reason: 'previous-failed' });
    const frame = lastFrameOf(latestTake(previous, tasks));
    if (!frame) return void plan.halt.push({ index, reason: 'previous-no-frame' });
    plan.create.push({ index, lastFrame: frame });
  });
  return plan;
}

/**
 * Queues shots for a run: all of them ("Run in order", "Run all"), or the one retried. Clears earlier
 * stops. A run already going takes the shots in; otherwise a new run (`runId`) begins.
 */
export function queueRun(board: StoryboardRecord, mode: RunMode, shotIds?: readonly string[], runId: string = crypto.randomUUID(), now: number = Date.now()): StoryboardRecord {
  const wanted = (shot: ShotRecord) => !shotIds || shotIds.includes(shot.id);
  const run: RunRecord = board.run?.state === 'running' ? { ...board.run, mode } : { id: runId, mode, state: 'running', startedAt: now, launches: {}, takes: {} };
  return {
    ...board,
    runMode: mode,
    run,
    shots: board.shots.map((shot) => {
      if (!wanted(shot)) return shot;
      const { halted: _halted, ...rest } = shot;
      return { ...rest, queued: true };
    }),
  };
}

/** Whether any shot still waits in the run. */
export const runPending = (board: Pick<StoryboardRecord, 'shots'>): boolean => board.shots.some((s) => s.queued);

/** A run that ended, and how. A failed run names its shot and why (a halt reason, `take-failed`, `take-cancelled`). */
export type RunEnd = { state: 'completed' } | { state: 'failed'; shotId: string; reason: string; message?: string };

/**
 * Whether the run has ended, from its takes: failed at the first shot whose take of this run failed
 * or was cancelled (the run stops there, whatever its mode); going on while a shot waits in it or a
 * take of it is open; else completed.
 */
export function runEnd(board: Pick<StoryboardRecord, 'shots' | 'run'>, tasks: ReadonlyMap<string, TaskRecord>): RunEnd | null {
  const run = board.run;
  if (!run) return null;
  let open = runPending(board);
  for (const shot of board.shots) {
    const id = run.takes[shot.id];
    const take = id ? tasks.get(id) : undefined;
    if (!take) continue;
    if (take.status === 'failed' || take.status === 'cancelled') {
      return { state: 'failed', shotId: shot.id, reason: take.status === 'failed' ? 'take-failed' : 'take-cancelled', ...(take.error?.message ? { message: take.error.message } : {}) };
    }
    if (RUNNING.includes(take.status)) open = true;
  }
  return open ? null : { state: 'completed' };
}
