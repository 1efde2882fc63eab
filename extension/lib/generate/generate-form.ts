import {
  type ContentElement,
  dataImageUriProblem,
  GENERATION_PARAMETERS,
  type GenerationParameter,
  type InputMode,
  isAssetRef,
  mediaUrlProblem,
  modelSpec,
  type ModelSpec,
  parseAssetRef,
  type ReferenceKind,
  type ReferenceRole,
  toAssetRef,
  valueProblem,
  type VideoCreateBody,
  videoRequestProblems,
} from '@@/shared';
import { t } from '@/lib/i18n/translate';
import type { AssetRecord } from '@/lib/storage/records/asset-record';
import { contentIndex, describeParam, humanize, paramLabel } from '@/lib/tasks/task-presentation';
import '@/lib/i18n/generate.en';

/**
 * The Generate form as data: what the member chose, the create body it makes, and every problem
 * with it. The rules (which roles, how many, which values) are never written here: they come from
 * the model catalog and the shared `videoRequestProblems`, as the proxy applies them.
 */

export type ReferenceSource = 'library' | 'url' | 'file';

export interface FormReference {
  /** Local row id (stable while the form is edited). */
  id: string;
  kind: ReferenceKind;
  role: ReferenceRole;
  source: ReferenceSource;
  /** `https://…`, `asset://<id>` or `data:image/…;base64,…`. */
  url: string;
  /** What the member recognises: the asset's or file's name, or the URL. */
  label: string;
  assetId?: string;
  /** Size of a local file in bytes. */
  bytes?: number;
}

export type ParamValue = string | number | boolean;
export type FormParams = Partial<Record<GenerationParameter, ParamValue>>;

export interface GenerateForm {
  model: string;
  prompt: string;
  references: FormReference[];
  /** Only what the member set: anything absent is left to the service's default. */
  params: FormParams;
}

/** The model's entry in a catalog (the proxy's, from /proxy/capabilities), else the built-in one. */
export type ModelRef = ModelSpec | string;
export const specOf = (model: ModelRef): ModelSpec => (typeof model === 'string' ? modelSpec(model) : model);

export const ROLES: readonly ReferenceRole[] = ['reference_image', 'first_frame', 'last_frame', 'reference_video', 'reference_audio'];

export const ROLE_KIND: Record<ReferenceRole, ReferenceKind> = {
  reference_image: 'image',
  first_frame: 'image',
  last_frame: 'image',
  reference_video: 'video',
  reference_audio: 'audio',
};

/** The roles a model takes, from its catalog input modes and reference limits. */
export function allowedRoles(model: ModelRef): ReferenceRole[] {
  const spec = specOf(model);
  const has = (mode: InputMode) => spec.modes.includes(mode);
  const refs = has('reference') ? spec.references : null;
  const allowed: Record<ReferenceRole, boolean> = {
    reference_image: Boolean(refs && refs.images.max > 0),
    first_frame: has('first_frame') || has('first_last'),
    last_frame: has('first_last'),
    reference_video: Boolean(refs && refs.videos.max > 0),
    reference_audio: Boolean(refs && refs.audios.max > 0),
  };
  return ROLES.filter((role) => allowed[role]);
}

/** The roles a reference of this kind may take with the model. */
export const rolesFor = (kind: ReferenceKind, model: ModelRef): ReferenceRole[] => allowedRoles(model).filter((r) => ROLE_KIND[r] === kind);

export const emptyForm = (model: string): GenerateForm => ({ model, prompt: '', references: [], params: {} });

const element = (ref: FormReference): ContentElement => {
  switch (ref.kind) {
    case 'image':
      return { type: 'image_url', image_url: { url: ref.url }, role: ref.role as 'reference_image' | 'first_frame' | 'last_frame' };
    case 'video':
      return { type: 'video_url', video_url: { url: ref.url }, role: 'reference_video' };
    case 'audio':
      return { type: 'audio_url', audio_url: { url: ref.url }, role: 'reference_audio' };
  }
};

/**
 * The create body: the prompt as `content[0]` (a text element), reference `i` as `content[i + 1]`,
 * and only the parameters the model supports.
 */
export function toBody(form: GenerateForm, model: ModelRef = form.model): VideoCreateBody {
  const spec = specOf(model);
  const body: Record<string, unknown> = {
    model: form.model,
    content: [{ type: 'text', text: form.prompt.trim() }, ...form.references.map(element)],
  };
  for (const name of GENERATION_PARAMETERS) {
    const value = form.params[name];
    if (value === undefined || value === '' || !spec.parameters[name]) continue;
    body[name] = value;
  }
  return body as VideoCreateBody;
}

/** Where a problem shows: next to the prompt, a reference row, the references, or a parameter. */
export type ProblemTarget =
  | { kind: 'prompt' }
  | { kind: 'reference'; index: number; id: string }
  | { kind: 'references' }
  | { kind: 'param'; name: GenerationParameter }
  | { kind: 'form' };

export interface FormProblem {
  target: ProblemTarget;
  /** The request path the rule named (`content[2].image_url`). */
  field: string;
  /** Why, without the field's name (shown next to the field). */
  reason: string;
  /** With the field's name in the member's words ('Reference image 2: …'), for summaries. */
  message: string;
}

export interface FormOptions {
  /** Plain http:// media accepted by the proxy (its ALLOW_HTTP_MEDIA). */
  allowHttp?: boolean;
}

/** Maps a request path back to the form: `content[0]` is the prompt, `content[i + 1]` reference i. */
export function targetOf(field: string, form: GenerateForm): ProblemTarget {
  if (field === 'prompt') return { kind: 'prompt' };
  if (field === 'content') return { kind: 'references' };
  if ((GENERATION_PARAMETERS as readonly string[]).includes(field)) return { kind: 'param', name: field as GenerationParameter };
  const index = contentIndex(field);
  if (index === 0) return { kind: 'prompt' };
  if (index !== null && form.references[index - 1]) return { kind: 'reference', index: index - 1, id: form.references[index - 1]!.id };
  return { kind: 'form' };
}

/** Every problem of the form for its model, each placed next to the field it names. */
export function problems(form: GenerateForm, model: ModelRef = form.model, options: FormOptions = {}): FormProblem[] {
  const spec = specOf(model);
  const body = toBody(form, spec);
  const seen = new Set<string>();
  // One problem per field (the first): 5 images on a 4-image model break two limits at the same element.
  const found = videoRequestProblems(body, spec, undefined, { allowHttp: Boolean(options.allowHttp) }).filter((p) => !seen.has(p.field) && seen.add(p.field));
  return found.map(({ field, message }) => {
    const bare = message.startsWith(`${field}: `) ? message.slice(field.length + 2) : message;
    const reason = humanize(bare, body, spec);
    return { target: targetOf(field, form), field, reason, message: `${describeParam(field, body)}: ${reason}` };
  });
}

/** The problems shown next to one target. */
export const problemsAt = (list: FormProblem[], match: (target: ProblemTarget) => boolean): FormProblem[] => list.filter((p) => match(p.target));

// --- Changing the form --------------------------------------------------------------------------

let rowIds = 0;
const newRowId = () => `ref-${Date.now().toString(36)}-${++rowIds}`;

export function addReference(form: GenerateForm, ref: Omit<FormReference, 'id'> & { id?: string }): GenerateForm {
  return { ...form, references: [...form.references, { ...ref, id: ref.id ?? newRowId() }] };
}

export const removeReference = (form: GenerateForm, id: string): GenerateForm => ({ ...form, references: form.references.filter((r) => r.id !== id) });

/** Gives a reference another role of its kind. */
export function setRole(form: GenerateForm, id: string, role: ReferenceRole): GenerateForm {
  return { ...form, references: form.references.map((r) => (r.id === id && ROLE_KIND[role] === r.kind ? { ...r, role } : r)) };
}

/** Sets a parameter; undefined or '' clears it (the service's default applies). */
export function setParam(form: GenerateForm, name: GenerationParameter, value: ParamValue | undefined): GenerateForm {
  const params = { ...form.params };
  if (value === undefined || value === '') delete params[name];
  else params[name] = value;
  return { ...form, params };
}

export interface SwitchResult {
  form: GenerateForm;
  /** What the new model does not take and was removed, in the member's words. */
  dropped: string[];
}

/**
 * Changes the model, keeping the prompt and whatever the new model takes. References in a role the
 * model has no place for, parameters it does not support or values it does not allow are removed;
 * then, by the shared rules, references that only the new model refuses (library assets, inline
 * files, counts over its limits). Problems the form already had stay for the member to fix.
 */
export function switchModel(form: GenerateForm, next: ModelRef, options: FormOptions = {}): SwitchResult {
  const from = specOf(form.model);
  const to = specOf(next);
  const dropped: string[] = [];
  const oldBody = toBody(form, from);
  const nameOf = new Map(form.references.map((r, i) => [r.id, describeParam(`content[${i + 1}]`, oldBody)]));

  const params: FormParams = {};
  for (const name of GENERATION_PARAMETERS) {
    const value = form.params[name];
    if (value === undefined) continue;
    const spec = to.parameters[name];
    if (!spec) {
      dropped.push(t('generate.dropped.param', { param: paramLabel(name), model: to.label }));
      continue;
    }
    const why = valueProblem(spec, value);
    const fromSpec = from.parameters[name];
    if (why && !(fromSpec && valueProblem(fromSpec, value))) {
      dropped.push(t('generate.dropped.value', { param: paramLabel(name), value: String(value), model: to.label, reason: why }));
      continue;
    }
    params[name] = value;
  }

  const roles = allowedRoles(to);
  let references = form.references.filter((ref) => {
    if (roles.includes(ref.role)) return true;
    dropped.push(t('generate.dropped.role', { item: nameOf.get(ref.id)!, model: to.label, what: t(`generate.roles.${ref.role}`) }));
    return false;
  });

  // What the shared rules refuse with the new model but did not refuse before.
  const before = new Set(
    problems(form, from, options)
      .map((p) => p.target)
      .flatMap((target) => (target.kind === 'reference' ? [target.id] : [])),
  );
  for (;;) {
    const draft: GenerateForm = { ...form, model: to.id, references, params };
    const fresh = problems(draft, to, options).find((p) => p.target.kind === 'reference' && !before.has(p.target.id));
    if (!fresh || fresh.target.kind !== 'reference') break;
    const id = fresh.target.id;
    dropped.push(t('generate.dropped.rule', { item: nameOf.get(id)!, reason: fresh.reason }));
    references = references.filter((r) => r.id !== id);
  }
  return { form: { ...form, model: to.id, references, params }, dropped };
}

// --- Parameter controls -------------------------------------------------------------------------

interface ControlBase {
  name: GenerationParameter;
  label: string;
  /** Allowed values in words, and the catalog's note. */
  hint: string;
}

export type ParamControl =
  | (ControlBase & { control: 'select'; values: readonly string[] })
  | (ControlBase & { control: 'number'; min: number; max: number; step?: number })
  | (ControlBase & { control: 'checkbox'; default: boolean });

/** The controls for the parameters the model supports, with its allowed values, in request order. */
export function paramControls(model: ModelRef): ParamControl[] {
  const spec = specOf(model);
  const out: ParamControl[] = [];
  for (const name of GENERATION_PARAMETERS) {
    const rule = spec.parameters[name];
    if (!rule) continue;
    const base = { name, label: paramLabel(name) };
    const note = rule.note ?? '';
    switch (rule.type) {
      case 'enum':
        out.push({ ...base, control: 'select', values: rule.values, hint: note });
        break;
      case 'integer': {
        const also = rule.also ?? [];
        const parts = [t('generate.hint.range', { min: rule.min, max: rule.max })];
        if (rule.step) parts.push(t('generate.hint.step', { step: rule.step }));
        if (also.length) parts.push(t('generate.hint.also', { values: also.join(', ') }));
        if (note) parts.push(note);
        out.push({
          ...base,
          control: 'number',
          // A number input's step counts from its min: 29 + 4k is the catalog's 25 + 4n.
          min: Math.min(rule.min, ...also),
          max: Math.max(rule.max, ...also),
          ...(rule.step ? { step: rule.step } : {}),
          hint: parts.join('; '),
        });
        break;
      }
      case 'boolean':
        out.push({ ...base, control: 'checkbox', default: rule.default ?? false, hint: note });
        break;
    }
  }
  return out;
}

/** What the model takes, in words: its input modes and reference limits from the catalog. */
export function modelSummary(model: ModelRef): string[] {
  const spec = specOf(model);
  const lines = [t('generate.modes', { modes: spec.modes.map((m) => t(`generate.mode.${m}`)).join(t('generate.listSeparator')) })];
  const refs = spec.modes.includes('reference') ? spec.references : null;
  if (refs) {
    const parts = [
      refs.images.min ? t('generate.limits.imagesRange', { min: refs.images.min, max: refs.images.max }) : t('generate.limits.images', { max: refs.images.max }),
      ...(refs.videos.max ? [t('generate.limits.videos', { max: refs.videos.max })] : []),
      ...(refs.audios.max ? [t('generate.limits.audios', { max: refs.audios.max })] : []),
      ...(refs.files < refs.images.max + refs.videos.max + refs.audios.max ? [t('generate.limits.files', { max: refs.files })] : []),
    ];
    lines.push(t('generate.limits', { limits: parts.join(t('generate.listSeparator')) }));
    if (refs.audioNeedsVisual && refs.audios.max > 0) lines.push(t('generate.audioNeedsVisual'));
    if (refs.note) lines.push(refs.note);
  }
  if (spec.modes.includes('reference') && (spec.modes.includes('first_frame') || spec.modes.includes('first_last'))) lines.push(t('generate.noMixing'));
  return lines;
}

/** How many references of each kind the form holds, against the model's limits (reference mode). */
export function referenceCounts(form: GenerateForm, model: ModelRef): { kind: ReferenceKind; count: number; max: number | null }[] {
  const refs = specOf(model).references;
  const count = (kind: ReferenceKind) => form.references.filter((r) => r.kind === kind && r.role.startsWith('reference_')).length;
  return (['image', 'video', 'audio'] as const).map((kind) => ({
    kind,
    count: count(kind),
    max: refs ? (kind === 'image' ? refs.images.max : kind === 'video' ? refs.videos.max : refs.audios.max) : null,
  }));
}

// --- Adding references --------------------------------------------------------------------------

const ASSET_KIND: Record<AssetRecord['type'], ReferenceKind> = { Image: 'image', Video: 'video', Audio: 'audio' };

/** Library assets a role may use with the model: Active, created, of the role's kind; none when the model takes no library references. */
export function libraryChoices(assets: readonly AssetRecord[], role: ReferenceRole, model: ModelRef): AssetRecord[] {
  if (!specOf(model).assetRefs) return [];
  return assets.filter((a) => a.status === 'Active' && a.assetId && ASSET_KIND[a.type] === ROLE_KIND[role]);
}

export const libraryReference = (asset: AssetRecord, role: ReferenceRole): Omit<FormReference, 'id'> => ({
  kind: ROLE_KIND[role],
  role,
  source: 'library',
  url: toAssetRef(asset.assetId!),
  label: asset.name,
  assetId: asset.assetId!,
});

export type Made<T> = { ok: true; value: T } | { ok: false; message: string };

/** A pasted address as a reference: https (http when the proxy allows it), or an `asset://` id. */
export function urlReference(input: string, role: ReferenceRole, options: FormOptions = {}): Made<Omit<FormReference, 'id'>> {
  const url = input.trim();
  const kind = ROLE_KIND[role];
  if (isAssetRef(url)) {
    const assetId = parseAssetRef(url);
    return assetId ? { ok: true, value: { kind, role, source: 'library', url, label: url, assetId } } : { ok: false, message: t('generate.url.badAsset') };
  }
  if (url.startsWith('data:')) return { ok: false, message: t('generate.url.dataUri') };
  const why = mediaUrlProblem(url, { allowHttp: Boolean(options.allowHttp) });
  if (why) return { ok: false, message: t('generate.url.invalid', { reason: why }) };
  return { ok: true, value: { kind, role, source: 'url', url, label: url } };
}

/** Inline images over this size are likely too big for a request: warn (not refuse). */
export const LARGE_FILE_BYTES = 10 * 1024 * 1024;

/** A local image read as a data URI, for models that take inline images. */
export function fileReference(name: string, dataUri: string, bytes: number, role: ReferenceRole, model: ModelRef): Made<Omit<FormReference, 'id'>> {
  const spec = specOf(model);
  if (ROLE_KIND[role] !== 'image') return { ok: false, message: t('generate.file.imagesOnly') };
  if (!spec.dataUriImages) return { ok: false, message: t('generate.file.notAccepted', { model: spec.label }) };
  const why = dataImageUriProblem(dataUri);
  if (why) return { ok: false, message: t('generate.file.invalid', { reason: why }) };
  return { ok: true, value: { kind: 'image', role, source: 'file', url: dataUri, label: name, bytes } };
}

/** Whether the form holds a local file large enough to warn about. */
export const largeFiles = (form: GenerateForm): FormReference[] => form.references.filter((r) => r.source === 'file' && (r.bytes ?? 0) > LARGE_FILE_BYTES);

/** Reads a File as a data URI (FileReader). */
export function readAsDataUri(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('Could not read the file.'));
    reader.readAsDataURL(file);
  });
}
