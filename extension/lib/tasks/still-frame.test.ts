import { describe, expect, it } from 'vitest';
import { isBlankFrame } from './still-frame';

const pixels = (...rgba: number[][]) => new Uint8ClampedArray(rgba.flat());

describe('isBlankFrame', () => {
  it('is true for a frame not yet painted: all transparent, or all black', () => {
    expect(isBlankFrame(pixels([0, 0, 0, 0], [255, 255, 255, 0]))).toBe(true);
    expect(isBlankFrame(pixels([0, 0, 0, 255], [16, 16, 16, 255]))).toBe(true);
  });

  it('is false as soon as one opaque pixel has a channel above 16 (a dark scene with one light is a picture)', () => {
    expect(isBlankFrame(pixels([0, 0, 0, 255], [0, 0, 17, 255]))).toBe(false);
    expect(isBlankFrame(pixels([200, 120, 40, 255]))).toBe(false);
  });
});
