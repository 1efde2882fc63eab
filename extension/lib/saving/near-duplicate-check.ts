import { type AssetType, bytesUpTo } from '@@/shared';
import { canDecodePixels, decodePixels } from '@/lib/library/decode-pixels';
import { pixelKey } from '@/lib/library/pixel-key';
import { addressOf, findNearDuplicate, type Match, normalizeAddress } from '@/lib/library/near-duplicates';
import { assetStore } from '@/lib/storage/asset-store';
import { groupStore } from '@/lib/storage/group-store';

/** A near duplicate found in the library, with what the warning names: its group and owner. */
export interface NearDuplicate {
  match: Match;
  groupName: string;
  /** The group's owner (a shared group's); null: the member's own. */
  owner: string | null;
}

/**
 * The pixel key of image bytes (lib/library/pixel-key: its perceptual hash, or a flat picture's
 * print), or undefined when they cannot be decoded (never throws).
 */
export async function hashOfBytes(bytes: Uint8Array<ArrayBuffer>, contentType: string): Promise<string | undefined> {
  if (!contentType.startsWith('image/')) return undefined;
  const pixels = await decodePixels(bytes, contentType);
  return (pixels && (await pixelKey(pixels, bytes).catch(() => null))) ?? undefined;
}

/**
 * The library's closest near duplicate of an item about to be added (lib/library/near-duplicates:
 * by pixels when its hash is known, else by normalized address), named for the warning; or null.
 */
export async function nearDuplicateOf(candidate: { url: string; pixelHash?: string }): Promise<NearDuplicate | null> {
  const match = findNearDuplicate(candidate, await assetStore.all());
  return match ? named(match) : null;
}

/**
 * Most bytes of a linked image read to hash it: more is compared by its address instead. The hash
 * needs 256 px a side at most (decode-pixels); a web image over 8 MB is rare and costly to decode.
 */
export const LINK_HASH_MAX_BYTES = 8 * 1024 * 1024;
/** How long a linked image's bytes are waited for; then it is compared by its address. */
export const LINK_HASH_TIMEOUT_MS = 5_000;

/**
 * The perceptual hash of a linked image whose pixels the extension may read, or undefined (never
 * throws): `data:` addresses, and `http(s)` ones the extension's page or background may fetch —
 * with host access to their origin, or CORS-clean. Fetched without cookies, from the HTTP cache when
 * the page or the panel's preview has it; at most LINK_HASH_MAX_BYTES within LINK_HASH_TIMEOUT_MS.
 */
export async function hashOfAddress(url: string, fetcher: typeof fetch = (...args) => fetch(...args)): Promise<string | undefined> {
  // Nothing is fetched where nothing could be decoded.
  if (!/^(https?:|data:image\/)/i.test(url) || !canDecodePixels()) return undefined;
  try {
    const response = await fetcher(url, { credentials: 'omit', cache: 'force-cache', signal: AbortSignal.timeout(LINK_HASH_TIMEOUT_MS) });
    const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (!response.ok || !type.startsWith('image/') || declared > LINK_HASH_MAX_BYTES || !response.body) {
      await response.body?.cancel().catch(() => {});
      return undefined;
    }
    const bytes = await bytesUpTo(response.body, LINK_HASH_MAX_BYTES);
    return bytes ? await hashOfBytes(bytes, type) : undefined;
  } catch {
    return undefined;
  }
}

/** Hashes kept for the page's life (an address's image rarely changes while it is open); at most this many. */
const CACHE_MAX = 500;
const cache = new Map<string, Promise<string | undefined>>();

/** hashOfAddress, asked once per address for the page's life (the panel's marks and its save share it). */
export function cachedHashOfAddress(url: string): Promise<string | undefined> {
  let hash = cache.get(url);
  if (!hash) {
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
    hash = hashOfAddress(url);
    cache.set(url, hash);
  }
  return hash;
}

/** Images hashed at once (a page's grid or a selection). */
export const HASH_CONCURRENCY = 3;
/** Longest wait for a selection's hashes before saving; what is not hashed by then is compared by address. */
export const HASH_BUDGET_MS = 15_000;

/**
 * The hashes of several addresses (undefined where unreadable), HASH_CONCURRENCY at a time, `onHash`
 * told each as it comes; after `budget` ms what is still unhashed stays undefined.
 */
export async function hashAddresses(urls: readonly string[], hash: (url: string) => Promise<string | undefined> = cachedHashOfAddress, budget = HASH_BUDGET_MS, onHash?: (url: string, hash: string | undefined) => void): Promise<(string | undefined)[]> {
  const hashes: (string | undefined)[] = urls.map(() => undefined);
  let next = 0;
  const worker = async () => {
    while (next < urls.length) {
      const index = next++;
      hashes[index] = await hash(urls[index]!);
      onHash?.(urls[index]!, hashes[index]);
    }
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<void>((done) => (timer = setTimeout(done, budget)));
  await Promise.race([Promise.all(Array.from({ length: Math.min(HASH_CONCURRENCY, urls.length) }, worker)), deadline]);
  clearTimeout(timer);
  // Answered as they were at the deadline: later hashes do not change what was answered.
  return hashes.slice();
}

/** A match named for the warning: its group's name and owner. */
async function named(match: Match): Promise<NearDuplicate> {
  const group = await groupStore.get(match.asset.groupId);
  return { match, groupName: group?.name ?? '', owner: group?.owner && group.role && group.role !== 'owner' ? group.owner.name : null };
}

/**
 * Before items of a page are saved to `groupId` (the side panel): each one's near duplicate in the
 * library (by pixels when its image can be read, else by normalized address), named for the warning;
 * null when none, or when the same address is already in that very group (the duplicate guard says
 * "Already in the group" then, and adds nothing). The library is read once.
 */
export async function pageItemsNearDuplicates(items: readonly { url: string; type: AssetType }[], groupId: string, hash: (url: string) => Promise<string | undefined> = cachedHashOfAddress): Promise<(NearDuplicate | null)[]> {
  const images = items.filter((item) => item.type === 'Image').map((item) => item.url);
  const hashes = new Map((await hashAddresses(images, hash)).map((h, i) => [images[i]!, h]));
  const library = await assetStore.all();
  // Addresses already in the target group: the duplicate guard answers those.
  const inGroup = new Set(library.filter((a) => a.groupId === groupId && a.status !== 'Failed').map((a) => normalizeAddress(addressOf(a))));
  const answers: (NearDuplicate | null)[] = [];
  for (const item of items) {
    const pixelHash = hashes.get(item.url);
    const match = inGroup.has(normalizeAddress(item.url)) ? null : findNearDuplicate({ url: item.url, ...(pixelHash ? { pixelHash } : {}) }, library);
    answers.push(match ? await named(match) : null);
  }
  return answers;
}
