import { batchStore } from '@/lib/storage/batch-store';
import { newLocalId } from '@/lib/storage/database';
import { announceChange } from '@/lib/storage/store-changes';
import { storyboardStore } from '@/lib/storage/storyboard-store';

/**
 * Where a take belongs (a storyboard's shot, a batch) and which take is chosen. A take made from
 * another one ("Make final" on a draft) joins the same shot or batch, linked before its task is
 * created (its local id chosen first), as the storyboard's own takes are.
 */

/** Adds `take` next to `source` in the shot or batch that holds `source`. Answers whether one did. */
export async function linkTakeBeside(source: string, take: string): Promise<boolean> {
  let linked = false;
  for (const board of await storyboardStore.all()) {
    if (!board.shots.some((s) => s.takes.includes(source))) continue;
    await storyboardStore.update(board.id, (current) => ({
      ...current,
      shots: current.shots.map((s) => (s.takes.includes(source) && !s.takes.includes(take) ? { ...s, takes: [...s.takes, take] } : s)),
    }));
    linked = true;
  }
  for (const batch of await batchStore.newestFirst()) {
    if (!batch.takes.includes(source)) continue;
    await batchStore.update(batch.id, (current) => (current.takes.includes(take) ? undefined : { ...current, takes: [...current.takes, take] }));
    linked = true;
  }
  if (linked) announceChange('storyboards', 'batches');
  return linked;
}

/** A new take's local id, linked beside `source` already (see submitTask's `localId`). */
export async function newTakeBeside(source: string): Promise<string> {
  const take = newLocalId();
  await linkTakeBeside(source, take);
  return take;
}

export type TakeOwner = { kind: 'shot'; boardId: string; shotId: string } | { kind: 'batch'; batchId: string };

/** Marks `take` as the chosen one of its shot or batch (Compare's choice; a shot exports it). */
export async function chooseTake(owner: TakeOwner, take: string): Promise<void> {
  if (owner.kind === 'shot') {
    await storyboardStore.update(owner.boardId, (board) => ({ ...board, shots: board.shots.map((s) => (s.id === owner.shotId ? { ...s, chosen: take } : s)) }));
  } else {
    await batchStore.update(owner.batchId, (batch) => ({ ...batch, chosen: take }));
  }
  announceChange('storyboards', 'batches');
}
