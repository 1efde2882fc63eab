import { modelSpec } from '@@/shared';
import { MODEL_IDS as ids } from '@@/shared/catalog/testing/model-ids';
import { emptyForm } from '@/lib/generate/generate-form';
import { storyboardStore } from '@/lib/storage/storyboard-store';
import { addShot, applyEdit, newStoryboard, updateShot } from '@/lib/studio/storyboard-edit';

/** A storyboard of two Seedance 2.0 shots, the second chained to the first, stored (the run tests' board). */
export async function chainedBoard() {
  let board = newStoryboard('Trailer', ids.s2);
  board = applyEdit(board, addShot(ids.s2), modelSpec);
  board = applyEdit(board, updateShot(board.shots[0]!.id, (s) => ({ ...s, form: { ...emptyForm(ids.s2), prompt: 'A door opens' } })), modelSpec);
  board = applyEdit(board, updateShot(board.shots[1]!.id, (s) => ({ ...s, chain: true, form: { ...emptyForm(ids.s2), prompt: 'She walks in' } })), modelSpec);
  await storyboardStore.put(board);
  return board;
}
