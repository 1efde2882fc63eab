import type { ModelSpec } from '@@/shared';
import { problems, setParam, toBody } from '@/lib/generate/generate-form';
import { withLock } from '@/lib/portrait/portrait-resolve';
import type { ProxyClient } from '@/lib/proxy/proxy-client';
import { newLocalId } from '@/lib/storage/database';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import type { RunMode, StoryboardRecord } from '@/lib/storage/records/studio-records';
import { announceChange } from '@/lib/storage/store-changes';
import { storyboardStore } from '@/lib/storage/storyboard-store';
import { taskStore } from '@/lib/storage/task-store';
import { randomSeed } from '@/lib/studio/batch-plan';
import { planRun, queueRun, runPending } from '@/lib/studio/run-plan';
import { shotForm } from '@/lib/studio/shot-chain';
import { submitTask } from '@/lib/tasks/task-submit';

/**
 * Runs a storyboard: queues its shots, then, each time a task changes, creates the shots the plan
 * lets go (run-plan) through the task submit everyone uses (a task record and its Idempotency-Key
 * written before the request). A shot's take is linked to it before its task is created, in one
 * transaction that also takes it off the queue, so two studio tabs never create a shot twice; the
 * whole step holds a lock (Web Locks, where there are some) so that only one tab steps at a time.
 */

export interface RunnerDeps {
  client: ProxyClient;
  /** The catalog entry of a model id (the proxy's, else the built-in one). */
  specOf: (id: string) => ModelSpec;
  allowHttp: boolean;
  /** What the chain's first frame is called in the form (its label). */
  frameLabel: string;
  now?: () => number;
}

/** Queues the shots (all, or those given) and says how the run goes. */
export async function startRun(boardId: string, mode: RunMode, shotIds?: readonly string[]): Promise<void> {
  await storyboardStore.update(boardId, (board) => queueRun(board, mode, shotIds));
  announceChange('storyboards');
}

/** Takes every shot off the queue (the tasks already created go on). */
export async function stopRun(boardId: string): Promise<void> {
  await storyboardStore.update(boardId, (board) => ({ ...board, shots: board.shots.map(({ queued: _q, ...shot }) => shot) }));
  announceChange('storyboards');
}

/** The task records of a storyboard's takes, by local id. */
export async function boardTasks(board: Pick<StoryboardRecord, 'shots'>): Promise<Map<string, TaskRecord>> {
  const ids = board.shots.flatMap((s) => s.takes);
  const found = await Promise.all(ids.map((id) => taskStore.get(id)));
  return new Map(found.flatMap((task) => (task ? [[task.localId, task] as const] : [])));
}

export interface StepResult {
  created: number;
  /** Shots still queued after this step. */
  pending: boolean;
}

/** One step of the run (see planRun). Answers null when another tab is stepping this storyboard now. */
export function advanceRun(boardId: string, deps: RunnerDeps): Promise<StepResult | null> {
  return withLock(`arkbridge-storyboard-${boardId}`, () => step(boardId, deps), { ifAvailable: true });
}

async function step(boardId: string, deps: RunnerDeps): Promise<StepResult> {
  const now = deps.now ?? Date.now;
  const board = await storyboardStore.get(boardId);
  if (!board || !runPending(board)) return { created: 0, pending: false };
  const plan = planRun(board, await boardTasks(board));
  const halts = new Map<string, { reason: string; message?: string }>(plan.halt.map(({ index, reason }) => [board.shots[index]!.id, { reason }]));
  const creates: { shotId: string; localId: string; body: ReturnType<typeof toBody> }[] = [];
  for (const { index, lastFrame } of plan.create) {
    const shot = board.shots[index]!;
    let form = shotForm(board.shots, index, lastFrame, deps.frameLabel);
    // A draft is made with a seed of its own, which its final repeats (draft-final).
    if (form.params.draft === true && typeof form.params.seed !== 'number') form = setParam(form, 'seed', randomSeed());
    const spec = deps.specOf(form.model);
    const found = problems(form, spec, { allowHttp: deps.allowHttp });
    if (found.length) halts.set(shot.id, { reason: 'invalid', message: found[0]!.message });
    else creates.push({ shotId: shot.id, localId: newLocalId(), body: toBody(form, spec) });
  }
  // Off the queue, in one transaction: stopped shots with their reason, created ones with their take.
  const claimed = new Set<string>();
  await storyboardStore.update(boardId, (current) => ({
    ...current,
    shots: current.shots.map((shot) => {
      if (!shot.queued) return shot;
      const { queued: _q, halted: _h, ...rest } = shot;
      const halt = halts.get(shot.id);
      if (halt) return { ...rest, halted: halt };
      const create = creates.find((c) => c.shotId === shot.id);
      if (!create) return shot;
      claimed.add(shot.id);
      return { ...rest, takes: [...rest.takes, create.localId] };
    }),
  }));
  announceChange('storyboards');
  let created = 0;
  for (const create of creates) {
    if (!claimed.has(create.shotId)) continue;
    await submitTask(deps.client, create.body, now, { localId: create.localId });
    created++;
  }
  const after = await storyboardStore.get(boardId);
  return { created, pending: Boolean(after && runPending(after)) };
}
