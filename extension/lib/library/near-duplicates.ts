import { isPixelKey, pixelDistance } from '@/lib/library/pixel-key';
import type { AssetRecord } from '@/lib/storage/records/asset-record';

/**
 * Near duplicates in the library (docs/extension.md, "Duplicates"): an image whose pixel key
 * (lib/library/pixel-key) is within NEAR_DISTANCE bits of one already there (a flat picture: the
 * same bytes or the same plain colour, never by its hash), or, when its pixels could not be read, a
 * link to the same normalized address.
 */
import { NEAR_DISTANCE } from '@/lib/library/image-hash';

// The distance is the hash's own (image-hash); named here too, where duplicates are found.
export { NEAR_DISTANCE };

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
  /** Its pixel key (lib/library/pixel-key), when its pixels could be read. */
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
 * pixels when both pixel keys are known (isPixelKey), else by normalized address.
 */
export function findNearDuplicate(candidate: Candidate, library: readonly AssetRecord[]): Match | null {
  let best: Match | null = null;
  const address = normalizeAddress(candidate.url);
  for (const asset of library) {
    if (asset.status === 'Failed') continue;
    if (isPixelKey(candidate.pixelHash) && isPixelKey(asset.pixelHash)) {
      const distance = pixelDistance(candidate.pixelHash, asset.pixelHash);
      if (distance <= NEAR_DISTANCE && (!best || distance < best.distance)) best = { asset, distance, by: 'pixels' };
    } else if (!best && normalizeAddress(addressOf(asset)) === address) {
      best = { asset, distance: 0, by: 'address' };
    }
  }
  return best;
}

/**
 * The library's other hashed assets by distance from `asset`'s pixel key, closest first (at most
 * `limit`); those never the same picture (a flat one beside one with structure, two different flat
 * ones) are left out.
 */
export function similarAssets(asset: AssetRecord, library: readonly AssetRecord[], limit = 20): { asset: AssetRecord; distance: number }[] {
  if (!isPixelKey(asset.pixelHash)) return [];
  const key = asset.pixelHash;
  return library
    .filter((other) => other.localId !== asset.localId && isPixelKey(other.pixelHash))
    .map((other) => ({ asset: other, distance: pixelDistance(key, other.pixelHash!) }))
    .filter((found) => Number.isFinite(found.distance))
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
 * image whose pixel key the panel could read, by pixels (the closest within NEAR_DISTANCE). Answers the
 * asset there, or undefined.
 */
export function libraryMarks(library: readonly AssetRecord[]): (url: string, pixelHash?: string) => AssetRecord | undefined {
  const index = addressIndex(library);
  const hashed = library.filter((asset) => asset.status !== 'Failed' && isPixelKey(asset.pixelHash));
  return (url, hash) => {
    const byAddress = index.get(normalizeAddress(url));
    if (byAddress || !isPixelKey(hash)) return byAddress;
    let best: { asset: AssetRecord; distance: number } | undefined;
    for (const asset of hashed) {
      const distance = pixelDistance(hash, asset.pixelHash!);
      if (distance <= NEAR_DISTANCE && (!best || distance < best.distance)) best = { asset, distance };
    }
    return best?.asset;
  };
}
