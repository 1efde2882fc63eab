import { describe, expect, it } from 'vitest';
import { GENERATION_PARAMETERS } from '@@/shared';
import { isUpFront, settingNote, settingsCaption } from '@/lib/generate/more-settings';

const ALL = GENERATION_PARAMETERS;

describe('the "More settings" caption', () => {
  it('reads what is set, in request order, as a caption', () => {
    expect(settingsCaption({ generate_audio: true, seed: 42, ratio: '16:9', resolution: '720p' }, ALL)).toBe('720p · 16:9 · seed 42 · audio');
  });

  it('says a switch turned off as such', () => {
    expect(settingsCaption({ watermark: false, generate_audio: false, camera_fixed: true }, ALL)).toBe('no audio · no watermark · fixed camera');
  });

  it('leaves out the duration, which sits up front, and what is not set', () => {
    expect(isUpFront('duration')).toBe(true);
    expect(isUpFront('seed')).toBe(false);
    expect(settingsCaption({ duration: 5, service_tier: 'flex', seed: undefined }, ALL)).toBe('flex tier');
  });

  it('names only the parameters it is given (the model’s own)', () => {
    expect(settingsCaption({ resolution: '1080p', generate_audio: true }, ['resolution'])).toBe('1080p');
  });

  it('says "model defaults" when nothing is set', () => {
    expect(settingsCaption({}, ALL)).toBe('model defaults');
    expect(settingsCaption({ duration: 10 }, ALL)).toBe('model defaults');
  });
});

describe('what a setting costs, said next to it', () => {
  it('warns of 1080p, the flex tier and drafts, and says nothing of the rest', () => {
    expect(settingNote('resolution', '1080p')).toMatch(/costs more/i);
    expect(settingNote('service_tier', 'flex')).toMatch(/slower/i);
    expect(settingNote('draft', true)).toMatch(/480p preview/);
    expect(settingNote('resolution', '720p')).toBe('');
    expect(settingNote('draft', false)).toBe('');
    expect(settingNote('seed', 42)).toBe('');
  });
});
