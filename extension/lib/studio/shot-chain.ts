import type { ModelSpec } from '@@/shared';
import { allowedRoles, type FormOptions, type FormProblem, type FormReference, type GenerateForm, problems, setParam, specOf, toBody } from '@/lib/generate/generate-form';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import type { ShotRecord } from '@/lib/storage/records/studio-records';

/**
 * "Start from the previous shot's last frame": when a shot may, which frame it starts from, and the
 * create bodies of a chain (the previous shot asks for its last frame; this one gets it as its
 * `first_frame`, content item `image_url` with role `first_frame`). The model rules stay the Generate
 * form's (catalog parameters and roles); nothing here repeats them.
 */

/** The id of the first-frame reference the chain puts in a shot's form. */
export const CHAIN_REFERENCE_ID = 'chain-first-frame';
/** Stands in for a last frame not made yet, so that the rest of a chained shot is checked meanwhile. */
export const CHAIN_PLACEHOLDER = 'https://last-frame.invalid/previous-shot.png';

/** The model declares `return_last_frame` in its catalog. */
export const returnsLastFrame = (model: ModelSpec): boolean => Boolean(model.parameters.return_last_frame);
/** The model takes a first frame. */
export const takesFirstFrame = (model: ModelSpec): boolean => allowedRoles(model).includes('first_frame');

export type ChainBlock = 'first-shot' | 'model' | 'previous-model';

/**
 * Why the shot at `index` cannot start from the previous shot's last frame, or null when it can:
 * not the first shot, its model declares `return_last_frame` and takes a first frame, and the
 * previous shot's model declares `return_last_frame` (it is created asking for its last frame).
 */
export function chainBlock(models: readonly ModelSpec[], index: number): ChainBlock | null {
  if (index <= 0) return 'first-shot';
  const own = models[index]!;
  if (!returnsLastFrame(own) || !takesFirstFrame(own)) return 'model';
  if (!returnsLastFrame(models[index - 1]!)) return 'previous-model';
  return null;
}

/** The frame a chained shot starts from: the proxy's kept copy first (it outlives the service's 24-hour link), else the service's. */
export const lastFrameOf = (task: Pick<TaskRecord, 'keptLastFrameUrl' | 'lastFrameUrl'> | undefined): string | null =>
  task?.keptLastFrameUrl ?? task?.lastFrameUrl ?? null;

/** The chain's first frame as a reference of the form. */
export const chainReference = (url: string, label: string): FormReference => ({
  id: CHAIN_REFERENCE_ID,
  kind: 'image',
  role: 'first_frame',
  source: 'url',
  url,
  label,
});

/**
 * The form a shot is created with. A chained shot starts from `lastFrame` (the placeholder until
 * the previous shot has one): any first frame of its own is replaced. A shot followed by a chained
 * one asks for its last frame (`return_last_frame: true`).
 */
export function shotForm(shots: readonly Pick<ShotRecord, 'form' | 'chain'>[], index: number, lastFrame: string | null, label = ''): GenerateForm {
  const shot = shots[index]!;
  let form: GenerateForm = { ...shot.form, references: [...shot.form.references] };
  if (shot.chain && index > 0) {
    const own = form.references.filter((r) => r.role !== 'first_frame');
    form = { ...form, references: [chainReference(lastFrame ?? CHAIN_PLACEHOLDER, label), ...own] };
  }
  if (shots[index + 1]?.chain) form = setParam(form, 'return_last_frame', true);
  return form;
}

/** The create body of the shot at `index` (see shotForm). */
export const shotBody = (shots: readonly Pick<ShotRecord, 'form' | 'chain'>[], index: number, lastFrame: string | null, model: ModelSpec | string = shots[index]!.form.model) =>
  toBody(shotForm(shots, index, lastFrame), specOf(model));

/**
 * The problems of the shot at `index` as it will be created (a chained shot checked with a stand-in
 * for the frame it will start from, whose own address is not the member's to fix).
 */
export function shotProblems(shots: readonly Pick<ShotRecord, 'form' | 'chain'>[], index: number, model: ModelSpec, options: FormOptions = {}): FormProblem[] {
  return problems(shotForm(shots, index, null), model, options).filter((p) => !(p.target.kind === 'reference' && p.target.id === CHAIN_REFERENCE_ID));
}
