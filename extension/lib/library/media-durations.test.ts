import { describe, expect, it } from 'vitest';
import { formatDuration, knownDuration, MAX_KEPT, rememberDuration } from '@/lib/library/media-durations';

describe('media durations', () => {
  it('keeps finite positive durations by address, and forgets the oldest beyond MAX_KEPT', () => {
    rememberDuration('https://a/clip.mp4', 7.4);
    rememberDuration('https://a/live', Infinity);
    rememberDuration('https://a/none', Number.NaN);
    expect(knownDuration('https://a/clip.mp4')).toBe(7.4);
    expect(knownDuration('https://a/live')).toBeUndefined();
    expect(knownDuration('https://a/none')).toBeUndefined();
    for (let i = 0; i < MAX_KEPT; i++) rememberDuration(`https://b/${i}`, 1);
    expect(knownDuration('https://a/clip.mp4')).toBeUndefined();
    expect(knownDuration(`https://b/${MAX_KEPT - 1}`)).toBe(1);
  });

  it('reads as minutes and seconds, hours when there are any', () => {
    expect(formatDuration(7.4)).toBe('0:07');
    expect(formatDuration(754)).toBe('12:34');
    expect(formatDuration(3723)).toBe('1:02:03');
  });
});
