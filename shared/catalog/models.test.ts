import { describe, expect, it } from 'vitest';
import { isKnownModel, MODELS, modelSpec, RATIOS, SERVICE_TIERS, unknownModel, type ParameterSpec } from './models';
import { MODEL_IDS } from './testing/model-ids';

const ids = MODEL_IDS;

const params = (id: string) => Object.keys(modelSpec(id).parameters).sort();
const param = (id: string, name: string): ParameterSpec | undefined =>
  modelSpec(id).parameters[name as keyof ReturnType<typeof modelSpec>['parameters']];

describe('MODELS', () => {
  it('lists the seven Seedance models of the model facts, each once', () => {
    expect(MODELS.map((m) => m.id).sort()).toEqual(Object.values(ids).sort());
    expect(new Set(MODELS.map((m) => m.id)).size).toBe(MODELS.length);
  });

  it('gives every model a label', () => {
    for (const model of MODELS) expect(model.label.length).toBeGreaterThan(0);
  });

  it('accepts asset:// references only in the 2.0 family', () => {
    expect(MODELS.filter((m) => m.assetRefs).map((m) => m.id).sort()).toEqual([ids.s2, ids.s2fast].sort());
  });

  it('declares callback_url and priority for no model', () => {
    for (const model of MODELS) {
      expect(model.parameters.callback_url, model.id).toBeUndefined();
      expect(model.parameters.priority, model.id).toBeUndefined();
    }
  });

  it('uses the common ratios 16:9, 4:3, 1:1, 3:4, 9:16, 21:9, adaptive and seeds -1 to 4294967295', () => {
    expect(RATIOS).toEqual(['16:9', '4:3', '1:1', '3:4', '9:16', '21:9', 'adaptive']);
    for (const model of MODELS) {
      expect(model.parameters.ratio, model.id).toEqual({ type: 'enum', values: RATIOS });
      expect(model.parameters.seed, model.id).toEqual({ type: 'integer', min: -1, max: 4294967295 });
    }
  });

  it('offers service tiers default and flex', () => {
    expect(SERVICE_TIERS).toEqual(['default', 'flex']);
  });
});

describe('catalog entries per model', () => {
  it('1.0 lite t2v: text only, no references, frames 29-289 (25+4n), duration 2-12', () => {
    const m = modelSpec(ids.t2v);
    expect(m.modes).toEqual(['text']);
    expect(m.references).toBeNull();
    expect(params(ids.t2v)).toEqual(['camera_fixed', 'duration', 'frames', 'ratio', 'resolution', 'seed', 'watermark']);
    expect(param(ids.t2v, 'resolution')).toEqual({ type: 'enum', values: ['480p', '720p', '1080p'] });
    expect(param(ids.t2v, 'duration')).toEqual({ type: 'integer', min: 2, max: 12 });
    expect(param(ids.t2v, 'frames')).toMatchObject({ type: 'integer', min: 29, max: 289, base: 25, step: 4, notWith: ['duration'] });
    expect(m.dataUriImages).toBe(false);
  });

  it('1.0 lite i2v: first frame, first+last or 1-4 reference images, references not at 1080p', () => {
    const m = modelSpec(ids.i2v);
    expect([...m.modes].sort()).toEqual(['first_frame', 'first_last', 'reference']);
    expect(m.references).toMatchObject({ images: { min: 1, max: 4 }, videos: { max: 0 }, audios: { max: 0 }, files: 4 });
    expect(m.references?.resolutions).toEqual(['480p', '720p']);
    expect(params(ids.i2v)).toEqual(['camera_fixed', 'duration', 'frames', 'ratio', 'resolution', 'seed', 'watermark']);
  });

  it('1.0 pro: text, first frame, first+last; no references; no audio, draft or last frame', () => {
    const m = modelSpec(ids.pro);
    expect([...m.modes].sort()).toEqual(['first_frame', 'first_last', 'text']);
    expect(m.references).toBeNull();
    expect(params(ids.pro)).toEqual(['camera_fixed', 'duration', 'frames', 'ratio', 'resolution', 'seed', 'watermark']);
  });

  it('1.0 pro fast: text and first frame only', () => {
    expect([...modelSpec(ids.proFast).modes].sort()).toEqual(['first_frame', 'text']);
    expect(modelSpec(ids.proFast).references).toBeNull();
  });

  it('1.5 pro: duration 4-12 or -1, no frames, audio, draft (480p only, not with return_last_frame), service tier', () => {
    const m = modelSpec(ids.pro15);
    expect([...m.modes].sort()).toEqual(['first_frame', 'first_last', 'text']);
    expect(params(ids.pro15)).toEqual(
      ['camera_fixed', 'draft', 'duration', 'generate_audio', 'ratio', 'resolution', 'return_last_frame', 'seed', 'service_tier', 'watermark'].sort(),
    );
    expect(param(ids.pro15, 'duration')).toEqual({ type: 'integer', min: 4, max: 12, also: [-1] });
    expect(param(ids.pro15, 'draft')).toMatchObject({ type: 'boolean', onlyWith: { resolution: ['480p'] }, notWith: ['return_last_frame'] });
  });

  it.each([ids.s2, ids.s2fast])('%s: all modes, duration 4-15, no frames/draft/camera_fixed, audio default on', (id) => {
    const m = modelSpec(id);
    expect([...m.modes].sort()).toEqual(['first_frame', 'first_last', 'reference', 'text']);
    expect(params(id)).toEqual(['duration', 'generate_audio', 'ratio', 'resolution', 'return_last_frame', 'seed', 'service_tier', 'watermark']);
    expect(param(id, 'duration')).toEqual({ type: 'integer', min: 4, max: 15 });
    expect(param(id, 'generate_audio')).toEqual({ type: 'boolean', default: true });
  });

  it.each([ids.s2, ids.s2fast])('%s: up to 9 images, 3 videos, 3 audio, 12 files; audio needs a visual', (id) => {
    expect(modelSpec(id).references).toMatchObject({
      images: { min: 0, max: 9 },
      videos: { max: 3 },
      audios: { max: 3 },
      files: 12,
      audioNeedsVisual: true,
    });
    expect(modelSpec(id).references?.resolutions).toBeUndefined();
  });

  it('2.0 offers 480p, 720p, 1080p; 2.0 fast only 480p and 720p', () => {
    expect(param(ids.s2, 'resolution')).toEqual({ type: 'enum', values: ['480p', '720p', '1080p'] });
    expect(param(ids.s2fast, 'resolution')).toEqual({ type: 'enum', values: ['480p', '720p'] });
  });

  it('Seedance 1.x models other than 1.5 do not support generate_audio, draft, return_last_frame or service_tier', () => {
    for (const id of [ids.t2v, ids.i2v, ids.pro, ids.proFast]) {
      for (const name of ['generate_audio', 'draft', 'return_last_frame', 'service_tier']) expect(param(id, name), `${id} ${name}`).toBeUndefined();
    }
  });

  it('models without frames support: 1.5 pro and the 2.0 family', () => {
    for (const id of [ids.pro15, ids.s2, ids.s2fast]) expect(param(id, 'frames'), id).toBeUndefined();
  });
});

describe('modelSpec, unknownModel, isKnownModel', () => {
  it('returns the catalog entry of a known id', () => {
    for (const model of MODELS) expect(modelSpec(model.id)).toBe(model);
  });

  it('returns a text-only entry without parameters or references for an unknown id', () => {
    const m = modelSpec('mystery-model-1');
    expect(m).toEqual(unknownModel('mystery-model-1'));
    expect(m).toEqual({
      id: 'mystery-model-1',
      label: 'mystery-model-1',
      modes: ['text'],
      parameters: {},
      references: null,
      assetRefs: false,
      dataUriImages: false,
    });
  });

  it('matches ids exactly (no prefix or case folding)', () => {
    expect(isKnownModel(ids.s2)).toBe(true);
    expect(isKnownModel(ids.s2.toUpperCase())).toBe(false);
    expect(isKnownModel('doubao-seedance-2-0')).toBe(false);
    expect(isKnownModel('')).toBe(false);
    expect(modelSpec(`${ids.s2} `).assetRefs).toBe(false);
  });

  it('isKnownModel is true for every catalog id', () => {
    for (const model of MODELS) expect(isKnownModel(model.id)).toBe(true);
  });
});
