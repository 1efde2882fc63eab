import type { ModelSpec, VideoCreateBody } from '@@/shared';
import { type GenerateForm, setParam } from '@/lib/generate/generate-form';
import type { TaskRecord } from '@/lib/storage/records/task-record';

/**
 * Draft, then final: for a model whose catalog has `draft` (480p only, and not with
 * `return_last_frame`), a cheap draft run with a fixed seed, then "Make final" on a draft result:
 * the very request and seed, `draft` off, at the resolution chosen.
 */

/** The resolution the catalog allows a draft at. */
export const DRAFT_RESOLUTION = '480p';

export const canDraft = (model: ModelSpec): boolean => Boolean(model.parameters.draft);

/** The draft's form: `draft` on at 480p, no last frame, and a seed (the final must repeat it). */
export function draftForm(form: GenerateForm, seed: number): GenerateForm {
  let next = setParam(setParam(form, 'draft', true), 'resolution', DRAFT_RESOLUTION);
  next = setParam(next, 'return_last_frame', undefined);
  return typeof next.params.seed === 'number' ? next : setParam(next, 'seed', seed);
}

/** A task that was a draft run. */
export const isDraft = (task: Pick<TaskRecord, 'body'>): boolean => (task.body as { draft?: unknown }).draft === true;

/** The resolutions a final may have: the model's, above the draft's. */
export function finalResolutions(model: ModelSpec): string[] {
  const rule = model.parameters.resolution;
  const values = rule?.type === 'enum' ? [...rule.values] : [];
  return values.filter((v) => v !== DRAFT_RESOLUTION);
}

/** The final's request: the draft's body and seed, `draft` left out (off), at `resolution`. */
export function finalRequest(draft: VideoCreateBody, resolution: string): VideoCreateBody {
  const { draft: _draft, ...rest } = draft as VideoCreateBody & { draft?: boolean };
  return { ...rest, resolution } as VideoCreateBody;
}
