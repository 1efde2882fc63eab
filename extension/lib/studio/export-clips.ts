import type { TaskRecord } from '@/lib/storage/records/task-record';
import type { StoryboardRecord } from '@/lib/storage/records/studio-records';
import { keptVideo, videoAddress } from '@/lib/tasks/task-presentation';

/**
 * What a storyboard's export joins: per shot, its chosen take when completed, else its latest
 * completed take; each fetched from the proxy's kept copy while there is one (the service's own link
 * dies 24 hours after completion), else the service's address. A shot with nothing to join, or a
 * clip that cannot be fetched, is named.
 */

export interface ExportClip {
  /** 1-based, as the storyboard shows it. */
  shotNumber: number;
  shotId: string;
  task: TaskRecord;
  url: string;
}

export type ClipSelection = { ok: true; clips: ExportClip[] } | { ok: false; missing: number[] };

/** The take a shot exports: the chosen one if it completed, else the latest completed one. */
export function exportTake(shot: StoryboardRecord['shots'][number], tasks: ReadonlyMap<string, TaskRecord>): TaskRecord | undefined {
  const chosen = shot.chosen ? tasks.get(shot.chosen) : undefined;
  if (chosen?.status === 'completed') return chosen;
  for (let i = shot.takes.length - 1; i >= 0; i--) {
    const task = tasks.get(shot.takes[i]!);
    if (task?.status === 'completed') return task;
  }
  return undefined;
}

/**
 * The takes an export would use that have no kept copy yet while the proxy may have one: a copy
 * being made, or not heard of (the proxy answers "completed" before it has copied the video, and the
 * task is read again only a minute later). They are read again before the export, since the
 * service's own link cannot be downloaded from the studio's page (no CORS); a copy that failed or
 * was deleted is not asked about.
 */
export function takesAwaitingCopy(board: Pick<StoryboardRecord, 'shots'>, tasks: ReadonlyMap<string, TaskRecord>, now: number): TaskRecord[] {
  return board.shots.flatMap((shot) => {
    const task = exportTake(shot, tasks);
    return task?.taskId && !keptVideo(task, now) && task.keep !== 'failed' && task.keep !== 'deleted' ? [task] : [];
  });
}

/** How often, at most, the export reads again a copy still being made (a second apart). */
export const COPY_READS = 8;

/**
 * The takes with their kept copies before an export: those awaiting one (takesAwaitingCopy) read
 * again (`read`: the task's record as stored after reading it, or undefined when nothing changed),
 * and while a copy is still being made, read again after `wait`, at most COPY_READS times in all.
 */
export async function withKeptCopies(
  board: Pick<StoryboardRecord, 'shots'>,
  tasks: ReadonlyMap<string, TaskRecord>,
  read: (task: TaskRecord) => Promise<TaskRecord | undefined>,
  wait: () => Promise<void>,
  now: () => number = Date.now,
): Promise<ReadonlyMap<string, TaskRecord>> {
  let current = tasks;
  for (let round = 0; round < COPY_READS; round++) {
    const waiting = takesAwaitingCopy(board, current, now());
    // After the first read, only a copy still being made is worth asking about again.
    const asked = round === 0 ? waiting : waiting.filter((task) => task.keep === 'pending');
    if (!asked.length) break;
    if (round > 0) await wait();
    const fresh = new Map(current);
    for (const task of asked) {
      const stored = await read(task).catch(() => undefined);
      if (stored) fresh.set(stored.localId, stored);
    }
    current = fresh;
  }
  return current;
}

/** The clips of every shot, in order; or the shots (1-based) with no completed take that has an address. */
export function selectClips(board: Pick<StoryboardRecord, 'shots'>, tasks: ReadonlyMap<string, TaskRecord>, now: number): ClipSelection {
  const clips: ExportClip[] = [];
  const missing: number[] = [];
  board.shots.forEach((shot, i) => {
    const task = exportTake(shot, tasks);
    const url = task && videoAddress(task, now);
    if (task && url) clips.push({ shotNumber: i + 1, shotId: shot.id, task, url });
    else missing.push(i + 1);
  });
  return missing.length || !clips.length ? { ok: false, missing } : { ok: true, clips };
}

export type Fetched = { ok: true; blobs: Blob[] } | { ok: false; shotNumber: number; message: string };

/**
 * Downloads each clip in turn (at most one clip's bytes arriving at a time); `onProgress(fraction)`
 * after each. The first that fails stops it and is named.
 */
export async function fetchClips(clips: readonly ExportClip[], fetcher: typeof fetch, onProgress: (fraction: number) => void = () => {}, signal?: AbortSignal): Promise<Fetched> {
  const blobs: Blob[] = [];
  for (const [i, clip] of clips.entries()) {
    try {
      const response = await fetcher(clip.url, { signal });
      if (!response.ok) return { ok: false, shotNumber: clip.shotNumber, message: `HTTP ${response.status}` };
      blobs.push(await response.blob());
    } catch (error) {
      if (signal?.aborted) throw error;
      return { ok: false, shotNumber: clip.shotNumber, message: error instanceof Error ? error.message : String(error) };
    }
    onProgress((i + 1) / clips.length);
  }
  return { ok: true, blobs };
}
