import { describe, expect, it } from 'vitest';
import { RATIOS } from './models';
import { completionTokens, createOutputSize, OUTPUT_SIZES, outputSize } from './output-size';
import { MODEL_IDS as M } from './testing/model-ids';

describe('outputSize', () => {
  it('answers the size per resolution and ratio', () => {
    expect(outputSize('480p', '16:9')).toEqual({ width: 864, height: 480 });
    expect(outputSize('480p', '21:9')).toEqual({ width: 960, height: 416 });
    expect(outputSize('720p', '4:3')).toEqual({ width: 1120, height: 832 });
    expect(outputSize('720p', '9:16')).toEqual({ width: 704, height: 1248 });
    expect(outputSize('1080p', '1:1')).toEqual({ width: 1440, height: 1440 });
    expect(outputSize('1080p', '3:4')).toEqual({ width: 1248, height: 1664 });
  });

  it('lists every fixed ratio of the catalog at each resolution, portrait the transpose of landscape', () => {
    for (const byRatio of Object.values(OUTPUT_SIZES)) {
      expect(Object.keys(byRatio).sort()).toEqual(RATIOS.filter((r) => r !== 'adaptive').sort());
      expect(byRatio['9:16']).toEqual({ width: byRatio['16:9']!.height, height: byRatio['16:9']!.width });
      expect(byRatio['3:4']).toEqual({ width: byRatio['4:3']!.height, height: byRatio['4:3']!.width });
    }
  });

  it('uses 16:9 for adaptive, no ratio or an unknown one', () => {
    for (const ratio of ['adaptive', undefined, null, '5:4']) expect(outputSize('720p', ratio)).toEqual({ width: 1248, height: 704 });
  });

  it('is undefined for a resolution it does not know (not an inherited key either)', () => {
    expect(outputSize('2k', '16:9')).toBeUndefined();
    expect(outputSize('toString', '16:9')).toBeUndefined();
  });
});

describe('createOutputSize', () => {
  it('is the size a create makes: its resolution at its ratio, else the model’s default resolution, adaptive as 16:9', () => {
    expect(createOutputSize({ model: M.s2, resolution: '480p', ratio: '9:16' })).toEqual({ width: 480, height: 864 });
    expect(createOutputSize({ model: M.s2, resolution: '480p', ratio: 'adaptive' })).toEqual({ width: 864, height: 480 });
    expect(createOutputSize({ model: M.pro, ratio: '4:3' })).toEqual({ width: 1664, height: 1248 });
    expect(createOutputSize({ model: M.s2, resolution: '2k', ratio: '1:1' })).toEqual({ width: 960, height: 960 });
    expect(createOutputSize({ model: 'unknown-model' })).toBeUndefined();
  });
});

describe('completionTokens', () => {
  it('is width x height x frames / 1024 at 24 fps: 1080p 16:9 5 s', () => {
    expect(completionTokens({ model: M.pro, resolution: '1080p', ratio: '16:9', duration: 5 })).toBe((1920 * 1088 * 120) / 1024);
    expect(completionTokens({ model: M.pro, resolution: '1080p', ratio: '16:9', duration: 5 })).toBe(244_800);
  });

  it('counts frames when given: 720p 1:1 29 frames', () => {
    // 960 x 960 x 29 / 1024 = 26100
    expect(completionTokens({ model: M.t2v, resolution: '720p', ratio: '1:1', frames: 29 })).toBe(26_100);
    // 736 x 544 x 29 / 1024 = 11339
    expect(completionTokens({ model: M.t2v, resolution: '480p', ratio: '4:3', frames: 29 })).toBe(11_339);
  });

  it('is a whole number for every size and frame count (each width x height is a multiple of 1024)', () => {
    for (const byRatio of Object.values(OUTPUT_SIZES)) for (const { width, height } of Object.values(byRatio)) expect((width * height) % 1024).toBe(0);
  });

  it('counts adaptive (and no ratio) as 16:9', () => {
    const wide = completionTokens({ model: M.s2, resolution: '720p', ratio: '16:9', duration: 4 });
    expect(wide).toBe((1248 * 704 * 96) / 1024);
    expect(completionTokens({ model: M.s2, resolution: '720p', ratio: 'adaptive', duration: 4 })).toBe(wide);
    expect(completionTokens({ model: M.s2, resolution: '720p', duration: 4 })).toBe(wide);
  });

  it("uses the model's default resolution and duration when the create leaves them out, or names an unknown resolution", () => {
    // 1.0 Pro: 1080p, 5 s; Seedance 2.0: 720p, 5 s.
    expect(completionTokens({ model: M.pro })).toBe(244_800);
    expect(completionTokens({ model: M.s2, ratio: '9:16' })).toBe((704 * 1248 * 120) / 1024);
    expect(completionTokens({ model: M.pro, resolution: '2k', duration: 5 })).toBe(244_800);
  });

  it('counts the longest duration for -1 (the model picks)', () => {
    expect(completionTokens({ model: M.pro15, resolution: '480p', duration: -1 })).toBe((864 * 480 * 12 * 24) / 1024);
  });

  it('is 0 for a model the catalog does not know and no resolution', () => {
    expect(completionTokens({ model: 'unknown-model', duration: 5 })).toBe(0);
    expect(completionTokens({ model: 'unknown-model', resolution: '480p', duration: 5 })).toBe((864 * 480 * 120) / 1024);
  });
});
