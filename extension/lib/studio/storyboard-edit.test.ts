import { describe, expect, it } from 'vitest';
import { modelSpec } from '@@/shared';
import { MODEL_IDS as ids } from '@@/shared/catalog/testing/model-ids';
import { addShot, applyEdit, deleteShot, duplicateShot, moveShot, moveShotTo, newStoryboard, updateShot } from '@/lib/studio/storyboard-edit';

const prompts = (board: { shots: { form: { prompt: string } }[] }) => board.shots.map((s) => s.form.prompt);

describe('editing a storyboard', () => {
  const base = () => {
    let board = newStoryboard('B', ids.s2, 1);
    board = applyEdit(board, addShot(ids.s2), modelSpec, 2);
    board = applyEdit(board, addShot(ids.s2), modelSpec, 3);
    board.shots.forEach((s, i) => (s.form.prompt = `p${i + 1}`));
    return board;
  };

  it('moves shots up and down, not past either end', () => {
    const board = base();
    const second = board.shots[1]!.id;
    expect(prompts(applyEdit(board, moveShot(second, -1), modelSpec))).toEqual(['p2', 'p1', 'p3']);
    expect(prompts(applyEdit(board, moveShot(second, 1), modelSpec))).toEqual(['p1', 'p3', 'p2']);
    expect(prompts(applyEdit(board, moveShot(board.shots[0]!.id, -1), modelSpec))).toEqual(['p1', 'p2', 'p3']);
  });

  it('moves a shot to any place (a drag on the timeline), the others keeping their order', () => {
    const board = base();
    expect(prompts(applyEdit(board, moveShotTo(board.shots[0]!.id, 2), modelSpec))).toEqual(['p2', 'p3', 'p1']);
    expect(prompts(applyEdit(board, moveShotTo(board.shots[2]!.id, 0), modelSpec))).toEqual(['p3', 'p1', 'p2']);
    expect(prompts(applyEdit(board, moveShotTo(board.shots[1]!.id, 3), modelSpec))).toEqual(['p1', 'p2', 'p3']);
  });

  it('duplicates a shot right after it, without its takes; deletes one', () => {
    const board = base();
    board.shots[0]!.takes = ['t1'];
    const copied = applyEdit(board, duplicateShot(board.shots[0]!.id), modelSpec);
    expect(prompts(copied)).toEqual(['p1', 'p1', 'p2', 'p3']);
    expect(copied.shots[1]!.takes).toEqual([]);
    expect(copied.shots[1]!.id).not.toBe(copied.shots[0]!.id);
    expect(prompts(applyEdit(board, deleteShot(board.shots[1]!.id), modelSpec))).toEqual(['p1', 'p3']);
  });

  it('drops a chain that is no longer allowed: moved first, or after a model without last frames', () => {
    let board = base();
    board = applyEdit(board, updateShot(board.shots[1]!.id, (s) => ({ ...s, chain: true })), modelSpec);
    expect(board.shots[1]!.chain).toBe(true);
    const moved = applyEdit(board, moveShot(board.shots[1]!.id, -1), modelSpec);
    expect(moved.shots[0]!.chain).toBe(false);
    const otherModel = applyEdit(board, updateShot(board.shots[0]!.id, (s) => ({ ...s, form: { ...s.form, model: ids.pro } })), modelSpec);
    expect(otherModel.shots[1]!.chain).toBe(false);
  });
});
