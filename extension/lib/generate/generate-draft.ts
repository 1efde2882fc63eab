import type { ReferenceRole } from '@@/shared';
import { addReference, emptyForm, type GenerateForm, libraryReference } from '@/lib/generate/generate-form';
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
