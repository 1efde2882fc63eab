import { describe, expect, it } from 'vitest';
import { GENERATION_PARAMETERS, MODELS, modelSpec, type ReferenceRole } from '@@/shared';
import { MODEL_IDS } from '@@/shared/catalog/testing/model-ids';
import type { AssetRecord } from '@/lib/storage/records/asset-record';
import {
  addReference,
  allowedRoles,
  emptyForm,
  fileReference,
  type FormReference,
  type GenerateForm,
  libraryChoices,
  libraryReference,
  modelSummary,
  paramControls,
  problems,
  referenceCounts,
  removeReference,
  rolesFor,
  setParam,
  setRole,
  switchModel,
  toBody,
  urlReference,
} from '@/lib/generate/generate-form';

const ids = MODEL_IDS;

const KIND: Record<ReferenceRole, FormReference['kind']> = {
  reference_image: 'image',
  first_frame: 'image',
  last_frame: 'image',
  reference_video: 'video',
  reference_audio: 'audio',
};

let n = 0;
const ref = (role: ReferenceRole, url = `https://cdn.example.com/${role}-${++n}.bin`, over: Partial<FormReference> = {}): FormReference => ({
  id: `r${++n}`,
  kind: KIND[role],
  role,
  source: 'url',
  url,
  label: url,
  ...over,
});

const form = (model: string, references: FormReference[] = [], params: GenerateForm['params'] = {}, prompt = 'A cat surfing at dawn'): GenerateForm => ({ model, prompt, references, params });

/** Problems as [where, reason] pairs. */
const where = (f: GenerateForm) =>
  problems(f).map((p) => [p.target.kind === 'reference' ? `ref ${p.target.index}` : p.target.kind === 'param' ? p.target.name : p.target.kind, p.reason]);

describe('parameters shown per model', () => {
  it.each(MODELS.map((m) => [m.label, m.id]))('%s: exactly the catalog parameters, with their values', (_label, id) => {
    const spec = modelSpec(id);
    const controls = paramControls(id);
    expect(controls.map((c) => c.name)).toEqual(GENERATION_PARAMETERS.filter((p) => spec.parameters[p]));
    for (const control of controls) {
      const rule = spec.parameters[control.name]!;
      if (rule.type === 'enum') expect(control).toMatchObject({ control: 'select', values: rule.values });
      if (rule.type === 'boolean') expect(control).toMatchObject({ control: 'checkbox', default: rule.default ?? false });
      if (rule.type === 'integer') expect(control).toMatchObject({ control: 'number', max: rule.max });
    }
  });

  it('frames: a number from 29 to 289 in steps of 4 (25 + 4n), on the Seedance 1.0 models only', () => {
    expect(paramControls(ids.pro).find((c) => c.name === 'frames')).toMatchObject({ control: 'number', min: 29, max: 289, step: 4 });
    expect(paramControls(ids.s2).some((c) => c.name === 'frames')).toBe(false);
    expect(paramControls(ids.pro15).some((c) => c.name === 'frames')).toBe(false);
  });

  it('duration on 1.5 Pro also allows -1 (the model picks)', () => {
    const duration = paramControls(ids.pro15).find((c) => c.name === 'duration')!;
    expect(duration).toMatchObject({ control: 'number', min: -1, max: 12 });
    expect(duration.hint).toContain('-1');
  });

  it('2.0 Fast offers 480p and 720p only; 2.0 has generate_audio on by default', () => {
    expect(paramControls(ids.s2fast).find((c) => c.name === 'resolution')).toMatchObject({ values: ['480p', '720p'] });
    expect(paramControls(ids.s2).find((c) => c.name === 'generate_audio')).toMatchObject({ control: 'checkbox', default: true });
  });

  it('an unknown model gets no parameters at all', () => {
    expect(paramControls('some-new-model')).toEqual([]);
  });
});

describe('roles per model', () => {
  it('follows the catalog modes and reference limits', () => {
    expect(allowedRoles(ids.t2v)).toEqual([]);
    expect(allowedRoles(ids.i2v)).toEqual(['reference_image', 'first_frame', 'last_frame']);
    expect(allowedRoles(ids.pro)).toEqual(['first_frame', 'last_frame']);
    expect(allowedRoles(ids.proFast)).toEqual(['first_frame']);
    expect(allowedRoles(ids.pro15)).toEqual(['first_frame', 'last_frame']);
    expect(allowedRoles(ids.s2)).toEqual(['reference_image', 'first_frame', 'last_frame', 'reference_video', 'reference_audio']);
    expect(rolesFor('video', ids.s2)).toEqual(['reference_video']);
    expect(rolesFor('image', ids.proFast)).toEqual(['first_frame']);
  });

  it('explains what each model takes, from the catalog', () => {
    expect(modelSummary(ids.t2v)).toEqual(['Takes: text only.']);
    const s2 = modelSummary(ids.s2).join(' ');
    expect(s2).toContain('up to 9 images; up to 3 videos; up to 3 audio clips; at most 12 files in all');
    expect(s2).toContain('Reference audio needs at least one reference image or video.');
    expect(s2).toContain('cannot be combined');
    expect(modelSummary(ids.i2v).join(' ')).toContain('1 to 4 images');
  });
});

describe('form rules per model (shared videoRequestProblems, placed on the form)', () => {
  it('asks for a prompt', () => {
    expect(where(form(ids.s2, [], {}, '   '))).toEqual([['prompt', 'at least one text input is required (prompt or a text content element)']]);
  });

  it('lite t2v takes no references', () => {
    const f = form(ids.t2v, [ref('first_frame')]);
    expect(where(f)).toEqual([['ref 0', expect.stringContaining('Seedance 1.0 Lite (text to video) does not take a first frame; it accepts: text only')]]);
    expect(problems(f)[0]!.message).toMatch(/^First frame: /);
  });

  it('2.0 rejects mixing a first frame with reference images', () => {
    const f = form(ids.s2, [ref('first_frame'), ref('reference_image')]);
    expect(where(f)).toEqual([['ref 1', 'first/last frames and reference media cannot be combined in one request']]);
  });

  it('pro-fast rejects a last frame', () => {
    const f = form(ids.proFast, [ref('first_frame'), ref('last_frame')]);
    expect(where(f)).toEqual([['ref 1', expect.stringContaining('Seedance 1.0 Pro Fast does not take first and last frames')]]);
  });

  it('a last frame needs a first frame and must differ from it', () => {
    expect(where(form(ids.pro, [ref('last_frame')]))).toEqual([['ref 0', 'a last_frame needs a first_frame']]);
    const same = 'https://cdn.example.com/same.png';
    expect(where(form(ids.pro, [ref('first_frame', same), ref('last_frame', same)]))).toEqual([['ref 1', 'the last frame must differ from the first frame']]);
  });

  it('counts: 10 reference images on 2.0 flag the tenth as Reference image 10', () => {
    const f = form(ids.s2, Array.from({ length: 10 }, () => ref('reference_image')));
    const found = problems(f);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ target: { kind: 'reference', index: 9 }, field: 'content[10].image_url', message: 'Reference image 10: Seedance 2.0 takes at most 9 reference images' });
    expect(where(form(ids.s2, Array.from({ length: 9 }, () => ref('reference_image'))))).toEqual([]);
  });

  it('counts: 4 videos, 13 files and audio alone on 2.0', () => {
    expect(where(form(ids.s2, [ref('reference_image'), ...Array.from({ length: 4 }, () => ref('reference_video'))]))).toEqual([['ref 4', 'Seedance 2.0 takes at most 3 reference videos']]);
    const thirteen = [...Array.from({ length: 9 }, () => ref('reference_image')), ...Array.from({ length: 3 }, () => ref('reference_video')), ref('reference_audio')];
    expect(where(form(ids.s2, thirteen))).toEqual([['ref 12', 'Seedance 2.0 takes at most 12 reference files in all']]);
    expect(where(form(ids.s2, [ref('reference_audio')]))).toEqual([['ref 0', 'reference audio needs at least one reference image or video']]);
  });

  it('lite i2v: 1 to 4 reference images, not at 1080p', () => {
    expect(where(form(ids.i2v, Array.from({ length: 5 }, () => ref('reference_image'))))).toEqual([['ref 4', 'Seedance 1.0 Lite (image to video) takes at most 4 reference images']]);
    expect(where(form(ids.i2v, [ref('reference_image')], { resolution: '1080p' }))).toEqual([['resolution', 'Seedance 1.0 Lite (image to video) takes reference images only at 480p, 720p']]);
    expect(where(form(ids.i2v, [ref('first_frame')], { resolution: '1080p' }))).toEqual([]);
  });

  it('values and combinations of parameters', () => {
    expect(where(form(ids.pro, [], { frames: 30 }))).toEqual([['frames', 'must be of the form 25+4n']]);
    expect(where(form(ids.pro, [], { frames: 29, duration: 5 }))).toEqual([['frames', 'cannot be combined with duration']]);
    expect(where(form(ids.pro15, [], { draft: true, resolution: '720p' }))).toEqual([['draft', 'is allowed only with resolution 480p']]);
    expect(where(form(ids.pro15, [], { draft: true, resolution: '480p', return_last_frame: true }))).toEqual([['draft', 'cannot be combined with return_last_frame']]);
    expect(where(form(ids.pro15, [], { duration: -1 }))).toEqual([]);
    expect(where(form(ids.s2, [], { duration: 3 }))).toEqual([['duration', 'must be 4 to 15']]);
  });

  it('library references only on 2.0; inline images not on lite t2v; http only when the proxy allows it', () => {
    const asset = ref('first_frame', 'asset://asset-1', { source: 'library', assetId: 'asset-1' });
    expect(where(form(ids.s2, [asset]))).toEqual([]);
    expect(where(form(ids.pro, [asset]))).toEqual([['ref 0', 'Seedance 1.0 Pro does not accept asset:// library references']]);
    const http = ref('first_frame', 'http://cdn.example.com/a.png');
    expect(where(form(ids.pro, [http]))[0]![1]).toContain('must be an https:// URL');
    expect(problems(form(ids.pro, [http]), ids.pro, { allowHttp: true })).toEqual([]);
  });
});

describe('toBody', () => {
  it('sends the prompt as content[0], one element per reference, and only the parameters the model supports', () => {
    const f = form(ids.s2, [ref('reference_image', 'https://a.example/1.png'), ref('reference_video', 'https://a.example/v.mp4'), ref('reference_audio', 'https://a.example/a.mp3')], {
      resolution: '720p',
      generate_audio: false,
      frames: 29,
      seed: 7,
    }, '  A cat  ');
    expect(toBody(f)).toEqual({
      model: ids.s2,
      content: [
        { type: 'text', text: 'A cat' },
        { type: 'image_url', image_url: { url: 'https://a.example/1.png' }, role: 'reference_image' },
        { type: 'video_url', video_url: { url: 'https://a.example/v.mp4' }, role: 'reference_video' },
        { type: 'audio_url', audio_url: { url: 'https://a.example/a.mp3' }, role: 'reference_audio' },
      ],
      resolution: '720p',
      generate_audio: false,
      seed: 7,
    });
  });

  it('edits: add, role, remove, parameters set and cleared', () => {
    let f = emptyForm(ids.i2v);
    f = addReference(f, { kind: 'image', role: 'reference_image', source: 'url', url: 'https://a.example/1.png', label: '1.png' });
    const id = f.references[0]!.id;
    f = setRole(f, id, 'first_frame');
    expect(f.references[0]!.role).toBe('first_frame');
    expect(setRole(f, id, 'reference_video').references[0]!.role).toBe('first_frame');
    f = setParam(setParam(f, 'seed', 3), 'resolution', '720p');
    expect(setParam(f, 'seed', undefined).params).toEqual({ resolution: '720p' });
    expect(removeReference(f, id).references).toEqual([]);
    expect(referenceCounts(form(ids.s2, [ref('reference_image'), ref('reference_audio')]), ids.s2)).toEqual([
      { kind: 'image', count: 1, max: 9 },
      { kind: 'video', count: 0, max: 3 },
      { kind: 'audio', count: 1, max: 3 },
    ]);
  });
});

describe('switchModel', () => {
  it('2.0 -> 1.0 Pro drops the reference roles and generate_audio, saying so, and keeps the prompt and the rest', () => {
    const f = form(ids.s2, [ref('reference_image'), ref('reference_video')], { generate_audio: false, resolution: '1080p', seed: 5 }, 'Keep me');
    const { form: next, dropped } = switchModel(f, ids.pro);
    expect(next).toEqual({ model: ids.pro, prompt: 'Keep me', references: [], params: { resolution: '1080p', seed: 5 } });
    expect(dropped).toEqual([
      'Removed “Generate audio”: Seedance 1.0 Pro does not support it',
      'Removed Reference image 1: Seedance 1.0 Pro takes no reference images',
      'Removed Reference video 1: Seedance 1.0 Pro takes no reference videos',
    ]);
    expect(problems(next)).toEqual([]);
  });

  it('keeps references the new model takes, by role', () => {
    const first = ref('first_frame');
    const last = ref('last_frame');
    const { form: next, dropped } = switchModel(form(ids.pro, [first, last]), ids.proFast);
    expect(next.references).toEqual([first]);
    expect(dropped).toEqual(['Removed Last frame: Seedance 1.0 Pro Fast takes no last frame']);
    expect(switchModel(form(ids.pro, [first, last]), ids.s2).dropped).toEqual([]);
  });

  it('drops frames for 2.0 and values the new model does not allow', () => {
    expect(switchModel(form(ids.pro, [], { frames: 29 }), ids.s2).dropped).toEqual(['Removed “Frames”: Seedance 2.0 does not support it']);
    const { form: next, dropped } = switchModel(form(ids.s2, [], { resolution: '1080p', ratio: '16:9' }), ids.s2fast);
    expect(dropped).toEqual(['Removed “Resolution” 1080p: with Seedance 2.0 Fast it must be one of 480p, 720p']);
    expect(next.params).toEqual({ ratio: '16:9' });
  });

  it('drops what only the new model refuses by the shared rules: library assets, counts over its limits', () => {
    const asset = ref('first_frame', 'asset://asset-1', { source: 'library', assetId: 'asset-1' });
    expect(switchModel(form(ids.s2, [asset]), ids.pro).dropped).toEqual(['Removed First frame: Seedance 1.0 Pro does not accept asset:// library references']);

    const six = Array.from({ length: 6 }, () => ref('reference_image'));
    const { form: next, dropped } = switchModel(form(ids.s2, six), ids.i2v);
    expect(next.references).toEqual(six.slice(0, 4));
    expect(dropped).toEqual([
      'Removed Reference image 5: Seedance 1.0 Lite (image to video) takes at most 4 reference images',
      'Removed Reference image 6: Seedance 1.0 Lite (image to video) takes at most 4 reference images',
    ]);
  });

  it('leaves problems the form already had for the member to fix', () => {
    const bad = ref('first_frame', 'ftp://cdn.example.com/a.png');
    const { form: next, dropped } = switchModel(form(ids.pro, [bad]), ids.s2);
    expect(dropped).toEqual([]);
    expect(next.references).toEqual([bad]);
    expect(problems(next)).toHaveLength(1);
  });

  it('to text-only lite t2v: every reference goes', () => {
    const { form: next, dropped } = switchModel(form(ids.s2, [ref('reference_image'), ref('reference_audio')]), ids.t2v);
    expect(next.references).toEqual([]);
    expect(dropped).toHaveLength(2);
    expect(next.prompt).toBe('A cat surfing at dawn');
  });
});

describe('adding references', () => {
  const asset = (localId: string, over: Partial<AssetRecord>): AssetRecord => ({
    localId,
    assetId: `id-${localId}`,
    groupId: 'g',
    name: localId,
    url: 'https://cdn.example.com/x',
    type: 'Image',
    status: 'Active',
    idempotencyKey: 'k',
    notified: false,
    createdAt: 1,
    updatedAt: 1,
    ...over,
  });

  it('the library offers only Active assets of the role’s kind, for models that take library references', () => {
    const assets = [
      asset('img', {}),
      asset('processing', { status: 'Processing' }),
      asset('failed', { status: 'Failed' }),
      asset('queued', { status: 'Queued', assetId: undefined }),
      asset('vid', { type: 'Video' }),
      asset('aud', { type: 'Audio' }),
    ];
    expect(libraryChoices(assets, 'reference_image', ids.s2).map((a) => a.localId)).toEqual(['img']);
    expect(libraryChoices(assets, 'first_frame', ids.s2).map((a) => a.localId)).toEqual(['img']);
    expect(libraryChoices(assets, 'reference_video', ids.s2).map((a) => a.localId)).toEqual(['vid']);
    expect(libraryChoices(assets, 'reference_audio', ids.s2fast).map((a) => a.localId)).toEqual(['aud']);
    expect(libraryChoices(assets, 'first_frame', ids.pro)).toEqual([]);
    expect(libraryReference(assets[0]!, 'first_frame')).toEqual({ kind: 'image', role: 'first_frame', source: 'library', url: 'asset://id-img', label: 'img', assetId: 'id-img' });
  });

  it('pasted URLs: https (http only when allowed), or asset://', () => {
    expect(urlReference(' https://cdn.example.com/a.mp4 ', 'reference_video')).toMatchObject({ ok: true, value: { kind: 'video', url: 'https://cdn.example.com/a.mp4', source: 'url' } });
    expect(urlReference('http://cdn.example.com/a.png', 'first_frame')).toEqual({ ok: false, message: 'Reference URL: must be an https:// URL' });
    expect(urlReference('http://cdn.example.com/a.png', 'first_frame', { allowHttp: true }).ok).toBe(true);
    expect(urlReference('asset://abc', 'reference_image')).toMatchObject({ ok: true, value: { source: 'library', assetId: 'abc' } });
    expect(urlReference('data:image/png;base64,AAAA', 'reference_image').ok).toBe(false);
    expect(urlReference('https://a.example/1 https://a.example/2', 'reference_image').ok).toBe(false);
  });

  it('local image files only where the model takes data URIs, never SVG', () => {
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    expect(fileReference('a.png', png, 12, 'first_frame', ids.pro)).toMatchObject({ ok: true, value: { source: 'file', url: png, label: 'a.png', bytes: 12 } });
    expect(fileReference('a.png', png, 12, 'first_frame', ids.t2v)).toEqual({ ok: false, message: 'Seedance 1.0 Lite (text to video) does not take local image files: use a URL or the library.' });
    expect(fileReference('a.svg', 'data:image/svg+xml;base64,PHN2Zz4=', 8, 'first_frame', ids.pro).ok).toBe(false);
    expect(fileReference('a.mp4', png, 8, 'reference_video', ids.s2).ok).toBe(false);
  });
});
