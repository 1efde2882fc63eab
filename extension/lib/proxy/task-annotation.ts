import type { VideoTask } from '@@/shared';
import type { TaskCost, TaskRecord } from '@/lib/storage/records/task-record';

/**
 * A task answer of the proxy (`POST /v1/video/generations`, `GET /v1/video/generations/{id}`): the
 * service's task, plus the proxy's own `arkbridge` object when the proxy keeps budgets, e.g.
 * `{"cost":3.672,"currency":"CNY","priced":true}` and `"tracking":"expired"` once it stopped
 * following a task older than 7 days. Fields not read here (`keptUrl`…) are ignored.
 */
export interface ProxiedVideoTask extends VideoTask {
  arkbridge?: unknown;
}

/** What a task record keeps of the `arkbridge` object. */
export type TaskAnnotation = Pick<TaskRecord, 'cost' | 'tracking'>;

/** The record fields an answer's `arkbridge` object sets; only those it carries (a well-formed cost, `tracking: "expired"`). */
export function annotationOf(task: object): TaskAnnotation {
  const a = 'arkbridge' in task ? task.arkbridge : undefined;
  if (!a || typeof a !== 'object') return {};
  const { cost, currency, priced, tracking } = a as Record<string, unknown>;
  const annotation: TaskAnnotation = {};
  if (typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 && typeof currency === 'string' && currency && currency.length <= 16) {
    const stored: TaskCost = { cost, currency, priced: priced !== false };
    annotation.cost = stored;
  }
  if (tracking === 'expired') annotation.tracking = 'expired';
  return annotation;
}

/** Whether storing `annotation` would change the record. */
export function annotationChanges(record: TaskAnnotation, annotation: TaskAnnotation): boolean {
  const c = annotation.cost;
  const costChanged = c !== undefined && (record.cost?.cost !== c.cost || record.cost.currency !== c.currency || record.cost.priced !== c.priced);
  return costChanged || (annotation.tracking !== undefined && record.tracking !== annotation.tracking);
}
