import type { ModelSpec, VideoCreateBody } from '@@/shared';
import { problems, setParam, toBody } from '@/lib/generate/generate-form';
import { t } from '@/lib/i18n/translate';
import { syncSoon } from '@/lib/messaging/sync-soon';
import { withLock } from '@/lib/portrait/portrait-resolve';
import type { ProxyClient } from '@/lib/proxy/proxy-client';
import { newLocalId } from '@/lib/storage/database';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import type { RunMode, RunRecord, ShotRecord, StoryboardRecord } from '@/lib/storage/records/studio-records';
import { announceChange } from '@/lib/storage/store-changes';
import { storyboardStore } from '@/lib/storage/storyboard-store';
import { taskStore } from '@/lib/storage/task-store';
import { randomSeed } from '@/lib/studio/batch-plan';
import { planRun, queueRun, type RunEnd, runEnd } from '@/lib/studio/run-plan';
import { shotForm } from '@/lib/studio/shot-chain';
import { recordSubmission, sendRecorded, type SubmittingTask } from '@/lib/tasks/task-submit';
import '@/lib/i18n/studio.en';

/**
 * Drives storyboard runs: the one place that launches a run's shots. The background calls
 * driveRuns on every pass (its alarm), so a run goes on with no studio open; the studio only starts,
 * stops and shows runs. Everything is in IndexedDB: a service worker stopped at any point picks the
 * run up where it was, and never launches a shot twice:
 *
 * - a launch's task record has a local id and an Idempotency-Key derived from run id + shot id +
 *   attempt (launchIdentity), written before the shot is marked launched; a driver that stopped in
 *   between finds the record under that id and marks it, rather than making another;
 * - once marked, the record is sent; an unanswered send is repeated with the same key
 *   (resumeSubmissions), which the proxy answers with the first task.
 *
 * Steps hold a lock per storyboard (Web Locks, where there are some), so two contexts never step
 * one storyboard at once.
 */

export interface RunnerDeps {
  client: ProxyClient;
  /** The catalog entry of a model id (the proxy's, else the built-in one). */
  specOf: (id: string) => ModelSpec;
  allowHttp: boolean;
  /** What the chain's first frame is called in the form (its label; the studio's words by default). */
  frameLabel?: string;
  now?: () => number;
}

/** The local id and Idempotency-Key of a shot's launch in a run: the same for every driver that tries it. */
export function launchIdentity(runId: string, shotId: string, attempt: number): { localId: string; idempotencyKey: string } {
  return { localId: `run-${runId}-${shotId}-${attempt}`, idempotencyKey: `storyboard-run:${runId}:${shotId}:${attempt}` };
}

/** Queues the shots (all, or those given) in the storyboard's run (a new one unless one is going), and wakes the background. */
export async function startRun(boardId: string, mode: RunMode, shotIds?: readonly string[], now: () => number = Date.now): Promise<void> {
  await storyboardStore.update(boardId, (board) => queueRun(board, mode, shotIds, newLocalId(), now()));
  announceChange('storyboards');
  await syncSoon();
}

/** Stops the run: every waiting shot off the queue (the tasks already created go on). */
export async function stopRun(boardId: string, now: () => number = Date.now): Promise<void> {
  await storyboardStore.update(boardId, (board) => ({
    ...board,
    shots: board.shots.map(({ queued: _q, ...shot }) => shot),
    ...(board.run?.state === 'running' ? { run: { ...board.run, state: 'stopped' as const, endedAt: now() } } : {}),
  }));
  announceChange('storyboards');
}

/** The task records of a storyboard's takes, by local id. */
export async function boardTasks(board: Pick<StoryboardRecord, 'shots'>): Promise<Map<string, TaskRecord>> {
  const ids = board.shots.flatMap((s) => s.takes);
  const found = await Promise.all(ids.map((id) => taskStore.get(id)));
  return new Map(found.flatMap((task) => (task ? [[task.localId, task] as const] : [])));
}

export interface StepResult {
  /** Shots launched in this step. */
  created: number;
  /** The run's state after the step (null: the storyboard has no run). */
  state: RunRecord['state'] | null;
}

/** Steps every running run (the background's pass). Answers how many shots were launched. */
export async function driveRuns(deps: RunnerDeps): Promise<number> {
  let created = 0;
  for (const board of await storyboardStore.all()) {
    if (board.run?.state !== 'running') continue;
    created += (await advanceRun(board.id, deps))?.created ?? 0;
  }
  return created;
}

/** One step of a storyboard's run. Answers null when another context is stepping it now. */
export function advanceRun(boardId: string, deps: RunnerDeps): Promise<StepResult | null> {
  return withLock(`arkbridge-storyboard-${boardId}`, () => step(boardId, deps), { ifAvailable: true });
}

const attemptOf = (run: RunRecord, shotId: string): number => (run.launches[shotId] ?? 0) + 1;

/** The shot marked launched with `localId` (its take, off the queue, its attempt counted). */
function marked(shot: ShotRecord, run: RunRecord, localId: string): { shot: ShotRecord; run: RunRecord } {
  const { queued: _q, halted: _h, ...rest } = shot;
  return {
    shot: { ...rest, takes: rest.takes.includes(localId) ? rest.takes : [...rest.takes, localId] },
    run: { ...run, launches: { ...run.launches, [shot.id]: attemptOf(run, shot.id) }, takes: { ...run.takes, [shot.id]: localId } },
  };
}

/** Marks launched, in one transaction, the shots whose launch record is written (`records`: shot id → local id). Answers the shots marked. */
async function markLaunched(boardId: string, runId: string, records: ReadonlyMap<string, string>, halts: ReadonlyMap<string, ShotRecord['halted']> = new Map()): Promise<Set<string>> {
  const done = new Set<string>();
  await storyboardStore.update(boardId, (current) => {
    let run = current.run;
    if (run?.id !== runId || run.state !== 'running') return undefined;
    const shots = current.shots.map((shot) => {
      if (!shot.queued) return shot;
      const halt = halts.get(shot.id);
      if (halt) {
        const { queued: _q, ...rest } = shot;
        return { ...rest, halted: halt };
      }
      const localId = records.get(shot.id);
      if (!localId || localId !== launchIdentity(runId, shot.id, attemptOf(run!, shot.id)).localId) return shot;
      const next = marked(shot, run!, localId);
      run = next.run;
      done.add(shot.id);
      return next.shot;
    });
    return { ...current, shots, run };
  });
  return done;
}

/** Ends the run (its waiting shots off the queue): completed, or failed at a shot with its reason. */
async function endRun(boardId: string, runId: string, end: RunEnd, now: number): Promise<void> {
  await storyboardStore.update(boardId, (current) => {
    if (current.run?.id !== runId || current.run.state !== 'running') return undefined;
    const failure = end.state === 'failed' ? { failure: { shotId: end.shotId, reason: end.reason, ...(end.message ? { message: end.message } : {}) } } : {};
    return { ...current, shots: current.shots.map(({ queued: _q, ...shot }) => shot), run: { ...current.run, state: end.state, endedAt: now, ...failure } };
  });
}

async function step(boardId: string, deps: RunnerDeps): Promise<StepResult> {
  const now = deps.now ?? Date.now;
  let board = await storyboardStore.get(boardId);
  if (!board?.run || board.run.state !== 'running') return { created: 0, state: board?.run?.state ?? null };
  const runId = board.run.id;

  // A launch written by a driver that stopped before marking it: marked now, never made again.
  const orphans = new Map<string, string>();
  for (const shot of board.shots.filter((s) => s.queued)) {
    const { localId } = launchIdentity(runId, shot.id, attemptOf(board.run, shot.id));
    if (await taskStore.get(localId)) orphans.set(shot.id, localId);
  }
  if (orphans.size) board = (await markLaunched(boardId, runId, orphans), await storyboardStore.get(boardId));
  // Deleted meanwhile: nothing to drive.
  if (!board?.run) return { created: 0, state: null };

  let tasks = await boardTasks(board);
  const failed = runEnd(board, tasks);
  if (failed?.state === 'failed') return finish(boardId, runId, failed, 0, now());

  const plan = planRun(board, tasks);
  const halts = new Map<string, { reason: string; message?: string }>(plan.halt.map(({ index, reason }) => [board!.shots[index]!.id, { reason }]));
  const bodies: { shot: ShotRecord; body: VideoCreateBody }[] = [];
  for (const { index, lastFrame } of plan.create) {
    const shot = board.shots[index]!;
    let form = shotForm(board.shots, index, lastFrame, deps.frameLabel ?? t('studio.chain.frameLabel'));
    // A draft is made with a seed of its own, which its final repeats (draft-final).
    if (form.params.draft === true && typeof form.params.seed !== 'number') form = setParam(form, 'seed', randomSeed());
    const spec = deps.specOf(form.model);
    const found = problems(form, spec, { allowHttp: deps.allowHttp });
    if (found.length) halts.set(shot.id, { reason: 'invalid', message: found[0]!.message });
    else bodies.push({ shot, body: toBody(form, spec) });
  }
  if (halts.size) {
    // The run stops at its first shot that cannot be made; nothing more is launched.
    await markLaunched(boardId, runId, new Map(), halts);
    const first = board.shots.find((s) => halts.has(s.id))!;
    const halt = halts.get(first.id)!;
    return finish(boardId, runId, { state: 'failed', shotId: first.id, reason: halt.reason, ...(halt.message ? { message: halt.message } : {}) }, 0, now());
  }

  // Written first (under the launch's own id and key), then marked, then sent.
  const records = new Map<string, SubmittingTask>();
  for (const { shot, body } of bodies) {
    const identity = launchIdentity(runId, shot.id, attemptOf(board.run, shot.id));
    records.set(shot.id, await recordSubmission(body, now, identity));
  }
  const launched = await markLaunched(boardId, runId, new Map([...records].map(([shotId, r]) => [shotId, r.localId])));
  for (const [shotId, record] of records) {
    // Stopped meanwhile: the record goes before anything sends it (unless another step marked it).
    if (!launched.has(shotId)) {
      const current = await storyboardStore.get(boardId);
      if (current?.run?.takes[shotId] !== record.localId) await taskStore.delete(record.localId);
    }
  }
  announceChange('storyboards', 'tasks');
  for (const [shotId, record] of records) if (launched.has(shotId)) await sendRecorded(deps.client, record, now);

  board = await storyboardStore.get(boardId);
  if (!board) return { created: launched.size, state: null };
  tasks = await boardTasks(board);
  const end = runEnd(board, tasks);
  if (end) return finish(boardId, runId, end, launched.size, now());
  return { created: launched.size, state: board.run?.state ?? null };
}

async function finish(boardId: string, runId: string, end: RunEnd, created: number, at: number): Promise<StepResult> {
  await endRun(boardId, runId, end, at);
  announceChange('storyboards');
  return { created, state: end.state };
}
