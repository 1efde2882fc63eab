import * as v from 'valibot';
import { arkbridgeFieldSchema, type VideoTask } from '@@/shared';
import type { KeptCopy, TaskCost, TaskRecord } from '@/lib/storage/records/task-record';

/**
 * A task answer of the proxy (`POST /v1/video/generations`, `GET /v1/video/generations/{id}`): the
 * service's task, plus the proxy's own `arkbridge` object (the shared `arkbridgeFieldSchema`) when
 * it keeps budgets, e.g. `{"cost":3.672,"currency":"CNY","priced":true}`, `"tracking":"expired"`
 * once it stopped following a task older than 7 days, and its kept copy of a completed video
 * (`keptUrl`, `keptUntil`, `keptLastFrameUrl` for a task that returned its last frame, or `keep`
 * while there is none).
 */
export interface ProxiedVideoTask extends VideoTask {
  arkbridge?: unknown;
}

/** The record fields that say where the kept copy is (all of them replaced by each answer that says so). */
export const KEPT_FIELDS = ['keptUrl', 'keptUntil', 'keep', 'keepError', 'keptLastFrameUrl'] as const satisfies readonly (keyof KeptCopy)[];

/** What a task record keeps of the `arkbridge` object: `kept` is the copy's state as this answer says (none: not yet). */
export type TaskAnnotation = Pick<TaskRecord, 'cost' | 'tracking'> & { kept?: KeptCopy };

/** What an answer's `arkbridge` object says, read with the shared schema; nothing when it has none or a malformed one. */
export function annotationOf(task: object): TaskAnnotation {
  const read = v.safeParse(arkbridgeFieldSchema, 'arkbridge' in task ? task.arkbridge : undefined);
  if (!read.success) return {};
  const { cost, currency, priced, tracking, keptUrl, keptLastFrameUrl, keptUntil, keep, keepError } = read.output;
  const stored: TaskCost = { cost, currency, priced };
  const kept: KeptCopy = {};
  // With the copy of the video, its last frame's (a create with `return_last_frame`): a chained shot starts from it.
  if (keptUrl !== undefined && keptUntil !== undefined) Object.assign(kept, { keptUrl, keptUntil }, keptLastFrameUrl !== undefined ? { keptLastFrameUrl } : {});
  else if (keep !== undefined) Object.assign(kept, { keep }, keep === 'failed' && keepError ? { keepError } : {});
  return { cost: stored, ...(tracking ? { tracking } : {}), kept };
}

/** Whether storing `annotation` would change the record. */
export function annotationChanges(record: Pick<TaskRecord, 'cost' | 'tracking' | keyof KeptCopy>, annotation: TaskAnnotation): boolean {
  const c = annotation.cost;
  const costChanged = c !== undefined && (record.cost?.cost !== c.cost || record.cost.currency !== c.currency || record.cost.priced !== c.priced);
  const kept = annotation.kept;
  const keptChanged = kept !== undefined && KEPT_FIELDS.some((field) => record[field] !== kept[field]);
  return costChanged || (annotation.tracking !== undefined && record.tracking !== annotation.tracking) || keptChanged;
}

/**
 * `record` with what `annotation` says: its cost and tracking when given, and the kept copy's
 * fields replaced as a whole (a copy deleted or kept at last leaves nothing of the earlier state),
 * read at `now` (ms) when there is a copy or a word about it.
 */
export function annotated<T extends TaskRecord>(record: T, annotation: TaskAnnotation, now: number): T {
  const { kept, ...rest } = annotation;
  const next: T = { ...record, ...rest };
  if (kept) {
    for (const field of KEPT_FIELDS) delete next[field];
    Object.assign(next, kept);
    if (kept.keptUrl !== undefined || kept.keep !== undefined) next.keptReadAt = now;
  }
  return next;
}
