import { describe, expect, it } from 'vitest';
import { FLAT_DEVIATION, isFlatPrint, pictureStats } from '@/lib/library/flat-pictures';
import { hammingDistance, type Pixels, pixelHash } from '@/lib/library/image-hash';
import { findNearDuplicate, libraryMarks, NEAR_DISTANCE, similarAssets } from '@/lib/library/near-duplicates';
import { isPixelKey, pixelKey } from '@/lib/library/pixel-key';
import { GRADIENT } from '@/lib/library/testing/gradient-pixels';
import type { AssetRecord } from '@/lib/storage/records/asset-record';

/** A picture made in code: RGBA of `side` × `side`, each pixel from `paint(x, y)` (pixel coordinates). */
function picture(side: number, paint: (x: number, y: number) => [number, number, number]): Pixels {
  const data = new Uint8ClampedArray(side * side * 4);
  for (let y = 0; y < side; y++) for (let x = 0; x < side; x++) data.set([...paint(x, y), 255], (y * side + x) * 4);
  return { width: side, height: side, data };
}

/** Deterministic noise in -amplitude..amplitude (a lossy encoder's, or a sensor's). */
const noise = (x: number, y: number, amplitude: number, seed = 1) => Math.round(((Math.abs(Math.sin(x * 12.9898 + y * 78.233 + seed) * 43758.5453) % 1) * 2 - 1) * amplitude);

const plain = (r: number, g: number, b: number) => picture(64, () => [r, g, b]);
const noisy = (r: number, g: number, b: number, amplitude: number, seed = 1) => picture(64, (x, y) => [r + noise(x, y, amplitude, seed), g + noise(y, x, amplitude, seed), b + noise(x + y, y, amplitude, seed)]);

/** Stand-ins for a picture's encoded bytes: its pixels behind a byte naming the encoding (the "quality"). */
const encoded = (image: Pixels, quality = 90) => new Uint8Array([quality, ...image.data]) as Uint8Array<ArrayBuffer>;

const keyOf = async (image: Pixels, quality = 90) => (await pixelKey(image, encoded(image, quality)))!;

function asset(localId: string, over: Partial<AssetRecord> = {}): AssetRecord {
  return { localId, groupId: 'g', name: localId, url: `https://cdn.example.com/${localId}.png`, type: 'Image', status: 'Active', idempotencyKey: '', notified: true, createdAt: 0, updatedAt: 0, ...over };
}

/** Whether `image` (bytes at `quality`) is found a near duplicate of a library holding `stored`. */
async function duplicateOf(image: Pixels, stored: Pixels, quality = 90, storedQuality = 90): Promise<boolean> {
  const library = [asset('stored', { pixelHash: await keyOf(stored, storedQuality) })];
  return findNearDuplicate({ url: 'https://elsewhere.example.org/new.png', pixelHash: await keyOf(image, quality) }, library) !== null;
}

const RED = plain(220, 30, 30);
const BLUE = plain(30, 60, 220);

describe('near duplicates of flat pictures: never the same because they lack structure', () => {
  it('the reason: the perceptual hashes of two plain squares of different colours are the same', () => {
    expect(hammingDistance(pixelHash(RED)!, pixelHash(BLUE)!)).toBeLessThanOrEqual(NEAR_DISTANCE);
  });

  it('finds flat squares of different colours not duplicates', async () => {
    expect(await duplicateOf(RED, BLUE)).toBe(false);
    expect(await duplicateOf(plain(0, 0, 0), plain(40, 40, 40))).toBe(false);
    expect(await duplicateOf(plain(255, 255, 255), plain(235, 235, 235))).toBe(false);
  });

  it('finds a flat square and a photo-like gradient not duplicates, either way round', async () => {
    expect(await duplicateOf(RED, GRADIENT)).toBe(false);
    expect(await duplicateOf(GRADIENT, RED)).toBe(false);
    // Even a square of the gradient's mean colour.
    const [r, g, b] = pictureStats(GRADIENT).mean;
    expect(await duplicateOf(plain(r, g, b), GRADIENT)).toBe(false);
  });

  it('finds the same flat picture (the same bytes) a duplicate', async () => {
    const match = findNearDuplicate({ url: 'https://elsewhere.example.org/red.png', pixelHash: await keyOf(RED) }, [asset('blue', { pixelHash: await keyOf(BLUE) }), asset('red', { pixelHash: await keyOf(RED) })]);
    expect(match).toMatchObject({ asset: { localId: 'red' }, by: 'pixels', distance: 0 });
  });

  it('finds the same plain colour re-encoded (other bytes, a level or two off) a duplicate', async () => {
    expect(await duplicateOf(plain(221, 31, 29), RED, 60, 90)).toBe(true);
    // Re-encoded with a faint noise around the same colour.
    expect(await duplicateOf(noisy(220, 30, 30, 2), RED, 60, 90)).toBe(true);
  });

  it('finds a nearly flat picture (a faint noise) and one of a different colour not duplicates', async () => {
    const faint = noisy(220, 30, 30, 3);
    expect(pictureStats(faint).deviation).toBeGreaterThan(0);
    expect(pictureStats(faint).deviation).toBeLessThan(FLAT_DEVIATION);
    expect(await duplicateOf(faint, BLUE)).toBe(false);
    // The same faint texture in another colour: its hash is the texture's, the same.
    const tinted = noisy(30, 60, 220, 3);
    expect(hammingDistance(pixelHash(faint)!, pixelHash(tinted)!)).toBeLessThanOrEqual(NEAR_DISTANCE);
    expect(await duplicateOf(faint, tinted)).toBe(false);
    expect(await duplicateOf(faint, noisy(30, 60, 220, 3, 2))).toBe(false);
    expect(await duplicateOf(faint, plain(230, 30, 30))).toBe(false);
  });

  it('finds two different specks on a plain ground (a hash nearly all one bit) not duplicates, but the same file is', async () => {
    const speck = (cx: number, cy: number) => picture(64, (x, y) => (Math.abs(x - cx) < 3 && Math.abs(y - cy) < 3 ? [0, 0, 0] : [250, 250, 250]));
    const [a, b] = [speck(10, 10), speck(50, 40)];
    expect(hammingDistance(pixelHash(a)!, pixelHash(b)!)).toBeLessThanOrEqual(NEAR_DISTANCE);
    expect(await duplicateOf(a, b)).toBe(false);
    expect(await duplicateOf(a, a)).toBe(true);
  });

  it('keeps the perceptual hash for a picture with structure: re-encoded with changed pixels, still a duplicate', async () => {
    const reencoded: Pixels = { ...GRADIENT, data: GRADIENT.data.map((v, i) => (i % 4 === 3 ? v : Math.max(0, Math.min(255, Math.round((v + noise(i, i >> 8, 3)) / 8) * 8)))) };
    expect(await keyOf(GRADIENT)).toBe(pixelHash(GRADIENT));
    expect(await duplicateOf(reencoded, GRADIENT, 60, 90)).toBe(true);
  });

  it('leaves a flat picture out of "Find similar" for a picture with structure, and a different flat one out for a flat one', async () => {
    const library = [asset('scene', { pixelHash: await keyOf(GRADIENT) }), asset('red', { pixelHash: await keyOf(RED) }), asset('red-copy', { pixelHash: await keyOf(plain(219, 31, 30), 50) }), asset('blue', { pixelHash: await keyOf(BLUE) })];
    expect(similarAssets(library[0]!, library)).toEqual([]);
    expect(similarAssets(library[1]!, library).map((s) => s.asset.localId)).toEqual(['red-copy']);
  });

  it('marks page media in the side panel by the same rule', async () => {
    const mark = libraryMarks([asset('red', { pixelHash: await keyOf(RED) })]);
    expect(mark('https://mirror.example.org/blue.png', await keyOf(BLUE))).toBeUndefined();
    expect(mark('https://mirror.example.org/red.png', await keyOf(RED))?.localId).toBe('red');
  });
});

describe('records stored before flat prints', () => {
  // What such a record holds for a plain picture: its bare perceptual hash (all zeros or all ones).
  const oldFlat = pixelHash(BLUE)!;

  it('compares an old record whose hash says as little as a flat picture’s by its address, not its hash', async () => {
    expect(isPixelKey(oldFlat)).toBe(false);
    const library = [asset('old', { url: 'https://cdn.example.com/blue.png', pixelHash: oldFlat })];
    expect(findNearDuplicate({ url: 'https://elsewhere.example.org/red.png', pixelHash: await keyOf(RED) }, library)).toBeNull();
    expect(findNearDuplicate({ url: 'https://cdn.example.com/blue.png', pixelHash: await keyOf(BLUE) }, library)).toMatchObject({ asset: { localId: 'old' }, by: 'address' });
    expect(libraryMarks(library)('https://elsewhere.example.org/red.png', await keyOf(RED))).toBeUndefined();
  });

  it('still compares an old record with a hash of a picture with structure by its hash', async () => {
    expect(isPixelKey(pixelHash(GRADIENT))).toBe(true);
    const library = [asset('old', { pixelHash: pixelHash(GRADIENT)! })];
    expect(findNearDuplicate({ url: 'https://elsewhere.example.org/copy.png', pixelHash: await keyOf(GRADIENT, 40) }, library)).toMatchObject({ asset: { localId: 'old' }, by: 'pixels' });
  });

  it('keys a flat picture by a print no hash check mistakes for a hash, bounded in length', async () => {
    const key = await keyOf(RED);
    expect(key).toMatch(/^flat:[0-9a-f]{64}:dc1e1e$/);
    expect(isFlatPrint(key)).toBe(true);
    expect(isFlatPrint(`${key}0`)).toBe(false);
    expect(isFlatPrint('flat:' + 'a'.repeat(100_000))).toBe(false);
  });
});
