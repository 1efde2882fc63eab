import { describe, expect, it } from 'vitest';
import { modelSpec } from '@@/shared';
import { MODEL_IDS as ids } from '@@/shared/catalog/testing/model-ids';
import { emptyForm, problems, toBody } from '@/lib/generate/generate-form';
import { canDraft, draftForm, finalRequest, finalResolutions, isDraft } from '@/lib/studio/draft-final';

describe('draft then final', () => {
  it('is offered for models whose catalog has draft', () => {
    expect(canDraft(modelSpec(ids.pro15))).toBe(true);
    expect(canDraft(modelSpec(ids.s2))).toBe(false);
  });

  it('runs the draft at 480p with a fixed seed and no last frame, as the model’s rules accept', () => {
    const form = { ...emptyForm(ids.pro15), prompt: 'Waves', params: { resolution: '1080p', return_last_frame: true } };
    const draft = draftForm(form, 77);
    expect(draft.params).toMatchObject({ draft: true, resolution: '480p', seed: 77 });
    expect(draft.params.return_last_frame).toBeUndefined();
    expect(problems(draft, ids.pro15)).toEqual([]);
    expect(draftForm({ ...form, params: { seed: 5 } }, 77).params.seed).toBe(5);
  });

  it('makes the final from the same request and seed, draft off, at the chosen resolution', () => {
    const draft = toBody(draftForm({ ...emptyForm(ids.pro15), prompt: 'Waves', params: { duration: 6 } }, 123), ids.pro15);
    expect(isDraft({ body: draft })).toBe(true);
    const final = finalRequest(draft, '1080p');
    expect(final).toEqual({ model: ids.pro15, content: draft.content, duration: 6, seed: 123, resolution: '1080p' });
    expect(isDraft({ body: final })).toBe(false);
    expect(finalResolutions(modelSpec(ids.pro15))).toEqual(['720p', '1080p']);
  });
});
