import type { VideoCreateBody } from '@@/shared';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import type { StoryboardRecord } from '@/lib/storage/records/studio-records';
import { exportTake } from '@/lib/studio/export-clips';

/**
 * The storyboard as a timeline: each shot with the take it plays (the one its export uses: the
 * chosen take if completed, else the latest completed one) and its length; what `Play storyboard`
 * plays next, skipping the shots with nothing to play.
 */

export interface TimelineShot {
  shotId: string;
  /** 1-based, as the storyboard shows it. */
  number: number;
  /** What the shot plays; none: it has no completed take. */
  take: TaskRecord | undefined;
}

export const timelineShots = (board: Pick<StoryboardRecord, 'shots'>, tasks: ReadonlyMap<string, TaskRecord>): TimelineShot[] =>
  board.shots.map((shot, i) => ({ shotId: shot.id, number: i + 1, take: exportTake(shot, tasks) }));

/** Frames per second of a `frames` request (the Seedance 1.0 models make 24). */
const FRAME_RATE = 24;

/** The length a take was asked for, in seconds; null when the service chose it (`-1`, or none given). */
export function requestedSeconds(body: VideoCreateBody): number | null {
  const { duration, frames } = body as { duration?: unknown; frames?: unknown };
  if (typeof duration === 'number' && duration > 0) return duration;
  if (typeof frames === 'number' && frames > 0) return frames / FRAME_RATE;
  return null;
}

/** A shot's length: as measured from its video when known (`measured`, by take), else as asked. */
export const shotSeconds = (shot: TimelineShot, measured: ReadonlyMap<string, number>): number | null =>
  shot.take ? (measured.get(shot.take.localId) ?? requestedSeconds(shot.take.body)) : null;

/** The storyboard's length: the shots that play, together. */
export const totalSeconds = (shots: readonly TimelineShot[], measured: ReadonlyMap<string, number>): number =>
  shots.reduce((total, shot) => total + (shotSeconds(shot, measured) ?? 0), 0);

/** The shot played after `shotId` (null: from the start), skipping those with nothing to play; null at the end. */
export function nextPlayable(shots: readonly TimelineShot[], shotId: string | null): TimelineShot | null {
  const from = shotId === null ? 0 : shots.findIndex((s) => s.shotId === shotId) + 1;
  return shots.slice(from).find((s) => s.take !== undefined) ?? null;
}

/** `5.0 s`. */
export const formatSeconds = (seconds: number): string => `${(Math.round(seconds * 10) / 10).toFixed(1)} s`;
