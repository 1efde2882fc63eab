import { type LocalTaskStatus, OPEN_TASK_STATUSES, type TaskRecord } from '@/lib/storage/records/task-record';
import type { BatchRecord, StoryboardRecord } from '@/lib/storage/records/studio-records';

/**
 * The studio's History: every task, filtered by model, status and shot. Which shot (or batch) a task
 * belongs to comes from the storyboards' and batches' takes.
 */

export type StatusFilter = 'all' | 'running' | 'completed' | 'failed';

export interface HistoryFilter {
  /** A model id, or '' for every model. */
  model: string;
  status: StatusFilter;
  /** '' every task; 'none' tasks of no shot; else a shot's id. */
  shot: string;
}

export const ANY: HistoryFilter = { model: '', status: 'all', shot: '' };

export interface TaskPlace {
  boardId: string;
  boardName: string;
  shotId: string;
  /** 1-based, as the storyboard shows it. */
  shotNumber: number;
}

/** Where each task of a storyboard is: task local id -> its shot. */
export function shotIndex(boards: readonly StoryboardRecord[]): Map<string, TaskPlace> {
  const index = new Map<string, TaskPlace>();
  for (const board of boards) {
    board.shots.forEach((shot, i) => {
      for (const take of shot.takes) index.set(take, { boardId: board.id, boardName: board.name, shotId: shot.id, shotNumber: i + 1 });
    });
  }
  return index;
}

/** The batch each task was launched in: task local id -> batch id. */
export const batchIndex = (batches: readonly BatchRecord[]): Map<string, string> => new Map(batches.flatMap((b) => b.takes.map((take) => [take, b.id] as const)));

const STATUSES: Record<Exclude<StatusFilter, 'all'>, readonly LocalTaskStatus[]> = {
  running: OPEN_TASK_STATUSES,
  completed: ['completed'],
  failed: ['failed'],
};

/** The tasks the filter keeps, in the order given (newest first from the store). */
export function filterHistory(tasks: readonly TaskRecord[], filter: HistoryFilter, places: ReadonlyMap<string, TaskPlace>): TaskRecord[] {
  return tasks.filter((task) => {
    if (filter.model && task.model !== filter.model) return false;
    if (filter.status !== 'all' && !STATUSES[filter.status].includes(task.status)) return false;
    if (filter.shot === 'none') return !places.has(task.localId);
    if (filter.shot) return places.get(task.localId)?.shotId === filter.shot;
    return true;
  });
}

/** The models the tasks used, sorted: the model filter's choices. */
export const historyModels = (tasks: readonly TaskRecord[]): string[] => [...new Set(tasks.map((t) => t.model))].sort();
