import { isAssetRef, parseAssetRef } from '../asset-ref';
import { modelSpec, type InputMode, type ModelSpec, type ParameterSpec } from '../catalog/models';
import { dataImageUriProblem, mediaUrlProblem, type MediaUrlOptions } from '../media-url';
import { check, type Checked, type FieldProblem } from '../validation';
import { hasTextInput, listReferences, type Reference } from './references';
import { GENERATION_PARAMETERS, videoCreateSchema, type VideoCreateBody } from './schemas';

export interface CheckedVideoCreate {
  body: VideoCreateBody;
  model: ModelSpec;
  references: Reference[];
}

const problem = (field: string, message: string): FieldProblem => ({ field, message: `${field}: ${message}` });

/**
 * Validates a `/v1/video/generations` create body against the service's rules and the model
 * catalog. Answers the first problem, naming the parameter (`content[2].image_url`).
 */
export function checkVideoCreate(input: unknown, options: MediaUrlOptions = {}): Checked<CheckedVideoCreate> {
  const shaped = check(videoCreateSchema, input);
  if (!shaped.ok) return shaped;
  const body = shaped.value;
  const model = modelSpec(body.model);
  const references = listReferences(body);
  const first = videoRequestProblems(body, model, references, options)[0];
  return first ? { ok: false, problem: first } : { ok: true, value: { body, model, references } };
}

/** Every problem of a shape-valid body for a model: the popup shows them all before submit. */
export function videoRequestProblems(
  body: VideoCreateBody,
  model: ModelSpec = modelSpec(body.model),
  references: Reference[] = listReferences(body),
  options: MediaUrlOptions = {},
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (!hasTextInput(body)) problems.push(problem('prompt', 'at least one text input is required (prompt or a text content element)'));
  for (const ref of references) {
    const why = referenceUrlProblem(ref, model, options);
    if (why) problems.push(problem(ref.param, why));
  }
  problems.push(...frameProblems(references));
  const mode = inputMode(references);
  if (mode === null) {
    const mixed = references.find((r) => r.role.startsWith('reference_'))!;
    problems.push(problem(mixed.param, 'first/last frames and reference media cannot be combined in one request'));
  }
  if (mode && !model.modes.includes(mode)) problems.push(modeProblem(model, mode, references));
  if (mode === 'reference') problems.push(...referenceCountProblems(model, references, body));
  problems.push(...parameterProblems(model, body));
  return problems;
}

function referenceUrlProblem(ref: Reference, model: ModelSpec, options: MediaUrlOptions): string | null {
  if (isAssetRef(ref.url)) {
    if (!parseAssetRef(ref.url)) return 'is not a valid asset://<asset_id> reference';
    return model.assetRefs ? null : `${model.id} does not accept asset:// library references`;
  }
  if (ref.url.startsWith('data:')) {
    if (ref.kind !== 'image') return 'data URIs are accepted only for images';
    if (!model.dataUriImages) return `${model.id} does not accept data URI images`;
    return dataImageUriProblem(ref.url);
  }
  const why = mediaUrlProblem(ref.url, options);
  return why ? `${why} (or asset://<id>${ref.kind === 'image' ? ', or a data:image URI' : ''})` : null;
}

function frameProblems(references: Reference[]): FieldProblem[] {
  const firsts = references.filter((r) => r.role === 'first_frame');
  const lasts = references.filter((r) => r.role === 'last_frame');
  const out: FieldProblem[] = [];
  if (firsts.length > 1) out.push(problem(firsts[1]!.param, 'only one first_frame is allowed'));
  if (lasts.length > 1) out.push(problem(lasts[1]!.param, 'only one last_frame is allowed'));
  if (lasts.length && !firsts.length) out.push(problem(lasts[0]!.param, 'a last_frame needs a first_frame'));
  if (lasts[0] && firsts[0] && lasts[0].url === firsts[0].url) {
    out.push(problem(lasts[0].param, 'the last frame must differ from the first frame'));
  }
  return out;
}

/** The request's input mode, or null when frames and references are mixed (reported separately). */
export function inputMode(references: Reference[]): InputMode | null {
  const frames = references.filter((r) => r.role === 'first_frame' || r.role === 'last_frame');
  const refs = references.filter((r) => r.role.startsWith('reference_'));
  if (frames.length && refs.length) return null;
  if (refs.length) return 'reference';
  if (frames.some((r) => r.role === 'last_frame')) return 'first_last';
  return frames.length ? 'first_frame' : 'text';
}

const MODE_NAMES: Record<InputMode, string> = {
  text: 'text only',
  first_frame: 'a first frame',
  first_last: 'first and last frames',
  reference: 'reference media',
};

function modeProblem(model: ModelSpec, mode: InputMode, references: Reference[]): FieldProblem {
  const accepted = model.modes.map((m) => MODE_NAMES[m]).join('; ');
  const offending =
    mode === 'text'
      ? undefined
      : mode === 'first_last' && model.modes.includes('first_frame')
        ? references.find((r) => r.role === 'last_frame')
        : references.find((r) => (mode === 'reference') === r.role.startsWith('reference_'));
  const field = offending?.param ?? 'content';
  return problem(field, `${model.id} does not take ${MODE_NAMES[mode]}; it accepts: ${accepted}`);
}

function referenceCountProblems(model: ModelSpec, references: Reference[], body: VideoCreateBody): FieldProblem[] {
  const limits = model.references;
  if (!limits) return [];
  const of = (kind: Reference['kind']) => references.filter((r) => r.kind === kind);
  const [images, videos, audios] = [of('image'), of('video'), of('audio')];
  const out: FieldProblem[] = [];
  const over = (list: Reference[], max: number, what: string) => {
    if (list.length > max) out.push(problem(list[max]!.param, max ? `${model.id} takes at most ${max} ${what}` : `${model.id} does not take ${what}`));
  };
  over(images, limits.images.max, 'reference images');
  over(videos, limits.videos.max, 'reference videos');
  over(audios, limits.audios.max, 'reference audio clips');
  if (images.length < limits.images.min) out.push(problem('content', `${model.id} needs at least ${limits.images.min} reference image(s)`));
  if (references.length > limits.files) out.push(problem(references[limits.files]!.param, `${model.id} takes at most ${limits.files} reference files in all`));
  if (limits.audioNeedsVisual && audios.length && !images.length && !videos.length) {
    out.push(problem(audios[0]!.param, 'reference audio needs at least one reference image or video'));
  }
  if (limits.resolutions && body.resolution && !limits.resolutions.includes(body.resolution)) {
    out.push(problem('resolution', `${model.id} takes reference images only at ${limits.resolutions.join(', ')}`));
  }
  return out;
}

function parameterProblems(model: ModelSpec, body: VideoCreateBody): FieldProblem[] {
  const out: FieldProblem[] = [];
  for (const name of GENERATION_PARAMETERS) {
    const value = body[name];
    if (value === undefined) continue;
    const spec = model.parameters[name];
    if (!spec) {
      out.push(problem(name, `${model.id} does not support this parameter`));
      continue;
    }
    // A flag set to false asks for nothing, so conditions on it (draft: 480p only, ...) do not apply.
    const why = valueProblem(spec, value) ?? (value === false ? null : conditionProblem(spec, body));
    if (why) out.push(problem(name, why));
  }
  return out;
}

/** Why `value` is not allowed by a parameter rule, or null. */
export function valueProblem(spec: ParameterSpec, value: unknown): string | null {
  switch (spec.type) {
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'enum':
      return spec.values.includes(String(value)) ? null : `must be one of ${spec.values.join(', ')}`;
    case 'integer': {
      if (typeof value !== 'number' || !Number.isInteger(value)) return 'must be an integer';
      if (spec.also?.includes(value)) return null;
      const extra = spec.also?.length ? ` (or ${spec.also.join(', ')})` : '';
      if (value < spec.min || value > spec.max) return `must be ${spec.min} to ${spec.max}${extra}`;
      if (spec.step && (value - (spec.base ?? 0)) % spec.step !== 0) return `must be of the form ${spec.base}+${spec.step}n`;
      return null;
    }
  }
}

function conditionProblem(spec: ParameterSpec, body: VideoCreateBody): string | null {
  for (const [other, values] of Object.entries(spec.onlyWith ?? {})) {
    const given = body[other as keyof VideoCreateBody];
    if (given !== undefined && !values.includes(String(given))) return `is allowed only with ${other} ${values.join(' or ')}`;
  }
  const clash = spec.notWith?.find((other) => body[other] !== undefined && body[other] !== false);
  return clash ? `cannot be combined with ${clash}` : null;
}
