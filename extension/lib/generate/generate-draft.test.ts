import { beforeEach, describe, expect, it } from 'vitest';
import { MODEL_IDS } from '@@/shared/catalog/testing/model-ids';
import { addAssetToDraft, DRAFT_KEY, loadDraft, reuseRequest, saveDraft } from '@/lib/generate/generate-draft';
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

describe('reusing a published request', () => {
  const request = {
    model: MODEL_IDS.s2,
    content: [
      { type: 'text', text: 'Mia waves' },
      { type: 'image_url', image_url: { url: 'asset://asset-mia' }, role: 'reference_image' },
      { type: 'video_url', video_url: { url: 'https://cdn.example.com/move.mp4' }, role: 'reference_video' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,[2048 bytes]' }, role: 'reference_image' },
    ],
    resolution: '720p',
    duration: 5,
  };

  it('fills the saved form with the model, prompt, references and parameters, leaving inline files out', () => {
    const reused = reuseRequest(request, MODEL_IDS.s2);
    const draft = loadDraft()!;
    expect(draft).toEqual(reused.form);
    expect(draft).toMatchObject({ model: MODEL_IDS.s2, prompt: 'Mia waves', params: { resolution: '720p', duration: 5 } });
    expect(draft.references.map((r) => [r.source, r.role, r.url, r.assetId])).toEqual([
      ['library', 'reference_image', 'asset://asset-mia', 'asset-mia'],
      ['url', 'reference_video', 'https://cdn.example.com/move.mp4', undefined],
    ]);
    expect(reused.inline).toBe(1);
  });

  it('drops by the form\'s own model rules what the model does not take, and says so', () => {
    const reused = reuseRequest({ ...request, content: request.content.slice(0, 3), camera_fixed: true }, MODEL_IDS.t2v);
    // A text-to-video model takes no references.
    expect(reused.form.references).toEqual([]);
    expect(reused.dropped.length).toBeGreaterThan(0);
  });
});
