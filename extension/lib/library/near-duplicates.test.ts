import { describe, expect, it } from 'vitest';
import { hammingDistance, isPixelHash, pixelHash, type Pixels } from '@/lib/library/image-hash';
import { findNearDuplicate, libraryMarks, NEAR_DISTANCE, normalizeAddress, similarAssets } from '@/lib/library/near-duplicates';
import type { AssetRecord } from '@/lib/storage/records/asset-record';

/** Test pictures made in code: RGBA of `width` × `height`, each pixel from `paint(x, y)` (0..1 of the image). */
function picture(width: number, height: number, paint: (x: number, y: number) => [number, number, number]): Pixels {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [r, g, b] = paint(x / width, y / height);
      data.set([r, g, b, 255], (y * width + x) * 4);
    }
  }
  return { width, height, data };
}

/** A scene: a diagonal gradient with a bright disc and a dark bar. */
const scene = (x: number, y: number): [number, number, number] => {
  const disc = (x - 0.3) ** 2 + (y - 0.35) ** 2 < 0.04 ? 120 : 0;
  const bar = x > 0.6 && x < 0.8 ? -90 : 0;
  const v = Math.max(0, Math.min(255, 200 * (x + y) / 2 + disc + bar));
  return [v, v * 0.8, 255 - v];
};
const checkerboard = (x: number, y: number): [number, number, number] => ((Math.floor(x * 8) + Math.floor(y * 8)) % 2 ? [240, 240, 240] : [20, 20, 20]);

/** The same scene re-quantized to 16 levels a channel with a little deterministic noise (as a lossy re-encode does). */
const requantized = (x: number, y: number): [number, number, number] => {
  const noise = ((Math.sin(x * 912.7 + y * 311.3) * 43758.5) % 1) * 6;
  return scene(x, y).map((c) => Math.max(0, Math.min(255, Math.round((c + noise) / 16) * 16))) as [number, number, number];
};

const original = pixelHash(picture(320, 240, scene))!;

function asset(localId: string, over: Partial<AssetRecord> = {}): AssetRecord {
  return { localId, groupId: 'g', name: localId, url: `https://cdn.example.com/${localId}.png`, type: 'Image', status: 'Active', idempotencyKey: '', notified: true, createdAt: 0, updatedAt: 0, ...over };
}

describe('pixelHash', () => {
  it('is 256 bits in hex', () => {
    expect(isPixelHash(original)).toBe(true);
  });

  it('finds the same picture resized near', () => {
    expect(hammingDistance(original, pixelHash(picture(160, 120, scene))!)).toBeLessThanOrEqual(NEAR_DISTANCE);
    expect(hammingDistance(original, pixelHash(picture(1000, 750, scene))!)).toBeLessThanOrEqual(NEAR_DISTANCE);
  });

  it('finds the same picture re-quantized (re-encoded) and resized near', () => {
    expect(hammingDistance(original, pixelHash(picture(200, 150, requantized))!)).toBeLessThanOrEqual(NEAR_DISTANCE);
  });

  it('finds a different picture far', () => {
    expect(hammingDistance(original, pixelHash(picture(320, 240, checkerboard))!)).toBeGreaterThan(NEAR_DISTANCE * 4);
  });

  it('does not hash a picture smaller than its grid, or data that does not match its size', () => {
    expect(pixelHash(picture(8, 8, scene))).toBeNull();
    expect(pixelHash({ width: 100, height: 100, data: new Uint8ClampedArray(10) })).toBeNull();
  });
});

describe('normalizeAddress', () => {
  it('lowercases scheme and host, drops the default port and the fragment, sorts the query', () => {
    expect(normalizeAddress('HTTPS://CDN.Example.com:443/A.png?b=2&a=1#top')).toBe('https://cdn.example.com/A.png?a=1&b=2');
    expect(normalizeAddress('http://example.com:80/x')).toBe('http://example.com/x');
  });

  it('answers what is not an http(s) address as it is', () => {
    expect(normalizeAddress('file:image/png;sha256,ab')).toBe('file:image/png;sha256,ab');
  });
});

describe('findNearDuplicate', () => {
  const library = [asset('cat', { pixelHash: original }), asset('dog', { pixelHash: pixelHash(picture(64, 64, checkerboard))! }), asset('link', { url: 'https://cdn.example.com/x.png?b=1&a=2' })];

  it('finds a re-encoded copy by its pixels', () => {
    expect(findNearDuplicate({ url: 'https://elsewhere.example/c.jpg', pixelHash: pixelHash(picture(200, 150, requantized))! }, library)).toMatchObject({ asset: { localId: 'cat' }, by: 'pixels' });
  });

  it('finds an unreadable link by its normalized address', () => {
    expect(findNearDuplicate({ url: 'https://CDN.example.com/x.png?a=2&b=1#frag' }, library)).toMatchObject({ asset: { localId: 'link' }, by: 'address' });
  });

  it('finds nothing for a different picture at another address', () => {
    const gradient = pixelHash(picture(100, 100, (x) => [x * 255, x * 255, x * 255]))!;
    expect(findNearDuplicate({ url: 'https://cdn.example.com/new.png', pixelHash: gradient }, library)).toBeNull();
  });
});

describe('similarAssets', () => {
  it('lists the other hashed assets closest first', () => {
    const library = [asset('a', { pixelHash: original }), asset('far', { pixelHash: pixelHash(picture(64, 64, checkerboard))! }), asset('near', { pixelHash: pixelHash(picture(100, 75, scene))! }), asset('none')];
    expect(similarAssets(library[0]!, library).map((s) => s.asset.localId)).toEqual(['near', 'far']);
  });
});

describe('libraryMarks (the side panel marks page media already in the library)', () => {
  const copy = pixelHash(picture(200, 150, requantized))!;
  const other = pixelHash(picture(320, 240, checkerboard))!;
  const library = [
    asset('linked', { url: 'https://cdn.example.com/clip.mp4', type: 'Video', groupId: 'g1' }),
    asset('hashed', { url: 'https://cdn.example.com/scene.png', pixelHash: original, groupId: 'g2' }),
    asset('failed', { url: 'https://cdn.example.com/broken.png', pixelHash: other, status: 'Failed' }),
  ];
  const mark = libraryMarks(library);

  it('marks by normalized address first', () => {
    expect(mark('https://CDN.example.com:443/clip.mp4#t=1')?.localId).toBe('linked');
    expect(mark('https://cdn.example.com/scene.png', other)?.localId).toBe('hashed');
  });

  it('marks an image at another address by its pixels, within the near distance', () => {
    expect(hammingDistance(copy, original)).toBeLessThanOrEqual(NEAR_DISTANCE);
    expect(mark('https://mirror.example.org/reposted.jpg', copy)?.localId).toBe('hashed');
    expect(mark('https://mirror.example.org/reposted.jpg')).toBeUndefined();
    expect(mark('https://mirror.example.org/reposted.jpg', 'not a hash')).toBeUndefined();
  });

  it('leaves different pictures and Failed records unmarked', () => {
    expect(mark('https://mirror.example.org/board.png', other)).toBeUndefined();
    expect(mark('https://cdn.example.com/broken.png')).toBeUndefined();
  });
});
