import { beforeEach, describe, expect, it } from 'vitest';
import { addAssetToDraft, DRAFT_KEY, loadDraft, saveDraft } from '@/lib/generate/generate-draft';
import { emptyForm } from '@/lib/generate/generate-form';
import { assetRecord } from '@/lib/testing/test-setup';

beforeEach(() => localStorage.clear());

describe('the Generate draft', () => {
  it('keeps the form, without local files', () => {
    saveDraft({
      ...emptyForm('m'),
      prompt: 'A cat',
      references: [
        { id: 'r1', kind: 'image', role: 'reference_image', source: 'file', url: 'data:image/png;base64,AAAA', label: 'cat.png', bytes: 3 },
        { id: 'r2', kind: 'image', role: 'reference_image', source: 'url', url: 'https://cdn.example.com/a.png', label: 'a.png' },
      ],
    });
    expect(loadDraft()).toMatchObject({ model: 'm', prompt: 'A cat', references: [{ id: 'r2' }] });
  });

  it('reads nothing from a missing or broken draft', () => {
    expect(loadDraft()).toBeNull();
    localStorage.setItem(DRAFT_KEY, '{not json');
    expect(loadDraft()).toBeNull();
  });

  it('adds a library asset once, as a reference of its kind, after what is there', () => {
    saveDraft({ ...emptyForm('m'), prompt: 'A cat' });
    addAssetToDraft(assetRecord({ localId: 'l1', assetId: 'a1', name: 'Cat', type: 'Image', status: 'Active' }));
    addAssetToDraft(assetRecord({ localId: 'l2', assetId: 'a2', name: 'Purr', type: 'Audio', status: 'Active' }));
    addAssetToDraft(assetRecord({ localId: 'l1', assetId: 'a1', name: 'Cat', type: 'Image', status: 'Active' }));
    const draft = loadDraft()!;
    expect(draft.prompt).toBe('A cat');
    expect(draft.references.map((r) => [r.role, r.url, r.label])).toEqual([
      ['reference_image', 'asset://a1', 'Cat'],
      ['reference_audio', 'asset://a2', 'Purr'],
    ]);
  });

  it('ignores an asset that was never created in the library', () => {
    addAssetToDraft(assetRecord({ localId: 'l1', name: 'Queued', type: 'Video', status: 'Queued' }));
    expect(loadDraft()).toBeNull();
  });
});
