import { describe, expect, it } from 'vitest';
import { check } from '../validation';
import { contentElement, GENERATION_PARAMETERS, IMAGE_ROLES, videoCreateSchema } from './schemas';
import { expectAccepted, expectRejected } from '../testing/checked-expectations';

const MODEL = 'doubao-seedance-2-0-260128';
const create = (body: Record<string, unknown>) => check(videoCreateSchema, { model: MODEL, ...body });
const withContent = (...content: unknown[]) => create({ content });

describe('videoCreateSchema: top level', () => {
  it('accepts a model with a prompt', () => {
    expect(expectAccepted(create({ prompt: 'a cat' }))).toEqual({ model: MODEL, prompt: 'a cat' });
  });

  it('accepts every parameter of the service table with its type', () => {
    const body = {
      prompt: 'p',
      image: 'https://x.example/a.png',
      images: ['https://x.example/b.png'],
      resolution: '720p',
      ratio: '16:9',
      duration: 5,
      frames: 29,
      seed: 7,
      generate_audio: true,
      draft: false,
      callback_url: 'https://cb.example/',
      return_last_frame: true,
      watermark: false,
      camera_fixed: true,
      service_tier: 'default',
      priority: 1,
    };
    expect(expectAccepted(create(body))).toEqual({ model: MODEL, ...body });
  });

  it('rejects a missing model as required, naming model', () => {
    expectRejected(check(videoCreateSchema, { prompt: 'p' }), 'model', /required/);
  });

  it('rejects an empty model, naming model', () => {
    expectRejected(check(videoCreateSchema, { model: '', prompt: 'p' }), 'model', /name a model/);
  });

  it('rejects an unknown top-level field, naming it', () => {
    expectRejected(create({ prompt: 'p', negative_prompt: 'x' }), 'negative_prompt', /not a field/);
  });

  it('rejects a body that is not an object (or is an array), naming body', () => {
    expectRejected(check(videoCreateSchema, 'x'), 'body', /JSON object/);
    expectRejected(check(videoCreateSchema, [{ model: MODEL, prompt: 'p' }]), 'body', /JSON object/);
  });

  it.each([
    ['duration', 5.5, /integer/],
    ['duration', '5', /integer/],
    ['frames', 29.1, /integer/],
    ['seed', '1', /integer/],
    ['priority', true, /integer/],
    ['generate_audio', 'true', /true or false/],
    ['draft', 1, /true or false/],
    ['watermark', 'no', /true or false/],
    ['camera_fixed', 0, /true or false/],
    ['return_last_frame', null, /true or false/],
    ['resolution', 720, /string/],
    ['ratio', 1.77, /string/],
    ['prompt', 5, /string/],
    ['service_tier', 1, /string/],
    ['callback_url', {}, /string/],
  ])('rejects %s = %j of the wrong type, naming it', (name, value, text) => {
    expectRejected(create({ prompt: 'p', [name]: value }), name, text);
  });

  it('rejects an empty image and an empty entry in images, naming them', () => {
    expectRejected(create({ prompt: 'p', image: '' }), 'image', /empty/);
    expectRejected(create({ prompt: 'p', images: ['https://x.example/a.png', ''] }), 'images[1]', /empty/);
  });

  it('rejects images that is not a list, naming images', () => {
    expectRejected(create({ prompt: 'p', images: 'https://x.example/a.png' }), 'images', /list of URLs/);
  });

  it('rejects content that is not a list, naming content', () => {
    expectRejected(create({ content: { type: 'text', text: 'p' } }), 'content', /list of content elements/);
  });
});

describe('videoCreateSchema: content elements', () => {
  it('accepts the six element shapes of the service', () => {
    const content = [
      { type: 'text', text: 'a cat' },
      { type: 'image_url', image_url: { url: 'https://x.example/r.png' }, role: 'reference_image' },
      { type: 'image_url', image_url: { url: 'https://x.example/f.png' }, role: 'first_frame' },
      { type: 'image_url', image_url: { url: 'https://x.example/l.png' }, role: 'last_frame' },
      { type: 'video_url', video_url: { url: 'https://x.example/v.mp4' }, role: 'reference_video' },
      { type: 'audio_url', audio_url: { url: 'https://x.example/a.mp3' }, role: 'reference_audio' },
    ];
    expect(expectAccepted(withContent(...content)).content).toEqual(content);
  });

  it('accepts an empty content list (the text rule is checked elsewhere)', () => {
    expect(expectAccepted(withContent()).content).toEqual([]);
  });

  it('rejects an unknown element type, naming content[i].type', () => {
    expectRejected(withContent({ type: 'text', text: 'p' }, { type: 'file_url', file_url: { url: 'https://x/' } }), 'content[1].type', /text, image_url, video_url or audio_url/);
  });

  it('rejects an element without a type, naming content[i].type', () => {
    expectRejected(withContent({ text: 'p' }), 'content[0].type', /text, image_url/);
  });

  it('rejects an element that is not an object, naming content[i]', () => {
    expectRejected(withContent('a cat'), 'content[0]', /text, image_url/);
  });

  it('rejects an image element without a role as required, naming content[i].role', () => {
    expectRejected(withContent({ type: 'image_url', image_url: { url: 'https://x.example/a.png' } }), 'content[0].role', /required/);
  });

  it('rejects an image element with an unknown role, naming content[i].role', () => {
    expectRejected(
      withContent({ type: 'image_url', image_url: { url: 'https://x.example/a.png' }, role: 'reference_video' }),
      'content[0].role',
      /reference_image, first_frame, last_frame/,
    );
  });

  it('rejects a video element with an image role, naming content[i].role', () => {
    expectRejected(
      withContent({ type: 'text', text: 'p' }, { type: 'video_url', video_url: { url: 'https://x.example/v.mp4' }, role: 'reference_image' }),
      'content[1].role',
      /reference_video/,
    );
  });

  it('rejects a video element without a role, naming content[i].role', () => {
    expectRejected(withContent({ type: 'video_url', video_url: { url: 'https://x.example/v.mp4' } }), 'content[0].role', /required/);
  });

  it('rejects an audio element with a wrong role, naming content[i].role', () => {
    expectRejected(
      withContent({ type: 'audio_url', audio_url: { url: 'https://x.example/a.mp3' }, role: 'first_frame' }),
      'content[0].role',
      /reference_audio/,
    );
  });

  it('rejects a text element with a role, naming content[i].role', () => {
    expectRejected(withContent({ type: 'text', text: 'p', role: 'prompt' }), 'content[0].role', /not a field/);
  });

  it('rejects a text element without text or with non-string text, naming content[i].text', () => {
    expectRejected(withContent({ type: 'text' }), 'content[0].text', /required/);
    expectRejected(withContent({ type: 'text', text: 3 }), 'content[0].text', /string/);
  });

  it('rejects an extra key on an element, naming it', () => {
    expectRejected(
      withContent({ type: 'image_url', image_url: { url: 'https://x.example/a.png' }, role: 'first_frame', weight: 1 }),
      'content[0].weight',
      /not a field/,
    );
  });

  it('rejects an extra key inside image_url, naming it', () => {
    expectRejected(
      withContent({ type: 'image_url', image_url: { url: 'https://x.example/a.png', detail: 'high' }, role: 'first_frame' }),
      'content[0].image_url.detail',
      /not a field/,
    );
  });

  it('rejects a url holder of the wrong kind (video_url on an image element), naming it', () => {
    expectRejected(
      withContent({ type: 'image_url', video_url: { url: 'https://x.example/a.png' }, role: 'first_frame' }),
      'content[0].image_url',
      /required/,
    );
  });

  it('rejects a url given as a plain string instead of {url}, naming content[i].image_url', () => {
    expectRejected(withContent({ type: 'image_url', image_url: 'https://x.example/a.png', role: 'first_frame' }), 'content[0].image_url', /JSON object/);
  });

  it('rejects an empty or missing url, naming content[i].<kind>_url.url', () => {
    expectRejected(withContent({ type: 'image_url', image_url: { url: '' }, role: 'first_frame' }), 'content[0].image_url.url', /empty/);
    expectRejected(withContent({ type: 'video_url', video_url: {}, role: 'reference_video' }), 'content[0].video_url.url', /required/);
    expectRejected(withContent({ type: 'audio_url', audio_url: { url: ['a', 'b'] }, role: 'reference_audio' }), 'content[0].audio_url.url', /string/);
  });
});

describe('schema exports', () => {
  it('IMAGE_ROLES are reference_image, first_frame, last_frame', () => {
    expect(IMAGE_ROLES).toEqual(['reference_image', 'first_frame', 'last_frame']);
  });

  it('GENERATION_PARAMETERS are the optional parameters of the service table', () => {
    expect([...GENERATION_PARAMETERS].sort()).toEqual(
      ['resolution', 'ratio', 'duration', 'frames', 'seed', 'generate_audio', 'draft', 'callback_url', 'return_last_frame', 'watermark', 'camera_fixed', 'service_tier', 'priority'].sort(),
    );
  });

  it('contentElement validates one element on its own', () => {
    expect(check(contentElement, { type: 'text', text: 'x' }).ok).toBe(true);
    expectRejected(check(contentElement, { type: 'nope' }), 'type');
  });
});
