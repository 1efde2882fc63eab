import { decodePixels } from '@/lib/library/decode-pixels';
import { pixelHash } from '@/lib/library/image-hash';
import { findNearDuplicate, type Match } from '@/lib/library/near-duplicates';
import { assetStore } from '@/lib/storage/asset-store';
import { groupStore } from '@/lib/storage/group-store';

/** A near duplicate found in the library, with what the warning names: its group and owner. */
export interface NearDuplicate {
  match: Match;
  groupName: string;
  /** The group's owner (a shared group's); null: the member's own. */
  owner: string | null;
}

/** The perceptual hash of image bytes, or undefined when they cannot be decoded (never throws). */
export async function hashOfBytes(bytes: Uint8Array<ArrayBuffer>, contentType: string): Promise<string | undefined> {
  if (!contentType.startsWith('image/')) return undefined;
  const pixels = await decodePixels(bytes, contentType);
  return (pixels && pixelHash(pixels)) ?? undefined;
}

/**
 * The library's closest near duplicate of an item about to be added (lib/library/near-duplicates:
 * by pixels when its hash is known, else by normalized address), named for the warning; or null.
 */
export async function nearDuplicateOf(candidate: { url: string; pixelHash?: string }): Promise<NearDuplicate | null> {
  const match = findNearDuplicate(candidate, await assetStore.all());
  if (!match) return null;
  const group = await groupStore.get(match.asset.groupId);
  return { match, groupName: group?.name ?? '', owner: group?.owner && group.role && group.role !== 'owner' ? group.owner.name : null };
}
