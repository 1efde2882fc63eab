import { describe, expect, it } from 'vitest';
import { modelSpec } from '@@/shared';
import { MODEL_IDS as M } from '@@/shared/catalog/testing/model-ids';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import type { ExportClip } from '@/lib/studio/export-clips';
import { checkSizes, formAtSize, takeSize } from '@/lib/studio/export-sizes';

const clip = (shotNumber: number, body: Record<string, unknown>): ExportClip => ({
  shotNumber,
  shotId: `s${shotNumber}`,
  url: `https://proxy.test/media/${shotNumber}`,
  task: { localId: `t${shotNumber}`, body: { model: M.s2, ...body } } as unknown as TaskRecord,
});

describe('takeSize', () => {
  it('is the size the take’s create asked, with its resolution and ratio; the model’s default resolution, adaptive as 16:9', () => {
    expect(takeSize(clip(1, { resolution: '480p', ratio: '9:16' }).task)).toEqual({ width: 480, height: 864, resolution: '480p', ratio: '9:16' });
    expect(takeSize(clip(1, { ratio: 'adaptive' }).task)).toEqual({ width: 1248, height: 704, resolution: '720p', ratio: '16:9' });
    expect(takeSize({ body: { model: 'unknown-model' } } as TaskRecord)).toBeUndefined();
  });
});

describe('checkSizes', () => {
  it('passes clips of one size, and clips whose size is unknown', () => {
    expect(checkSizes([clip(1, { resolution: '720p' }), clip(2, { resolution: '720p', ratio: '16:9' })])).toEqual({ ok: true });
    expect(checkSizes([clip(1, { resolution: '720p' }), { ...clip(2, {}), task: { body: { model: 'unknown-model' } } as TaskRecord }])).toEqual({ ok: true });
  });

  it('the storyboard’s size is the one most shots have; the others are named', () => {
    const check = checkSizes([clip(1, { resolution: '1080p' }), clip(2, { resolution: '480p' }), clip(3, { resolution: '480p' }), clip(4, { resolution: '720p' })]);
    expect(check).toMatchObject({ ok: false, size: { width: 864, height: 480 } });
    expect(!check.ok && check.odd.map((s) => [s.shotNumber, s.shotId, s.size.resolution])).toEqual([[1, 's1', '1080p'], [4, 's4', '720p']]);
  });

  it('on a tie, the earliest shot’s size', () => {
    const check = checkSizes([clip(1, { resolution: '720p' }), clip(2, { resolution: '480p' })]);
    expect(check).toMatchObject({ ok: false, size: { resolution: '720p', ratio: '16:9' }, odd: [{ shotNumber: 2 }] });
  });
});

describe('formAtSize', () => {
  const form = { model: M.pro15, prompt: 'a boat', references: [], params: { resolution: '480p', ratio: '4:3', draft: true, seed: 7 } };
  const at = (resolution: string, ratio: string) => ({ width: 0, height: 0, resolution, ratio });

  it('sets the resolution and ratio; a draft stays one only at a resolution the model drafts at', () => {
    expect(formAtSize(form, at('720p', '16:9'), modelSpec(M.pro15))?.params).toEqual({ resolution: '720p', ratio: '16:9', seed: 7 });
    expect(formAtSize(form, at('480p', '16:9'), modelSpec(M.pro15))?.params).toEqual({ resolution: '480p', ratio: '16:9', draft: true, seed: 7 });
  });

  it('is null when the model cannot make that size', () => {
    expect(formAtSize({ ...form, model: M.s2fast }, at('1080p', '16:9'), modelSpec(M.s2fast))).toBeNull();
  });
});
