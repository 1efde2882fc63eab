import { GENERATION_PARAMETERS, parseAssetRef, type ReferenceRole } from '@@/shared';
import { addReference, emptyForm, type GenerateForm, libraryReference, type ParamValue, ROLE_KIND, switchModel } from '@/lib/generate/generate-form';
import type { AssetRecord } from '@/lib/storage/records/asset-record';

/** The Generate form between popup openings (localStorage: small, and read before first paint). */
export const DRAFT_KEY = 'arkbridge.generate.draft';

/** The saved form, or null when there is none (or it is unreadable). */
export function loadDraft(): GenerateForm | null {
  try {
    const draft = JSON.parse(localStorage.getItem(DRAFT_KEY) ?? 'null') as GenerateForm | null;
    return draft && typeof draft.model === 'string' && Array.isArray(draft.references) ? draft : null;
  } catch {
    return null;
  }
}

/** Keeps the form across popup openings (local files are not kept: they can be large). */
export function saveDraft(form: GenerateForm): void {
  try {
    localStorage.setItem(DRAFT_KEY, JSON.stringify({ ...form, references: form.references.filter((r) => r.source !== 'file') }));
  } catch {
    // Storage full or unavailable: the draft is a convenience only.
  }
}

/** The role a library asset takes when added from the Library: a reference of its kind. */
const ROLE_OF: Record<AssetRecord['type'], ReferenceRole> = { Image: 'reference_image', Video: 'reference_video', Audio: 'reference_audio' };

/**
 * Adds a library asset to the saved form ("Use in Generate" in the Library), once: the Generate
 * view then opens with it, and checks it against the chosen model like any other reference.
 */
export function addAssetToDraft(asset: AssetRecord): GenerateForm {
  const draft = loadDraft() ?? emptyForm('');
  if (!asset.assetId || draft.references.some((r) => r.assetId === asset.assetId)) return draft;
  const next = addReference(draft, libraryReference(asset, ROLE_OF[asset.type]));
  saveDraft(next);
  return next;
}

/** The roles a request's element may carry, by its type (the role it takes when it names none first). */
const ELEMENT_ROLES: Record<string, readonly ReferenceRole[]> = {
  image_url: ['reference_image', 'first_frame', 'last_frame'],
  video_url: ['reference_video'],
  audio_url: ['reference_audio'],
};

export interface ReusedDraft {
  form: GenerateForm;
  /** What the form could not take, in the member's words (the model's rules, inline files the gallery does not keep). */
  dropped: string[];
  /** Inline (`data:`) elements left out: the gallery keeps no inline media. */
  inline: number;
}

/**
 * The Generate form from a create body as it was sent (a gallery item's `request`: "Reuse these
 * settings"): the model, the prompt, the references with their roles (library assets as `asset://`
 * references), and the parameters. The model's rules are the form's own (switchModel: whatever the
 * model does not take is dropped and said), never checked here; inline files are left out.
 * Saved as the draft, so that the Generate view opens with it.
 */
export function reuseRequest(request: Record<string, unknown>, model: string): ReusedDraft {
  const reused = formOfRequest(request, model);
  saveDraft(reused.form);
  return reused;
}

/** The form of a create body as it was sent (reuseRequest's reading, without saving it as the popup's draft): the studio's "Reuse these settings". */
export function formOfRequest(request: Record<string, unknown>, model: string): ReusedDraft {
  const content = Array.isArray(request.content) ? (request.content as Record<string, any>[]) : [];
  const text = content.find((e) => e?.type === 'text' && typeof e.text === 'string')?.text;
  let form: GenerateForm = { ...emptyForm(model), prompt: typeof request.prompt === 'string' ? request.prompt : (text ?? '') };
  let inline = 0;
  for (const element of content) {
    const roles = ELEMENT_ROLES[element?.type];
    const url = element?.[element?.type]?.url;
    if (!roles || typeof url !== 'string') continue;
    if (url.startsWith('data:')) {
      inline++;
      continue;
    }
    const role = roles.includes(element.role) ? (element.role as ReferenceRole) : roles[0]!;
    const assetId = parseAssetRef(url);
    form = addReference(
      form,
      assetId ? { kind: ROLE_KIND[role], role, source: 'library', url, label: url, assetId } : { kind: ROLE_KIND[role], role, source: 'url', url, label: url },
    );
  }
  const params: GenerateForm['params'] = {};
  for (const name of GENERATION_PARAMETERS) {
    const value = request[name];
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') params[name] = value as ParamValue;
  }
  const { form: checked, dropped } = switchModel({ ...form, params }, model);
  return { form: checked, dropped, inline };
}
