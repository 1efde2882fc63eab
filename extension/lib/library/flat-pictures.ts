import { NEAR_DISTANCE, type Pixels } from '@/lib/library/image-hash';

/**
 * Flat pictures (docs/extension.md, "Duplicates"): a picture with little or no structure (a plain
 * colour, a plain colour with a little noise, a speck on a plain ground) has a perceptual hash that
 * says almost nothing: every block ties with its band's median, so a red and a blue square both hash
 * to all zeros (or all ones), and every plain picture would match every other. Such a picture is
 * compared instead by the SHA-256 of its bytes (the same file) and, when it is plain, by its mean
 * colour (the picture is its colour); never by its perceptual hash.
 *
 * Its print (kept where a perceptual hash is kept: `pixelHash` of a record) is
 * `flat:<SHA-256 of the bytes, 64 hex digits>` with `:<mean colour, rrggbb>` when it is plain.
 */

/**
 * A picture is plain when every channel's standard deviation over its pixels is under this (of 0..255
 * levels). 4 levels: about what a lossy re-encode's noise spreads a flat colour over (1 to 2), with
 * room for a faint noise; a gradient visible to the eye spans dozens of levels (a sky from 100 to
 * 140 deviates by about 12). Under it, the blocks' differences are smaller than what re-encoding
 * moves, so the hash's bits are noise.
 */
export const FLAT_DEVIATION = 4;

/**
 * Two plain pictures are the same when no channel of their mean colours differs by more than this
 * (of 0..255): a re-encode moves a flat colour by a level or two; colours 3 levels apart are hard to
 * tell apart by eye, and farther ones are different pictures.
 */
export const COLOUR_TOLERANCE = 3;

export interface PictureStats {
  /** Mean red, green and blue, 0..255 rounded (a transparent pixel counts as white, as the hash reads it). */
  mean: [number, number, number];
  /** The largest standard deviation of the three channels, in levels of 0..255. */
  deviation: number;
}

/** Mean colour and spread of a picture's pixels: one linear pass over its RGBA. */
export function pictureStats(image: Pixels): PictureStats {
  const { data } = image;
  const sum = [0, 0, 0];
  const squares = [0, 0, 0];
  const count = data.length / 4;
  for (let i = 0; i < data.length; i += 4) {
    const transparent = data[i + 3] === 0;
    for (let c = 0; c < 3; c++) {
      const v = transparent ? 255 : data[i + c]!;
      sum[c]! += v;
      squares[c]! += v * v;
    }
  }
  const mean = sum.map((s) => s / count);
  // Population variance; clamped at 0 against rounding.
  const deviation = Math.max(...squares.map((s, c) => Math.sqrt(Math.max(0, s / count - mean[c]! ** 2))));
  return { mean: mean.map(Math.round) as [number, number, number], deviation };
}

const POPCOUNT = Array.from({ length: 16 }, (_, n) => (n & 1) + ((n >> 1) & 1) + ((n >> 2) & 1) + ((n >> 3) & 1));

/**
 * Whether a perceptual hash (64 hex digits) has its rarer bit on at most NEAR_DISTANCE of its 256
 * blocks: it is then within NEAR_DISTANCE of the all-zeros (or all-ones) hash of every plain picture
 * and cannot be told from one by its hash (a speck or a thin line on a plain ground).
 */
export function hashSaysLittle(hash: string): boolean {
  let ones = 0;
  for (const digit of hash) ones += POPCOUNT[parseInt(digit, 16)]!;
  return Math.min(ones, hash.length * 4 - ones) <= NEAR_DISTANCE;
}

/** Whether a picture with this hash and these stats is flat (compared by flatPrint, not its hash). */
export const isFlat = (hash: string, stats: PictureStats): boolean => stats.deviation < FLAT_DEVIATION || hashSaysLittle(hash);

const hex2 = (n: number) => n.toString(16).padStart(2, '0');

/** A flat picture's print: its bytes' SHA-256 and, when plain, its mean colour. */
export function flatPrint(sha256: string, stats: PictureStats): string {
  const colour = stats.deviation < FLAT_DEVIATION ? `:${stats.mean.map(hex2).join('')}` : '';
  return `flat:${sha256}${colour}`;
}

const PRINT = /^flat:([0-9a-f]{64})(?::([0-9a-f]{6}))?$/;
/** Whether a value is a print flatPrint makes (stored records and messages are checked with it). */
export const isFlatPrint = (value: unknown): value is string => typeof value === 'string' && value.length <= 76 && PRINT.test(value);

const colourOf = (hex: string) => [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));

/** Whether two flat prints are the same picture: the same bytes, or both plain with the same mean colour. */
export function sameFlatPicture(a: string, b: string): boolean {
  const [, bytesA, colourA] = PRINT.exec(a) ?? [];
  const [, bytesB, colourB] = PRINT.exec(b) ?? [];
  if (!bytesA || !bytesB) return false;
  if (bytesA === bytesB) return true;
  if (!colourA || !colourB) return false;
  const [ca, cb] = [colourOf(colourA), colourOf(colourB)];
  return ca.every((v, i) => Math.abs(v - cb[i]!) <= COLOUR_TOLERANCE);
}
