import { type AssetType, LIMITS, mediaType, UPLOAD_LIMITS, UPLOAD_TYPES } from '@@/shared';
import { formatSize } from '@/lib/format/format-size';
import { t } from '@/lib/i18n/translate';
import type { AddItemReply } from '@/lib/messaging/extension-messages';
import { tellBackground } from '@/lib/messaging/extension-messages';
import type { AddRequest } from '@/lib/saving/add-to-library';
import { addHeldBytes, recordRefused } from '@/lib/saving/held-bytes';
import type { NearDuplicate } from '@/lib/saving/near-duplicate-check';
import { recordItem } from '@/lib/saving/record-item';

/**
 * Files from the member's computer (dropped on the library or picked), added from a page (the
 * popup, the side panel): each checked for size before a byte is read, read (with progress), then
 * handed to the one bytes path (held-bytes' addHeldBytes: type by magic bytes, limits, the
 * upload store, the queue). One file at a time, so that at most one file's bytes are in memory.
 */

/**
 * What became of one file: its record (`localId`), or why not (`recorded`: a Failed item shows it;
 * `existing`: the member chose to open this near duplicate already in the library instead).
 */
export type FileResult = { name: string; ok: true; localId?: string } | { name: string; ok: false; message: string; recorded: boolean; existing?: string };

/** What a page follows of the files it gave (each by its index among them). */
export interface FilesProgress {
  /** Bytes read so far of one file. */
  onRead?: (index: number, read: number, total: number) => void;
  /** One file is done with: recorded (its item shows the rest), refused, or a duplicate. */
  onSettled?: (index: number, result: FileResult) => void;
  /**
   * An image that nearly repeats one already in the library (saving/near-duplicate-check): the
   * member chooses to add it anyway or to open the existing one. Absent: added without asking.
   */
  onNearDuplicate?: (name: string, near: NearDuplicate) => Promise<'add' | 'open'>;
}

/** The kind a file says it is (its `type`), when the proxy takes that type. */
const declaredKind = (file: Pick<File, 'type'>) => UPLOAD_TYPES[mediaType(file.type) ?? '']?.kind;

/** The most bytes a file may have: its declared kind's limit, else the largest (the bytes decide the kind). */
export const fileLimit = (file: Pick<File, 'type'>): number => {
  const kind = declaredKind(file);
  return kind ? UPLOAD_LIMITS[kind] : Math.max(...Object.values(UPLOAD_LIMITS));
};

/** Why a file is too large to read, from its size alone; null when it may be read. */
export function sizeRefusal(file: Pick<File, 'type' | 'size'>): string | null {
  const limit = fileLimit(file);
  if (file.size <= limit) return null;
  const kind = declaredKind(file);
  return kind
    ? t('capture.refuse.size', { kind: t(`capture.kind.${kind}`), size: formatSize(file.size), limit: formatSize(limit) })
    : t('files.refuse.tooLarge', { size: formatSize(file.size), limit: formatSize(limit) });
}

/** The asset type a file says it is (the bytes decide in the end). */
const assetTypeOf = (file: Pick<File, 'type'>): AssetType => ({ image: 'Image', video: 'Video', audio: 'Audio' } as const)[declaredKind(file) ?? 'image'];

/** The file's name as the asset's (the service's limit). */
export const fileAssetName = (file: Pick<File, 'name'>): string => {
  const name = file.name.replace(/\s+/g, ' ').trim() || t('files.unnamed');
  return name.length > LIMITS.assetNameMax ? `${name.slice(0, LIMITS.assetNameMax - 1)}…` : name;
};

/** Reads a file checked for size (so `file.size` bounds the buffer), reporting bytes read. */
export async function readFile(file: File, onProgress: (read: number) => void = () => {}): Promise<Uint8Array<ArrayBuffer>> {
  if (typeof file.stream !== 'function') return new Uint8Array(await file.arrayBuffer());
  const bytes = new Uint8Array(file.size);
  const reader = file.stream().getReader();
  let read = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    // A file that grew since it was picked: only what was checked is kept.
    if (read + value.byteLength > bytes.byteLength) {
      await reader.cancel();
      throw new Error(t('files.changed'));
    }
    bytes.set(value, read);
    read += value.byteLength;
    onProgress(read);
  }
  return read === bytes.byteLength ? bytes : bytes.slice(0, read);
}

/**
 * Records and queues an item from a page, as the background's queueAsset does for the menu
 * (record-item), then tells the background (its menus list recent groups; it syncs, which sends
 * the queue). A duplicate is answered, not told: the member sees the page.
 */
export async function addFromPage(request: AddRequest): Promise<AddItemReply> {
  const reply = await recordItem(request);
  if (reply.ok) await tellBackground({ type: 'arkbridge:groups-changed' });
  return reply;
}

/** Records a file refused before it was read: Failed with the reason (no notification: the member sees the item). */
const recordRefusedFile = (groupId: string, file: File, message: string) =>
  recordRefused(groupId, { name: fileAssetName(file), type: assetTypeOf(file), reason: 'file', source: `file:${mediaType(file.type) ?? 'unknown'}`, size: file.size }, message, false);

/** Adds files to a group, one after the other; answers what became of each, in order. */
export async function addLocalFiles(groupId: string, files: readonly File[], progress: FilesProgress = {}): Promise<FileResult[]> {
  const results: FileResult[] = [];
  for (const [index, file] of files.entries()) {
    results.push(await addLocalFile(groupId, file, (read) => progress.onRead?.(index, read, file.size), progress.onNearDuplicate));
    progress.onSettled?.(index, results[index]!);
  }
  return results;
}

/** One file: refused for its size unread, else read and handed to the bytes path. */
async function addLocalFile(groupId: string, file: File, onRead: (read: number) => void, ask?: FilesProgress['onNearDuplicate']): Promise<FileResult> {
  const name = fileAssetName(file);
  const tooLarge = sizeRefusal(file);
  if (tooLarge) {
    await recordRefusedFile(groupId, file, tooLarge);
    return { name, ok: false, message: tooLarge, recorded: true };
  }
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = await readFile(file, onRead);
  } catch (error) {
    const message = t('files.readFailed', { why: error instanceof Error ? error.message : String(error) });
    await recordRefusedFile(groupId, file, message);
    return { name, ok: false, message, recorded: true };
  }
  if (ask && file.type.startsWith('image/')) {
    // Loaded with the first image added: the hashing stays out of the popup's first paint.
    const { hashOfBytes, nearDuplicateOf } = await import('@/lib/saving/near-duplicate-check');
    const pixelHash = await hashOfBytes(bytes, file.type);
    const near = pixelHash ? await nearDuplicateOf({ url: '', pixelHash }).catch(() => null) : null;
    if (near && (await ask(name, near)) === 'open') return { name, ok: false, message: t('duplicate.title'), recorded: false, existing: near.match.asset.localId };
  }
  // A refused type is recorded Failed by addHeldBytes; a duplicate is not recorded again.
  const reply = await addHeldBytes(groupId, { bytes, declaredType: file.type, name, reason: 'file', type: assetTypeOf(file) }, addFromPage, false);
  return reply.ok ? { name, ok: true, ...(reply.localId ? { localId: reply.localId } : {}) } : { name, ok: false, message: reply.message, recorded: !reply.duplicateOf };
}
