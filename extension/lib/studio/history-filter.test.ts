import { describe, expect, it } from 'vitest';
import type { LocalTaskStatus, TaskRecord } from '@/lib/storage/records/task-record';
import type { StoryboardRecord } from '@/lib/storage/records/studio-records';
import { ANY, filterHistory, historyModels, shotIndex } from '@/lib/studio/history-filter';

const task = (localId: string, model: string, status: LocalTaskStatus): TaskRecord =>
  ({ localId, model, body: { model }, status, progress: 0, idempotencyKey: localId, notified: false, createdAt: 0 }) as TaskRecord;

const boards: StoryboardRecord[] = [
  {
    id: 'b1',
    name: 'Trailer',
    createdAt: 0,
    updatedAt: 0,
    shots: [
      { id: 's1', form: { model: 'm', prompt: '', references: [], params: {} }, chain: false, takes: ['a', 'b'] },
      { id: 's2', form: { model: 'm', prompt: '', references: [], params: {} }, chain: true, takes: ['c'] },
    ],
  },
];
const tasks = [task('a', 'm1', 'completed'), task('b', 'm2', 'failed'), task('c', 'm1', 'in_progress'), task('d', 'm2', 'completed')];
const ids = (list: TaskRecord[]) => list.map((t) => t.localId);

describe('the history filter', () => {
  const places = shotIndex(boards);

  it('knows which shot each task is a take of', () => {
    expect(places.get('c')).toEqual({ boardId: 'b1', boardName: 'Trailer', shotId: 's2', shotNumber: 2 });
    expect(places.has('d')).toBe(false);
  });

  it('filters by model, status and shot, together', () => {
    expect(ids(filterHistory(tasks, ANY, places))).toEqual(['a', 'b', 'c', 'd']);
    expect(ids(filterHistory(tasks, { ...ANY, model: 'm1' }, places))).toEqual(['a', 'c']);
    expect(ids(filterHistory(tasks, { ...ANY, status: 'running' }, places))).toEqual(['c']);
    expect(ids(filterHistory(tasks, { ...ANY, status: 'completed' }, places))).toEqual(['a', 'd']);
    expect(ids(filterHistory(tasks, { ...ANY, shot: 's1' }, places))).toEqual(['a', 'b']);
    expect(ids(filterHistory(tasks, { ...ANY, shot: 'none' }, places))).toEqual(['d']);
    expect(ids(filterHistory(tasks, { model: 'm2', status: 'failed', shot: 's1' }, places))).toEqual(['b']);
  });

  it('offers the models the tasks used', () => {
    expect(historyModels(tasks)).toEqual(['m1', 'm2']);
  });
});
