import { describe, expect, it } from 'vitest';
import { hasTextInput, listReferences } from './references';
import type { VideoCreateBody } from './schemas';

const MODEL = 'doubao-seedance-2-0-260128';

describe('listReferences', () => {
  it('returns nothing for a text-only body', () => {
    expect(listReferences({ model: MODEL, prompt: 'p' })).toEqual([]);
    expect(listReferences({ model: MODEL, content: [{ type: 'text', text: 'p' }] })).toEqual([]);
  });

  it('lists content elements in order with param content[i].<kind>_url, kind and role', () => {
    const body: VideoCreateBody = {
      model: MODEL,
      content: [
        { type: 'text', text: 'p' },
        { type: 'image_url', image_url: { url: 'https://x.example/r.png' }, role: 'reference_image' },
        { type: 'video_url', video_url: { url: 'https://x.example/v.mp4' }, role: 'reference_video' },
        { type: 'audio_url', audio_url: { url: 'https://x.example/a.mp3' }, role: 'reference_audio' },
      ],
    };
    expect(listReferences(body)).toEqual([
      { param: 'content[1].image_url', kind: 'image', role: 'reference_image', url: 'https://x.example/r.png', assetId: null },
      { param: 'content[2].video_url', kind: 'video', role: 'reference_video', url: 'https://x.example/v.mp4', assetId: null },
      { param: 'content[3].audio_url', kind: 'audio', role: 'reference_audio', url: 'https://x.example/a.mp3', assetId: null },
    ]);
  });

  it('keeps first_frame and last_frame roles of image elements', () => {
    const refs = listReferences({
      model: MODEL,
      content: [
        { type: 'image_url', image_url: { url: 'https://x.example/f.png' }, role: 'first_frame' },
        { type: 'image_url', image_url: { url: 'https://x.example/l.png' }, role: 'last_frame' },
      ],
    });
    expect(refs.map((r) => [r.param, r.role])).toEqual([
      ['content[0].image_url', 'first_frame'],
      ['content[1].image_url', 'last_frame'],
    ]);
  });

  it('sets assetId for well-formed asset:// references and null for malformed ones', () => {
    const refs = listReferences({
      model: MODEL,
      content: [
        { type: 'image_url', image_url: { url: 'asset://asset-1' }, role: 'reference_image' },
        { type: 'image_url', image_url: { url: 'asset://bad/id' }, role: 'reference_image' },
      ],
    });
    expect(refs.map((r) => r.assetId)).toEqual(['asset-1', null]);
  });

  it('counts the compatibility field image as a reference image named image', () => {
    expect(listReferences({ model: MODEL, prompt: 'p', image: 'asset://a1' })).toEqual([
      { param: 'image', kind: 'image', role: 'reference_image', url: 'asset://a1', assetId: 'a1' },
    ]);
  });

  it('counts each entry of the compatibility field images as a reference image named images[i]', () => {
    const refs = listReferences({ model: MODEL, prompt: 'p', images: ['https://x.example/1.png', 'https://x.example/2.png'] });
    expect(refs.map((r) => [r.param, r.kind, r.role])).toEqual([
      ['images[0]', 'image', 'reference_image'],
      ['images[1]', 'image', 'reference_image'],
    ]);
  });

  it('lists content first, then image, then images', () => {
    const refs = listReferences({
      model: MODEL,
      content: [{ type: 'image_url', image_url: { url: 'https://x.example/c.png' }, role: 'reference_image' }],
      image: 'https://x.example/i.png',
      images: ['https://x.example/s.png'],
    });
    expect(refs.map((r) => r.param)).toEqual(['content[0].image_url', 'image', 'images[0]']);
  });
});

describe('hasTextInput', () => {
  it('is true for a non-blank prompt', () => {
    expect(hasTextInput({ model: MODEL, prompt: 'a cat' })).toBe(true);
  });

  it('is true for a non-blank text element without a prompt', () => {
    expect(hasTextInput({ model: MODEL, content: [{ type: 'text', text: 'a cat' }] })).toBe(true);
  });

  it('is false without prompt or text element', () => {
    expect(hasTextInput({ model: MODEL })).toBe(false);
    expect(hasTextInput({ model: MODEL, content: [] })).toBe(false);
    expect(
      hasTextInput({ model: MODEL, content: [{ type: 'image_url', image_url: { url: 'https://x.example/a.png' }, role: 'first_frame' }] }),
    ).toBe(false);
  });

  it('does not count an empty or whitespace-only prompt or text element', () => {
    expect(hasTextInput({ model: MODEL, prompt: '' })).toBe(false);
    expect(hasTextInput({ model: MODEL, prompt: ' \n\t ' })).toBe(false);
    expect(hasTextInput({ model: MODEL, content: [{ type: 'text', text: '   ' }] })).toBe(false);
  });

  it('is true when a blank prompt is accompanied by a real text element', () => {
    expect(hasTextInput({ model: MODEL, prompt: ' ', content: [{ type: 'text', text: ' ' }, { type: 'text', text: 'ok' }] })).toBe(true);
  });
});
