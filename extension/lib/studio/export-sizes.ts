import { createOutputSize, type ModelSpec, OUTPUT_SIZES, type ParameterSpec } from '@@/shared';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import type { StoredForm } from '@/lib/storage/records/studio-records';
import type { ExportClip } from '@/lib/studio/export-clips';

/**
 * Whether a storyboard's clips are one size, so that they can be joined without re-encoding; if
 * not, the storyboard's size and the shots of another size, and the form that makes a shot again
 * at the storyboard's size. A take's size is the one its create asked (createOutputSize: its
 * resolution, else the model's default, at its ratio, `adaptive` as 16:9), as the service makes it;
 * so it is known before anything is downloaded.
 */

/** A pixel size of the catalog with the resolution and ratio that make it. */
export interface NamedSize {
  width: number;
  height: number;
  resolution: string;
  ratio: string;
}

export interface OddShot {
  shotNumber: number;
  shotId: string;
  size: NamedSize;
}

export type SizeCheck = { ok: true } | { ok: false; size: NamedSize; odd: OddShot[] };

/** The size a take was made at; undefined when the catalog cannot tell (an unknown model without resolution). */
export function takeSize(task: Pick<TaskRecord, 'body'>): NamedSize | undefined {
  const size = createOutputSize(task.body);
  if (!size) return undefined;
  // Every size of the table is made by one resolution and ratio only.
  for (const [resolution, byRatio] of Object.entries(OUTPUT_SIZES)) {
    for (const [ratio, { width, height }] of Object.entries(byRatio)) {
      if (width === size.width && height === size.height) return { width, height, resolution, ratio };
    }
  }
  return undefined;
}

const key = (size: NamedSize) => `${size.width}x${size.height}`;

/**
 * The storyboard's size is the one most of its clips have; between sizes that as many clips have,
 * the first shot's of them (with two shots of two sizes: shot 1's). Clips of unknown size are left
 * to the join, which checks the files themselves.
 */
export function checkSizes(clips: readonly ExportClip[]): SizeCheck {
  const sized = clips.flatMap((clip) => {
    const size = takeSize(clip.task);
    return size ? [{ clip, size }] : [];
  });
  const counts = new Map<string, number>();
  for (const { size } of sized) counts.set(key(size), (counts.get(key(size)) ?? 0) + 1);
  if (counts.size < 2) return { ok: true };
  // Clips are in shot order, so the first that reaches the highest count is the earliest such shot.
  const most = Math.max(...counts.values());
  const board = sized.find(({ size }) => counts.get(key(size)) === most)!.size;
  const odd = sized.filter(({ size }) => key(size) !== key(board)).map(({ clip, size }) => ({ shotNumber: clip.shotNumber, shotId: clip.shotId, size }));
  return { ok: false, size: board, odd };
}

/**
 * A shot's form set to make it again at `size`: its resolution and ratio; a draft stays one only
 * where the model makes drafts at that resolution. Null when the shot's model takes neither that
 * resolution nor that ratio (it cannot make that size).
 */
export function formAtSize(form: StoredForm, size: NamedSize, spec: ModelSpec): StoredForm | null {
  const allows = (rule: ParameterSpec | undefined, value: string) => rule?.type === 'enum' && rule.values.includes(value);
  if (!allows(spec.parameters.resolution, size.resolution) || !allows(spec.parameters.ratio, size.ratio)) return null;
  const params = { ...form.params, resolution: size.resolution, ratio: size.ratio };
  const draftAt = spec.parameters.draft?.onlyWith?.resolution;
  if (params.draft === true && draftAt && !draftAt.includes(size.resolution)) delete params.draft;
  return { ...form, params };
}
