import { describe, expect, it } from 'vitest';
import { modelSpec } from '@@/shared';
import { MODEL_IDS as ids } from '@@/shared/catalog/testing/model-ids';
import { emptyForm } from '@/lib/generate/generate-form';
import { CHAIN_PLACEHOLDER, chainBlock, lastFrameOf, shotBody } from '@/lib/studio/shot-chain';

const shot = (model: string, prompt: string, chain = false) => ({ form: { ...emptyForm(model), prompt }, chain });

describe('when a shot may start from the previous shot’s last frame', () => {
  const specs = (...models: string[]) => models.map(modelSpec);

  it('never for the first shot', () => {
    expect(chainBlock(specs(ids.s2), 0)).toBe('first-shot');
  });

  it('for models declaring return_last_frame that take a first frame, after one that declares it', () => {
    expect(chainBlock(specs(ids.s2, ids.s2), 1)).toBeNull();
    expect(chainBlock(specs(ids.pro15, ids.s2fast), 1)).toBeNull();
  });

  it('not for a model without return_last_frame, nor text-only, nor after a model that gives no last frame', () => {
    expect(chainBlock(specs(ids.s2, ids.pro), 1)).toBe('model');
    expect(chainBlock(specs(ids.s2, ids.t2v), 1)).toBe('model');
    expect(chainBlock(specs(ids.pro, ids.s2), 1)).toBe('previous-model');
  });
});

describe('the chain’s create bodies', () => {
  it('asks the previous shot for its last frame and starts the chained one from it as first_frame', () => {
    const shots = [shot(ids.s2, 'A door opens'), shot(ids.s2, 'She walks in', true)];
    const first = shotBody(shots, 0, null);
    expect(first.return_last_frame).toBe(true);
    const second = shotBody(shots, 1, 'https://proxy.test/media/frame.png');
    expect(second.content).toEqual([
      { type: 'text', text: 'She walks in' },
      { type: 'image_url', image_url: { url: 'https://proxy.test/media/frame.png' }, role: 'first_frame' },
    ]);
    expect(second.return_last_frame).toBeUndefined();
  });

  it('leaves an unchained storyboard’s bodies as the form makes them', () => {
    const shots = [shot(ids.s2, 'One'), shot(ids.s2, 'Two')];
    expect(shotBody(shots, 0, null).return_last_frame).toBeUndefined();
    expect(shotBody(shots, 1, 'https://x.test/f.png').content).toHaveLength(1);
  });

  it('replaces a first frame of the shot’s own with the chain’s, keeping its last frame', () => {
    const own = shot(ids.s2, 'Two', true);
    own.form.references = [
      { id: 'a', kind: 'image', role: 'first_frame', source: 'url', url: 'https://x.test/mine.png', label: 'mine' },
      { id: 'b', kind: 'image', role: 'last_frame', source: 'url', url: 'https://x.test/end.png', label: 'end' },
    ];
    const body = shotBody([shot(ids.s2, 'One'), own], 1, null);
    expect(body.content!.slice(1).map((e: any) => [e.role, e.image_url.url])).toEqual([
      ['first_frame', CHAIN_PLACEHOLDER],
      ['last_frame', 'https://x.test/end.png'],
    ]);
  });

  it('prefers the proxy’s kept last frame over the service’s', () => {
    expect(lastFrameOf({ keptLastFrameUrl: 'https://proxy.test/media/k.png', lastFrameUrl: 'https://cdn.test/l.png' })).toBe('https://proxy.test/media/k.png');
    expect(lastFrameOf({ lastFrameUrl: 'https://cdn.test/l.png' })).toBe('https://cdn.test/l.png');
    expect(lastFrameOf({})).toBeNull();
  });
});

describe('a shot’s problems', () => {
  it('checks a chained shot as it will be created, without blaming the frame still to come', async () => {
    const { shotProblems } = await import('@/lib/studio/shot-chain');
    const shots = [shot(ids.s2, 'One'), shot(ids.s2, '', true)];
    expect(shotProblems(shots, 1, modelSpec(ids.s2)).map((p) => p.target.kind)).toEqual(['prompt']);
    shots[1]!.form.prompt = 'Two';
    expect(shotProblems(shots, 1, modelSpec(ids.s2))).toEqual([]);
  });
});
