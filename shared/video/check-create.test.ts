import { describe, expect, it } from 'vitest';
import { modelSpec, RATIOS } from '../catalog/models';
import { checkVideoCreate, inputMode, valueProblem, videoRequestProblems } from './check-create';
import { listReferences, type Reference } from './references';
import type { VideoCreateBody } from './schemas';
import { MODEL_IDS } from '../catalog/testing/model-ids';
import { expectAccepted, expectRejected } from '../testing/checked-expectations';

const M = {
  ...MODEL_IDS,
  unknown: 'some-future-video-model',
} as const;

const SEEDANCE_1 = [M.t2v, M.i2v, M.pro, M.proFast] as const;
const SEEDANCE_2 = [M.s2, M.s2fast] as const;
const KNOWN = [M.t2v, M.i2v, M.pro, M.proFast, M.pro15, M.s2, M.s2fast] as const;

const url = (name: string, ext = 'png') => `https://cdn.example.com/${name}.${ext}`;
const text = (value = 'a cat walks') => ({ type: 'text', text: value });
const image = (u: string, role: 'reference_image' | 'first_frame' | 'last_frame' = 'reference_image') => ({
  type: 'image_url',
  image_url: { url: u },
  role,
});
const first = (u = url('first')) => image(u, 'first_frame');
const last = (u = url('last')) => image(u, 'last_frame');
const video = (u = url('clip', 'mp4')) => ({ type: 'video_url', video_url: { url: u }, role: 'reference_video' });
const audio = (u = url('sound', 'mp3')) => ({ type: 'audio_url', audio_url: { url: u }, role: 'reference_audio' });
const refImages = (n: number) => Array.from({ length: n }, (_, i) => image(url(`ref${i}`)));
const videos = (n: number) => Array.from({ length: n }, (_, i) => video(url(`clip${i}`, 'mp4')));
const audios = (n: number) => Array.from({ length: n }, (_, i) => audio(url(`sound${i}`, 'mp3')));

const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUg==';

/** A create body with the prompt set and the model's text requirement satisfied. */
const run = (model: string, extra: Record<string, unknown> = {}, options = {}) =>
  checkVideoCreate({ model, prompt: 'a cat walks', ...extra }, options);
/** A create body whose content is a text element followed by `elements` (so elements start at index 1). */
const withContent = (model: string, elements: unknown[], extra: Record<string, unknown> = {}, options = {}) =>
  checkVideoCreate({ model, content: [text(), ...elements], ...extra }, options);

describe('checkVideoCreate: text input', () => {
  it('accepts a prompt alone', () => {
    expectAccepted(checkVideoCreate({ model: M.s2, prompt: 'a cat' }));
  });

  it('accepts a text content element without a prompt', () => {
    expectAccepted(checkVideoCreate({ model: M.s2, content: [text('a cat')] }));
  });

  it('rejects a body with neither prompt nor text element, naming prompt', () => {
    expectRejected(checkVideoCreate({ model: M.s2 }), 'prompt', /text input/);
    expectRejected(checkVideoCreate({ model: M.pro, content: [first()] }), 'prompt', /text input/);
  });

  it('does not count a whitespace-only prompt', () => {
    expectRejected(checkVideoCreate({ model: M.s2, prompt: '   \n' }), 'prompt', /text input/);
    expectRejected(checkVideoCreate({ model: M.s2, prompt: '' }), 'prompt', /text input/);
  });

  it('does not count a whitespace-only text element', () => {
    expectRejected(checkVideoCreate({ model: M.s2, content: [text(' \t ')] }), 'prompt', /text input/);
  });

  it('accepts a blank prompt when a text element carries the text', () => {
    expectAccepted(checkVideoCreate({ model: M.s2, prompt: ' ', content: [text('a cat')] }));
  });
});

describe('checkVideoCreate: element shapes (answered by the schema)', () => {
  it('rejects an unknown element type, naming content[i].type', () => {
    expectRejected(withContent(M.s2, [{ type: 'file_url', file_url: { url: url('x') } }]), 'content[1].type', /text, image_url/);
  });

  it('rejects an image element without a role, naming content[i].role', () => {
    expectRejected(withContent(M.s2, [{ type: 'image_url', image_url: { url: url('x') } }]), 'content[1].role', /required/);
  });

  it('rejects a video element with role reference_image, naming content[i].role', () => {
    expectRejected(withContent(M.s2, [{ ...video(), role: 'reference_image' }]), 'content[1].role', /reference_video/);
  });

  it('rejects an audio element with role reference_video, naming content[i].role', () => {
    expectRejected(withContent(M.s2, [{ ...audio(), role: 'reference_video' }]), 'content[1].role', /reference_audio/);
  });

  it('rejects an extra key on an element, naming it', () => {
    expectRejected(withContent(M.s2, [{ ...first(), name: 'hero' }]), 'content[1].name', /not a field/);
  });

  it('rejects an unknown top-level parameter, naming it', () => {
    expectRejected(run(M.s2, { fps: 24 }), 'fps', /not a field/);
  });

  it('rejects a body that is not an object, naming body', () => {
    expectRejected(checkVideoCreate('{"model":"x"}'), 'body');
    expectRejected(checkVideoCreate(null), 'body');
  });
});

describe('checkVideoCreate: one URL per element', () => {
  it('rejects two URLs separated by a space in one url, naming content[i].image_url', () => {
    expectRejected(withContent(M.s2, [image(`${url('a')} ${url('b')}`)]), 'content[1].image_url', /single URL/);
  });

  it('rejects two URLs joined by a comma in one url, naming content[i].image_url', () => {
    expectRejected(withContent(M.s2, [image(`${url('a')},${url('b')}`)]), 'content[1].image_url', /one URL/);
  });

  it('rejects two URLs in one video_url, naming content[i].video_url', () => {
    expectRejected(withContent(M.s2, [video(`${url('a', 'mp4')},${url('b', 'mp4')}`)]), 'content[1].video_url', /one URL/);
  });

  it('rejects two URLs in the compatibility field image, naming image', () => {
    expectRejected(run(M.s2, { image: `${url('a')} ${url('b')}` }), 'image', /single URL/);
  });

  it('names the element by its index, e.g. content[2].image_url', () => {
    expectRejected(withContent(M.s2, [image(url('ok')), image(`${url('a')},${url('b')}`)]), 'content[2].image_url');
  });
});

describe('checkVideoCreate: URL forms', () => {
  it('accepts https URLs for image, video and audio references', () => {
    expectAccepted(withContent(M.s2, [image(url('a')), video(), audio()]));
  });

  it('rejects http URLs by default, naming the element, and mentions the other accepted forms', () => {
    expectRejected(withContent(M.s2, [image('http://cdn.example.com/a.png')]), 'content[1].image_url', /https:\/\/.*asset:\/\/<id>.*data:image/);
    expectRejected(withContent(M.s2, [video('http://cdn.example.com/a.mp4')]), 'content[1].video_url', /https:\/\//);
  });

  it('does not suggest data URIs for video references', () => {
    const result = withContent(M.s2, [video('http://cdn.example.com/a.mp4')]);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem.message).not.toMatch(/data:image/);
  });

  it('accepts http URLs when allowHttp is given', () => {
    expectAccepted(withContent(M.s2, [image('http://127.0.0.1:9000/a.png'), video('http://127.0.0.1:9000/v.mp4')], {}, { allowHttp: true }));
  });

  it('rejects other schemes, relative URLs and user info, naming the element', () => {
    expectRejected(withContent(M.s2, [image('ftp://cdn.example.com/a.png')]), 'content[1].image_url', /https:\/\//);
    expectRejected(withContent(M.s2, [image('/a.png')]), 'content[1].image_url', /absolute/);
    expectRejected(withContent(M.s2, [image('https://u:p@cdn.example.com/a.png')]), 'content[1].image_url', /user info/);
  });

  it('rejects a bad URL in images[i], naming images[i]', () => {
    expectRejected(run(M.s2, { images: [url('a'), 'http://cdn.example.com/b.png'] }), 'images[1]', /https:\/\//);
  });
});

describe('checkVideoCreate: asset:// references', () => {
  it.each(SEEDANCE_2)('%s accepts asset:// image, video and audio references', (model) => {
    const value = expectAccepted(withContent(model, [image('asset://img-1'), video('asset://vid-1'), audio('asset://aud-1')]));
    expect(value.references.map((r) => r.assetId)).toEqual(['img-1', 'vid-1', 'aud-1']);
  });

  it.each(SEEDANCE_2)('%s accepts asset:// first and last frames', (model) => {
    expectAccepted(withContent(model, [first('asset://f'), last('asset://l')]));
  });

  it.each([M.pro, M.proFast, M.pro15])('%s rejects an asset:// first frame, naming the element', (model) => {
    expectRejected(withContent(model, [first('asset://img-1')]), 'content[1].image_url', /asset:\/\//);
  });

  it('lite-i2v rejects an asset:// reference image, naming the element', () => {
    expectRejected(withContent(M.i2v, [image('asset://img-1')]), 'content[1].image_url', /asset:\/\//);
  });

  it('rejects asset:// in the compatibility field image for a non-2.0 model, naming image', () => {
    expectRejected(run(M.i2v, { image: 'asset://img-1' }), 'image', /asset:\/\//);
  });

  it('rejects a malformed asset:// reference even on 2.0, naming the element', () => {
    expectRejected(withContent(M.s2, [image('asset://')]), 'content[1].image_url', /asset:\/\/<asset_id>/);
    expectRejected(withContent(M.s2, [image('asset://a/b')]), 'content[1].image_url', /asset:\/\/<asset_id>/);
  });

  it('rejects two asset references in one url', () => {
    expectRejected(withContent(M.s2, [image('asset://a,asset://b')]), 'content[1].image_url', /asset:\/\/<asset_id>/);
  });
});

describe('checkVideoCreate: data URIs', () => {
  it.each([M.i2v, M.pro, M.proFast, M.pro15, M.s2, M.s2fast])('%s accepts a data:image/png;base64 first frame', (model) => {
    expectAccepted(withContent(model, [first(PNG)]));
  });

  it('accepts a data URI in the compatibility field image', () => {
    expectAccepted(run(M.s2, { image: PNG }));
  });

  it('rejects data:text/plain, naming the element', () => {
    expectRejected(withContent(M.s2, [image('data:text/plain;base64,aGVsbG8=')]), 'content[1].image_url', /must be images/);
  });

  it('rejects an SVG data URI, naming the element', () => {
    expectRejected(withContent(M.s2, [image('data:image/svg+xml;base64,PHN2Zz4=')]), 'content[1].image_url', /not SVG/);
  });

  it('rejects malformed base64, naming the element', () => {
    expectRejected(withContent(M.s2, [image('data:image/png;base64,abc')]), 'content[1].image_url', /invalid length/);
    expectRejected(withContent(M.s2, [image('data:image/png;base64,ab$c')]), 'content[1].image_url', /form data:image/);
    expectRejected(withContent(M.s2, [image('data:image/png,abcd')]), 'content[1].image_url', /form data:image/);
  });

  it('rejects a data URI for a video reference, naming content[i].video_url', () => {
    expectRejected(withContent(M.s2, [video('data:video/mp4;base64,AAAA')]), 'content[1].video_url', /only for images/);
    expectRejected(withContent(M.s2, [video(PNG)]), 'content[1].video_url', /only for images/);
  });

  it('rejects a data URI for an audio reference, naming content[i].audio_url', () => {
    expectRejected(withContent(M.s2, [image(url('a')), audio('data:audio/mpeg;base64,AAAA')]), 'content[2].audio_url', /only for images/);
  });

  it('rejects data URI images for models that do not take them (text-only models), naming the element', () => {
    expectRejected(withContent(M.t2v, [first(PNG)]), 'content[1].image_url', /data URI/);
    expectRejected(withContent(M.unknown, [first(PNG)]), 'content[1].image_url', /data URI/);
  });
});

describe('checkVideoCreate: first and last frames', () => {
  it.each([M.i2v, M.pro, M.pro15, M.s2, M.s2fast])('%s accepts distinct first and last frames', (model) => {
    const value = expectAccepted(withContent(model, [first(), last()]));
    expect(inputMode(value.references)).toBe('first_last');
  });

  it('rejects a last_frame equal to the first_frame, naming the last frame element', () => {
    expectRejected(withContent(M.pro, [first(url('same')), last(url('same'))]), 'content[2].image_url', /differ/);
  });

  it('names the last frame element even when it comes before the first frame', () => {
    expectRejected(withContent(M.s2, [last(url('same')), first(url('same'))]), 'content[1].image_url', /differ/);
  });

  it('rejects equal asset:// first and last frames on 2.0', () => {
    expectRejected(withContent(M.s2, [first('asset://a1'), last('asset://a1')]), 'content[2].image_url', /differ/);
  });

  it('rejects a last_frame without a first_frame, naming the last frame element', () => {
    expectRejected(withContent(M.pro, [last()]), 'content[1].image_url', /needs a first_frame/);
    expectRejected(withContent(M.s2, [last()]), 'content[1].image_url', /needs a first_frame/);
  });

  it('rejects a second first_frame, naming it', () => {
    expectRejected(withContent(M.pro, [first(url('f1')), first(url('f2'))]), 'content[2].image_url', /only one first_frame/);
  });

  it('rejects a second last_frame, naming it', () => {
    expectRejected(withContent(M.pro, [first(), last(url('l1')), last(url('l2'))]), 'content[3].image_url', /only one last_frame/);
  });
});

describe('checkVideoCreate: frames are never mixed with reference media', () => {
  it('2.0 rejects a first_frame together with a reference_image, naming the reference element', () => {
    expectRejected(withContent(M.s2, [first(), image(url('r'))]), 'content[2].image_url', /cannot be combined/);
  });

  it('2.0 rejects first and last frames together with a reference_video, naming the reference element', () => {
    expectRejected(withContent(M.s2fast, [first(), last(), video()]), 'content[3].video_url', /cannot be combined/);
  });

  it('2.0 rejects a first_frame together with the compatibility field images, naming images[0]', () => {
    expectRejected(withContent(M.s2, [first()], { images: [url('r')] }), 'images[0]', /cannot be combined/);
  });

  it('lite-i2v rejects a first_frame together with reference images', () => {
    expectRejected(withContent(M.i2v, [image(url('r')), first()]), 'content[1].image_url', /cannot be combined/);
  });

  it('1.0 pro (no reference mode) rejects a first_frame together with the compatibility field image', () => {
    expectRejected(withContent(M.pro, [first()], { image: url('r') }), 'image', /cannot be combined/);
  });
});

describe('checkVideoCreate: unsupported parameters per model', () => {
  it.each([
    [M.pro, 'generate_audio', true],
    [M.t2v, 'generate_audio', false],
    [M.pro, 'draft', true],
    [M.pro, 'return_last_frame', true],
    [M.pro, 'service_tier', 'default'],
    [M.s2, 'frames', 29],
    [M.s2fast, 'frames', 29],
    [M.pro15, 'frames', 29],
    [M.s2, 'draft', true],
    [M.s2, 'draft', false],
    [M.s2, 'camera_fixed', true],
    [M.s2fast, 'camera_fixed', false],
  ] as const)('%s rejects %s, naming it', (model, name, value) => {
    expectRejected(run(model, { [name]: value }), name, new RegExp(`${model} does not support this parameter`));
  });

  it.each(KNOWN)('%s rejects callback_url and priority (no public model declares them)', (model) => {
    const extra = model === M.i2v ? { image: url('r') } : {};
    expectRejected(run(model, { ...extra, callback_url: 'https://cb.example/' }), 'callback_url', /does not support/);
    expectRejected(run(model, { ...extra, priority: 1 }), 'priority', /does not support/);
  });

  it.each(SEEDANCE_1)('%s accepts seed, ratio, watermark, camera_fixed', (model) => {
    const extra = model === M.i2v ? { image: url('r') } : {};
    expectAccepted(run(model, { ...extra, seed: 1, ratio: '16:9', watermark: true, camera_fixed: false }));
  });

  it.each(SEEDANCE_2)('%s accepts seed, ratio, watermark, generate_audio, return_last_frame, service_tier', (model) => {
    expectAccepted(
      run(model, { seed: 1, ratio: 'adaptive', watermark: false, generate_audio: false, return_last_frame: true, service_tier: 'flex' }),
    );
  });

  it('1.5 pro accepts generate_audio, return_last_frame, service_tier, camera_fixed', () => {
    expectAccepted(run(M.pro15, { generate_audio: true, return_last_frame: true, service_tier: 'default', camera_fixed: true }));
  });

  it('rejects an unknown service_tier value, naming service_tier', () => {
    expectRejected(run(M.s2, { service_tier: 'premium' }), 'service_tier', /default, flex/);
  });
});

describe('checkVideoCreate: resolution', () => {
  it.each([M.t2v, M.pro, M.proFast, M.pro15, M.s2])('%s accepts 480p, 720p and 1080p', (model) => {
    for (const resolution of ['480p', '720p', '1080p']) expectAccepted(run(model, { resolution }));
  });

  it('2.0-fast accepts 480p and 720p', () => {
    expectAccepted(run(M.s2fast, { resolution: '480p' }));
    expectAccepted(run(M.s2fast, { resolution: '720p' }));
  });

  it('2.0-fast rejects 1080p, naming resolution', () => {
    expectRejected(run(M.s2fast, { resolution: '1080p' }), 'resolution', /480p, 720p/);
  });

  it.each(KNOWN)('%s rejects an unknown resolution value, naming resolution', (model) => {
    const extra = model === M.i2v ? { content: [text(), first()] } : {};
    expectRejected(run(model, { ...extra, resolution: '4k' }), 'resolution', /must be one of/);
    expectRejected(run(model, { ...extra, resolution: '720P' }), 'resolution', /must be one of/);
  });
});

describe('checkVideoCreate: duration', () => {
  it.each(SEEDANCE_1)('%s accepts 2 to 12 seconds and rejects 1 and 13, naming duration', (model) => {
    const extra = model === M.i2v ? { image: url('r') } : {};
    expectAccepted(run(model, { ...extra, duration: 2 }));
    expectAccepted(run(model, { ...extra, duration: 12 }));
    expectRejected(run(model, { ...extra, duration: 1 }), 'duration', /2 to 12/);
    expectRejected(run(model, { ...extra, duration: 13 }), 'duration', /2 to 12/);
    expectRejected(run(model, { ...extra, duration: -1 }), 'duration', /2 to 12/);
  });

  it('1.5 pro accepts -1 (model picks), 4 and 12', () => {
    for (const duration of [-1, 4, 12]) expectAccepted(run(M.pro15, { duration }));
  });

  it('1.5 pro rejects 3, 13, 0 and -2, naming duration', () => {
    for (const duration of [3, 13, 0, -2]) expectRejected(run(M.pro15, { duration }), 'duration', /4 to 12 \(or -1\)/);
  });

  it.each(SEEDANCE_2)('%s accepts 4 and 15 seconds', (model) => {
    expectAccepted(run(model, { duration: 4 }));
    expectAccepted(run(model, { duration: 15 }));
  });

  it.each(SEEDANCE_2)('%s rejects 3, 16 and -1, naming duration', (model) => {
    for (const duration of [3, 16, -1]) expectRejected(run(model, { duration }), 'duration', /4 to 15/);
  });
});

describe('checkVideoCreate: frames (25 + 4n, 29 to 289)', () => {
  it.each(SEEDANCE_1)('%s accepts 29, 33, 121 and 289 frames', (model) => {
    const extra = model === M.t2v ? {} : { content: [text(), first()] };
    for (const frames of [29, 33, 121, 289]) expectAccepted(run(model, { ...extra, frames }));
  });

  it.each([30, 31, 32, 100, 288])('rejects %i frames (not of the form 25+4n), naming frames', (frames) => {
    expectRejected(run(M.pro, { frames }), 'frames', /25\+4n/);
  });

  it.each([25, 21, 0, 293, 297])('rejects %i frames (outside 29 to 289), naming frames', (frames) => {
    expectRejected(run(M.pro, { frames }), 'frames', /29 to 289/);
  });

  it.each(SEEDANCE_1)('%s rejects frames together with duration, naming frames', (model) => {
    const extra = model === M.t2v ? {} : { content: [text(), first()] };
    expectRejected(run(model, { ...extra, frames: 29, duration: 5 }), 'frames', /cannot be combined with duration/);
  });
});

describe('checkVideoCreate: seed and ratio', () => {
  it.each([M.pro, M.pro15, M.s2])('%s accepts seeds -1, 0 and 4294967295', (model) => {
    for (const seed of [-1, 0, 4294967295]) expectAccepted(run(model, { seed }));
  });

  it.each([M.pro, M.pro15, M.s2])('%s rejects seeds -2 and 4294967296, naming seed', (model) => {
    expectRejected(run(model, { seed: -2 }), 'seed', /-1 to 4294967295/);
    expectRejected(run(model, { seed: 4294967296 }), 'seed', /-1 to 4294967295/);
  });

  it.each(RATIOS)('accepts ratio %s', (ratio) => {
    expectAccepted(run(M.s2, { ratio }));
    expectAccepted(run(M.pro, { ratio }));
  });

  it.each(['2:1', '16:10', 'auto', 'Adaptive', '16/9'])('rejects ratio %s, naming ratio', (ratio) => {
    expectRejected(run(M.s2, { ratio }), 'ratio', /must be one of 16:9/);
  });
});

describe('checkVideoCreate: draft (1.5 pro)', () => {
  it('accepts draft at 480p', () => {
    expectAccepted(run(M.pro15, { draft: true, resolution: '480p' }));
  });

  it('rejects draft at 720p and 1080p, naming draft', () => {
    expectRejected(run(M.pro15, { draft: true, resolution: '720p' }), 'draft', /only with resolution 480p/);
    expectRejected(run(M.pro15, { draft: true, resolution: '1080p' }), 'draft', /only with resolution 480p/);
  });

  it('rejects draft with return_last_frame, naming draft', () => {
    expectRejected(run(M.pro15, { draft: true, resolution: '480p', return_last_frame: true }), 'draft', /return_last_frame/);
  });

  it('accepts draft with return_last_frame false', () => {
    expectAccepted(run(M.pro15, { draft: true, resolution: '480p', return_last_frame: false }));
  });

  it('accepts draft false at any resolution and with return_last_frame (false asks for no draft)', () => {
    expectAccepted(run(M.pro15, { draft: false, resolution: '1080p' }));
    expectAccepted(run(M.pro15, { draft: false, return_last_frame: true }));
  });

  it('rejects a non-boolean draft at the schema, naming draft', () => {
    expectRejected(run(M.pro15, { draft: 'yes' }), 'draft', /true or false/);
  });
});

describe('checkVideoCreate: input modes per model', () => {
  it('lite-t2v accepts text only', () => {
    expectAccepted(run(M.t2v));
  });

  it('lite-t2v rejects a first frame, naming the element', () => {
    expectRejected(withContent(M.t2v, [first()]), 'content[1].image_url', /does not take a first frame/);
  });

  it('lite-t2v rejects reference images, including the compatibility fields image and images', () => {
    expectRejected(withContent(M.t2v, [image(url('r'))]), 'content[1].image_url', /does not take reference media/);
    expectRejected(run(M.t2v, { image: url('r') }), 'image', /does not take reference media/);
    expectRejected(run(M.t2v, { images: [url('r')] }), 'images[0]', /does not take reference media/);
  });

  it('lite-t2v rejects first and last frames, naming the first frame', () => {
    expectRejected(withContent(M.t2v, [first(), last()]), 'content[1].image_url', /does not take first and last frames/);
  });

  it('lite-i2v requires an image: text alone is rejected, naming content', () => {
    expectRejected(run(M.i2v), 'content', /does not take text only/);
  });

  it('lite-i2v accepts a first frame, first and last frames, and 1 to 4 reference images', () => {
    expectAccepted(withContent(M.i2v, [first()]));
    expectAccepted(withContent(M.i2v, [first(), last()]));
    expectAccepted(withContent(M.i2v, refImages(1)));
    expectAccepted(withContent(M.i2v, refImages(4)));
  });

  it('lite-i2v rejects a 5th reference image, naming it', () => {
    expectRejected(withContent(M.i2v, refImages(5)), 'content[5].image_url', /at most 4 reference images/);
  });

  it('lite-i2v counts image and images as reference images (5 in all rejected, naming the 5th)', () => {
    expectRejected(withContent(M.i2v, refImages(3), { image: url('i'), images: [url('s')] }), 'images[0]', /at most 4 reference images/);
    expectAccepted(withContent(M.i2v, refImages(2), { image: url('i'), images: [url('s')] }));
  });

  it('lite-i2v rejects reference images at 1080p, naming resolution', () => {
    expectRejected(withContent(M.i2v, refImages(2), { resolution: '1080p' }), 'resolution', /only at 480p, 720p/);
    expectRejected(run(M.i2v, { image: url('r'), resolution: '1080p' }), 'resolution', /only at 480p, 720p/);
  });

  it('lite-i2v accepts reference images at 480p and 720p, and a first frame at 1080p', () => {
    expectAccepted(withContent(M.i2v, refImages(2), { resolution: '480p' }));
    expectAccepted(withContent(M.i2v, refImages(2), { resolution: '720p' }));
    expectAccepted(withContent(M.i2v, [first()], { resolution: '1080p' }));
  });

  it('lite-i2v rejects a reference video or audio, naming it', () => {
    expectRejected(withContent(M.i2v, [image(url('r')), video()]), 'content[2].video_url', /does not take reference videos/);
    expectRejected(withContent(M.i2v, [image(url('r')), audio()]), 'content[2].audio_url', /does not take reference audio/);
  });

  it.each([M.pro, M.pro15])('%s accepts text, a first frame, and first and last frames', (model) => {
    expectAccepted(run(model));
    expectAccepted(withContent(model, [first()]));
    expectAccepted(withContent(model, [first(), last()]));
  });

  it.each([M.pro, M.proFast, M.pro15])('%s rejects reference images, naming the element', (model) => {
    expectRejected(withContent(model, [image(url('r'))]), 'content[1].image_url', /does not take reference media/);
    expectRejected(run(model, { images: [url('r')] }), 'images[0]', /does not take reference media/);
  });

  it.each([M.pro, M.pro15])('%s rejects a reference video, naming the element', (model) => {
    expectRejected(withContent(model, [video()]), 'content[1].video_url', /does not take reference media/);
  });

  it('pro-fast accepts text and a first frame', () => {
    expectAccepted(run(M.proFast));
    expectAccepted(withContent(M.proFast, [first()]));
  });

  it('pro-fast rejects a last_frame, naming the last frame element', () => {
    expectRejected(withContent(M.proFast, [first(), last()]), 'content[2].image_url', /does not take first and last frames/);
  });
});

describe('checkVideoCreate: Seedance 2.0 reference limits', () => {
  it.each(SEEDANCE_2)('%s accepts 9 images, 3 videos and audio alongside visuals', (model) => {
    expectAccepted(withContent(model, refImages(9)));
    expectAccepted(withContent(model, [...refImages(1), ...videos(3)]));
    expectAccepted(withContent(model, [...refImages(1), ...audios(3)]));
    expectAccepted(withContent(model, [...videos(1), ...audios(1)]));
  });

  it.each(SEEDANCE_2)('%s accepts 12 files in all (6 images, 3 videos, 3 audio)', (model) => {
    expectAccepted(withContent(model, [...refImages(6), ...videos(3), ...audios(3)]));
  });

  it.each(SEEDANCE_2)('%s rejects a 10th image, naming it', (model) => {
    expectRejected(withContent(model, refImages(10)), 'content[10].image_url', /at most 9 reference images/);
  });

  it('counts images from content, image and images together (10 rejected, naming the 10th)', () => {
    expectRejected(withContent(M.s2, refImages(8), { image: url('i'), images: [url('s')] }), 'images[0]', /at most 9 reference images/);
    expectRejected(run(M.s2, { images: Array.from({ length: 10 }, (_, i) => url(`s${i}`)) }), 'images[9]', /at most 9/);
  });

  it.each(SEEDANCE_2)('%s rejects a 4th video, naming it', (model) => {
    expectRejected(withContent(model, videos(4)), 'content[4].video_url', /at most 3 reference videos/);
  });

  it.each(SEEDANCE_2)('%s rejects a 4th audio clip, naming it', (model) => {
    expectRejected(withContent(model, [image(url('r')), ...audios(4)]), 'content[5].audio_url', /at most 3 reference audio/);
  });

  it.each(SEEDANCE_2)('%s rejects a 13th file (9 images, 3 videos, 1 audio), naming it', (model) => {
    expectRejected(withContent(model, [...refImages(9), ...videos(3), ...audios(1)]), 'content[13].audio_url', /at most 12 reference files/);
  });

  it.each(SEEDANCE_2)('%s rejects reference audio alone, naming the audio element', (model) => {
    expectRejected(withContent(model, [audio()]), 'content[1].audio_url', /needs at least one reference image or video/);
    expectRejected(withContent(model, audios(2)), 'content[1].audio_url', /needs at least one reference image or video/);
  });

  it('2.0 accepts reference video alone and text-only requests', () => {
    expectAccepted(withContent(M.s2, [video()]));
    expectAccepted(run(M.s2));
  });
});

describe('checkVideoCreate: unknown model (text only)', () => {
  it('accepts a prompt or a text element', () => {
    expectAccepted(run(M.unknown));
    expectAccepted(checkVideoCreate({ model: M.unknown, content: [text()] }));
  });

  it.each([
    ['resolution', '720p'],
    ['ratio', '16:9'],
    ['duration', 5],
    ['frames', 29],
    ['seed', 1],
    ['generate_audio', true],
    ['draft', false],
    ['return_last_frame', true],
    ['watermark', false],
    ['camera_fixed', true],
    ['service_tier', 'default'],
    ['callback_url', 'https://cb.example/'],
    ['priority', 0],
  ] as const)('rejects %s, naming it', (name, value) => {
    expectRejected(run(M.unknown, { [name]: value }), name, /does not support this parameter/);
  });

  it('rejects references of every kind, naming them', () => {
    expectRejected(withContent(M.unknown, [first()]), 'content[1].image_url', /does not take a first frame/);
    expectRejected(withContent(M.unknown, [image(url('r'))]), 'content[1].image_url', /does not take reference media/);
    expectRejected(withContent(M.unknown, [video()]), 'content[1].video_url', /does not take reference media/);
    expectRejected(run(M.unknown, { image: url('r') }), 'image', /does not take reference media/);
  });

  it('rejects asset:// references, naming the element', () => {
    expectRejected(withContent(M.unknown, [image('asset://a1')]), 'content[1].image_url', /asset:\/\//);
  });
});

describe('checkVideoCreate: result', () => {
  it('returns the parsed body, the catalog entry and the references', () => {
    const value = expectAccepted(withContent(M.s2, [image('asset://a1'), video()], { duration: 5 }));
    expect(value.body.duration).toBe(5);
    expect(value.model).toBe(modelSpec(M.s2));
    expect(value.references.map((r) => r.param)).toEqual(['content[1].image_url', 'content[2].video_url']);
  });

  it('returns the text-only catalog entry for an unknown model', () => {
    const value = expectAccepted(run(M.unknown));
    expect(value.model.id).toBe(M.unknown);
    expect(value.model.parameters).toEqual({});
  });

  it('reports schema problems before model problems', () => {
    expectRejected(checkVideoCreate({ model: M.s2, duration: 'long' }), 'duration', /integer/);
  });
});

describe('videoRequestProblems', () => {
  const body = (extra: Partial<VideoCreateBody>): VideoCreateBody => ({ model: M.s2, ...extra });

  it('returns nothing for a valid body', () => {
    expect(videoRequestProblems(body({ prompt: 'p', duration: 5 }))).toEqual([]);
  });

  it('returns every problem, each naming its field', () => {
    const problems = videoRequestProblems(body({ resolution: '4k', frames: 29, duration: 20, images: ['http://x.example/a.png'] }));
    expect(problems.map((p) => p.field)).toEqual(['prompt', 'images[0]', 'resolution', 'duration', 'frames']);
    for (const p of problems) expect(p.message.startsWith(`${p.field}: `)).toBe(true);
  });

  it('checks against another model when one is given', () => {
    const problems = videoRequestProblems(body({ prompt: 'p', resolution: '1080p' }), modelSpec(M.s2fast));
    expect(problems.map((p) => p.field)).toEqual(['resolution']);
  });

  it('applies allowHttp to reference URLs', () => {
    const b = body({ prompt: 'p', images: ['http://localhost/a.png'] });
    expect(videoRequestProblems(b).map((p) => p.field)).toEqual(['images[0]']);
    expect(videoRequestProblems(b, modelSpec(M.s2), listReferences(b), { allowHttp: true })).toEqual([]);
  });
});

describe('inputMode', () => {
  const ref = (role: Reference['role'], kind: Reference['kind'] = 'image'): Reference => ({
    param: 'content[0].image_url',
    kind,
    role,
    url: url(role),
    assetId: null,
  });

  it('is text without references', () => {
    expect(inputMode([])).toBe('text');
  });

  it('is first_frame for a first frame alone', () => {
    expect(inputMode([ref('first_frame')])).toBe('first_frame');
  });

  it('is first_last when a last frame is present (with or without a first frame)', () => {
    expect(inputMode([ref('first_frame'), ref('last_frame')])).toBe('first_last');
    expect(inputMode([ref('last_frame')])).toBe('first_last');
  });

  it('is reference for reference images, videos or audio', () => {
    expect(inputMode([ref('reference_image')])).toBe('reference');
    expect(inputMode([ref('reference_video', 'video')])).toBe('reference');
    expect(inputMode([ref('reference_audio', 'audio')])).toBe('reference');
  });

  it('is null when frames and reference media are mixed', () => {
    expect(inputMode([ref('first_frame'), ref('reference_image')])).toBeNull();
    expect(inputMode([ref('last_frame'), ref('reference_video', 'video')])).toBeNull();
  });
});

describe('valueProblem', () => {
  it('checks booleans', () => {
    expect(valueProblem({ type: 'boolean' }, true)).toBeNull();
    expect(valueProblem({ type: 'boolean' }, 'true')).toMatch(/true or false/);
  });

  it('checks enums by string value', () => {
    expect(valueProblem({ type: 'enum', values: ['a', 'b'] }, 'b')).toBeNull();
    expect(valueProblem({ type: 'enum', values: ['a', 'b'] }, 'c')).toBe('must be one of a, b');
  });

  it('checks integer ranges, inclusive', () => {
    const spec = { type: 'integer', min: 2, max: 12 } as const;
    expect(valueProblem(spec, 2)).toBeNull();
    expect(valueProblem(spec, 12)).toBeNull();
    expect(valueProblem(spec, 13)).toBe('must be 2 to 12');
    expect(valueProblem(spec, 2.5)).toBe('must be an integer');
    expect(valueProblem(spec, '3')).toBe('must be an integer');
  });

  it('accepts the extra values of also and mentions them', () => {
    const spec = { type: 'integer', min: 4, max: 12, also: [-1] } as const;
    expect(valueProblem(spec, -1)).toBeNull();
    expect(valueProblem(spec, 0)).toBe('must be 4 to 12 (or -1)');
  });

  it('checks steps from a base', () => {
    const spec = { type: 'integer', min: 29, max: 289, base: 25, step: 4 } as const;
    expect(valueProblem(spec, 33)).toBeNull();
    expect(valueProblem(spec, 34)).toBe('must be of the form 25+4n');
  });
});
