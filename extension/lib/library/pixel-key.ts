import { sha256Hex } from '@@/shared';
import { flatPrint, hashSaysLittle, isFlat, isFlatPrint, pictureStats, sameFlatPicture } from '@/lib/library/flat-pictures';
import { hammingDistance, isPixelHash, type Pixels, pixelHash } from '@/lib/library/image-hash';

/**
 * A picture's pixel key: what the extension keeps of an image to find its duplicates (a record's
 * `pixelHash`, the hashes messages and caches carry). For a picture with structure, its perceptual
 * hash (image-hash); for a flat one, its flat print (flat-pictures), since its hash says nothing.
 * The one comparison of two keys is pixelDistance.
 */

/** The key of decoded pixels whose encoded bytes are `bytes`, or null when they are not hashed (image-hash). */
export async function pixelKey(image: Pixels, bytes: Uint8Array<ArrayBuffer>): Promise<string | null> {
  const hash = pixelHash(image);
  if (hash === null) return null;
  const stats = pictureStats(image);
  return isFlat(hash, stats) ? flatPrint(await sha256Hex(bytes), stats) : hash;
}

/**
 * Whether a value is a key pixels can be compared by: a flat print, or a perceptual hash that says
 * something. A hash stored before flat pictures had prints, that says as little as a flat picture's,
 * is not: such a record is compared by its address, as one whose pixels were never read.
 */
export const isPixelKey = (value: unknown): value is string => isFlatPrint(value) || (isPixelHash(value) && !hashSaysLittle(value));

/**
 * How far apart two pixel keys are (both isPixelKey), in the hash's bits: the Hamming distance of
 * two hashes; 0 for two flat prints of the same picture; Infinity for two different flat pictures,
 * or a flat picture and one with structure (never the same picture).
 */
export function pixelDistance(a: string, b: string): number {
  const flatA = isFlatPrint(a);
  if (flatA !== isFlatPrint(b)) return Infinity;
  if (flatA) return sameFlatPicture(a, b) ? 0 : Infinity;
  return hammingDistance(a, b);
}
