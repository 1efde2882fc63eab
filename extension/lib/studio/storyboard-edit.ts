import type { ModelSpec } from '@@/shared';
import { emptyForm, type GenerateForm } from '@/lib/generate/generate-form';
import { newLocalId } from '@/lib/storage/database';
import type { ShotRecord, StoryboardRecord } from '@/lib/storage/records/studio-records';
import { chainBlock } from '@/lib/studio/shot-chain';

/**
 * Editing a storyboard as data: shots added, moved, duplicated, deleted, changed. After each edit a
 * shot keeps "start from the previous shot's last frame" only where it still may (chainBlock): the
 * first shot never, a shot whose model (or whose predecessor's) gives no last frame neither.
 */

export function newStoryboard(name: string, model: string, now: number = Date.now()): StoryboardRecord {
  return { id: newLocalId(), name, shots: [newShot(model)], createdAt: now, updatedAt: now };
}

export const newShot = (model: string, form: GenerateForm = emptyForm(model)): ShotRecord => ({ id: newLocalId(), form, chain: false, takes: [] });

/** Turns off the chains no longer allowed. `specOf`: the catalog entry of a model id. */
export function settleChains(board: StoryboardRecord, specOf: (id: string) => ModelSpec): StoryboardRecord {
  const models = board.shots.map((s) => specOf(s.form.model));
  const shots = board.shots.map((shot, index) => (shot.chain && chainBlock(models, index) !== null ? { ...shot, chain: false } : shot));
  return shots.some((s, i) => s !== board.shots[i]) ? { ...board, shots } : board;
}

type Edit = (board: StoryboardRecord) => StoryboardRecord;

/** A new shot at the end, with the last shot's model and parameters (a storyboard usually keeps its look). */
export const addShot =
  (fallbackModel: string): Edit =>
  (board) => {
    const last = board.shots.at(-1);
    const form: GenerateForm = last ? { ...emptyForm(last.form.model), params: { ...last.form.params } } : emptyForm(fallbackModel);
    return { ...board, shots: [...board.shots, newShot(form.model, form)] };
  };

/** Moves a shot to place `to` (0-based; the timeline's drag and keys); nothing past either end. */
export const moveShotTo =
  (id: string, to: number): Edit =>
  (board) => {
    const from = board.shots.findIndex((s) => s.id === id);
    if (from < 0 || to < 0 || to >= board.shots.length || to === from) return board;
    const shots = board.shots.filter((s) => s.id !== id);
    shots.splice(to, 0, board.shots[from]!);
    return { ...board, shots };
  };

/** Moves a shot one place up (-1) or down (+1); nothing at either end. */
export const moveShot =
  (id: string, delta: -1 | 1): Edit =>
  (board) =>
    moveShotTo(id, board.shots.findIndex((s) => s.id === id) + delta)(board);

/** A copy of the shot right after it: its prompt, references, settings and chain, none of its takes. */
export const duplicateShot =
  (id: string): Edit =>
  (board) => {
    const index = board.shots.findIndex((s) => s.id === id);
    if (index < 0) return board;
    const source = board.shots[index]!;
    const copy: ShotRecord = { id: newLocalId(), form: structuredClone(source.form), chain: source.chain, takes: [] };
    return { ...board, shots: [...board.shots.slice(0, index + 1), copy, ...board.shots.slice(index + 1)] };
  };

/** Removes a shot (its tasks stay in the task list). */
export const deleteShot =
  (id: string): Edit =>
  (board) => ({ ...board, shots: board.shots.filter((s) => s.id !== id) });

export const updateShot =
  (id: string, change: (shot: ShotRecord) => ShotRecord): Edit =>
  (board) => ({ ...board, shots: board.shots.map((s) => (s.id === id ? change(s) : s)) });

/** Applies an edit, settles the chains and stamps the change. */
export const applyEdit = (board: StoryboardRecord, edit: Edit, specOf: (id: string) => ModelSpec, now: number = Date.now()): StoryboardRecord => ({
  ...settleChains(edit(board), specOf),
  updatedAt: now,
});
