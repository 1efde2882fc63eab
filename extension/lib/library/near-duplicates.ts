import { hammingDistance, isPixelHash } from '@/lib/library/image-hash';
import type { AssetRecord } from '@/lib/storage/records/asset-record';

/**
 * Near duplicates in the library (docs/extension.md, "Duplicates"): an image whose perceptual hash
 * is within NEAR_DISTANCE bits of one already there, or, when its pixels could not be read, a link
 * to the same normalized address.
 *
 * NEAR_DISTANCE = 10 of 256 bits (about 4 %): a re-encoded, resized or re-compressed copy of a
 * picture moves only the blocks that sit right at their band's median, a handful of bits (the tests
 * measure it); two different pictures differ in about half the bits (~128), and even similar shots
 * (the same scene a moment later, a crop) differ in dozens. 10 leaves room for copies while staying
 * far below what two different images share by chance.
 */
export const NEAR_DISTANCE = 10;

/** Longest address compared (a longer one is compared as it is, unnormalized). */
const ADDRESS_MAX = 4096;

/**
 * An address as duplicates compare it: scheme and host lowercase, the default port and the fragment
 * dropped, the query parameters sorted by name (stable, so repeated names keep their order). Not a
 * URL: answered as it is.
 */
export function normalizeAddress(address: string): string {
  if (address.length > ADDRESS_MAX) return address;
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return address;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return address;
  url.hash = '';
  // URL lowercases the scheme and host and drops the default port already.
  url.searchParams.sort();
  return url.href;
}

/** The address a record's media came from (an upload's page address, else its URL). */
export const addressOf = (asset: AssetRecord): string => (asset.capture?.how === 'upload' ? asset.capture.source : asset.url);

export interface Candidate {
  url: string;
  /** Its perceptual hash, when its pixels could be read. */
  pixelHash?: string;
}

export interface Match {
  asset: AssetRecord;
  /** Bits that differ (0 for the same address). */
  distance: number;
  by: 'pixels' | 'address';
}

/**
 * The closest near duplicate of a candidate in the library (Failed records aside), or null: by
 * pixels when both hashes are known, else by normalized address.
 */
export function findNearDuplicate(candidate: Candidate, library: readonly AssetRecord[]): Match | null {
  let best: Match | null = null;
  const address = normalizeAddress(candidate.url);
  for (const asset of library) {
    if (asset.status === 'Failed') continue;
    if (candidate.pixelHash && isPixelHash(asset.pixelHash)) {
      const distance = hammingDistance(candidate.pixelHash, asset.pixelHash);
      if (distance <= NEAR_DISTANCE && (!best || distance < best.distance)) best = { asset, distance, by: 'pixels' };
    } else if (!best && normalizeAddress(addressOf(asset)) === address) {
      best = { asset, distance: 0, by: 'address' };
    }
  }
  return best;
}

/** The library's other hashed assets by distance from `asset`'s hash, closest first (at most `limit`). */
export function similarAssets(asset: AssetRecord, library: readonly AssetRecord[], limit = 20): { asset: AssetRecord; distance: number }[] {
  if (!isPixelHash(asset.pixelHash)) return [];
  const hash = asset.pixelHash;
  return library
    .filter((other) => other.localId !== asset.localId && isPixelHash(other.pixelHash))
    .map((other) => ({ asset: other, distance: hammingDistance(hash, other.pixelHash!) }))
    .sort((a, b) => a.distance - b.distance)
    .slice(0, limit);
}

/** Normalized address → record, for marking page media already in the library (the side panel). */
export function addressIndex(library: readonly AssetRecord[]): Map<string, AssetRecord> {
  const index = new Map<string, AssetRecord>();
  for (const asset of library) if (asset.status !== 'Failed') index.set(normalizeAddress(addressOf(asset)), asset);
  return index;
}

/**
 * Marks page media already in the library (the side panel): by normalized address, else, for an
 * image whose hash the panel could read, by pixels (the closest within NEAR_DISTANCE). Answers the
 * asset there, or undefined.
 */
export function libraryMarks(library: readonly AssetRecord[]): (url: string, pixelHash?: string) => AssetRecord | undefined {
  const index = addressIndex(library);
  const hashed = library.filter((asset) => asset.status !== 'Failed' && isPixelHash(asset.pixelHash));
  return (url, hash) => {
    const byAddress = index.get(normalizeAddress(url));
    if (byAddress || !hash || !isPixelHash(hash)) return byAddress;
    let best: { asset: AssetRecord; distance: number } | undefined;
    for (const asset of hashed) {
      const distance = hammingDistance(hash, asset.pixelHash!);
      if (distance <= NEAR_DISTANCE && (!best || distance < best.distance)) best = { asset, distance };
    }
    return best?.asset;
  };
}
