import { bmvbhash } from 'blockhash-core';

/**
 * The perceptual hash of an image (blockhash-core's `bmvbhash`, 16 × 16 blocks: 256 bits, 64 hex
 * digits): each block is 1 when brighter than the median of its band. Re-encoding, resizing or
 * re-quantizing an image moves few bits; a different picture moves about half of them.
 */

export const HASH_BITS = 256;

/**
 * Bits within which two hashes are the same picture: 10 of 256 (about 4 %). A re-encoded, resized
 * or re-compressed copy of a picture moves only the blocks that sit right at their band's median, a
 * handful of bits (the tests measure it); two different pictures differ in about half the bits
 * (~128), and even similar shots (the same scene a moment later, a crop) differ in dozens. 10 leaves
 * room for copies while staying far below what two different images share by chance.
 */
export const NEAR_DISTANCE = 10;
/** Hex digits of a hash. */
export const HASH_HEX_LENGTH = HASH_BITS / 4;
/** Images smaller than the grid on either side are not hashed (blocks would be under one pixel). */
export const HASH_MIN_SIDE = 16;
/** Largest image hashed as is; callers scale larger ones down first (decode-pixels) to bound the work. */
export const HASH_MAX_PIXELS = 4096 * 4096;

export interface Pixels {
  width: number;
  height: number;
  /** RGBA, 4 bytes a pixel. */
  data: Uint8ClampedArray | Uint8Array;
}

/** The image's hash, or null when it is too small, too large, or its data does not match its size. */
export function pixelHash(image: Pixels): string | null {
  const { width, height, data } = image;
  if (width < HASH_MIN_SIDE || height < HASH_MIN_SIDE || width * height > HASH_MAX_PIXELS) return null;
  if (data.length !== width * height * 4) return null;
  return bmvbhash({ width, height, data }, 16);
}

const HEX = /^[0-9a-f]{64}$/;
/** Whether a value is a hash this module makes (stored records and messages are checked with it). */
export const isPixelHash = (value: unknown): value is string => typeof value === 'string' && HEX.test(value);

const POPCOUNT = Array.from({ length: 16 }, (_, n) => (n & 1) + ((n >> 1) & 1) + ((n >> 2) & 1) + ((n >> 3) & 1));

/** Bits that differ between two hashes (0..256); linear in their length. */
export function hammingDistance(a: string, b: string): number {
  let distance = 0;
  for (let i = 0; i < HASH_HEX_LENGTH; i++) distance += POPCOUNT[parseInt(a[i]!, 16) ^ parseInt(b[i]!, 16)]!;
  return distance;
}
