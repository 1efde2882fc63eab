import type { Pixels } from '@/lib/library/image-hash';

/** Longest side the pixels are hashed at: the hash reads 16 × 16 blocks, so more is only work. */
const HASH_SIDE = 256;

let decodes: boolean | undefined;
/**
 * Whether this context can decode images to pixels: a page or the service worker can; a DOM without
 * a 2D canvas (the tests') cannot. Asked once.
 */
export function canDecodePixels(): boolean {
  if (decodes === undefined) {
    try {
      decodes = typeof createImageBitmap === 'function' && typeof OffscreenCanvas !== 'undefined' && new OffscreenCanvas(1, 1).getContext('2d') !== null;
    } catch {
      decodes = false;
    }
  }
  return decodes;
}

/**
 * The pixels of image bytes the extension holds (an upload, a file, a screenshot, a frame), scaled
 * down to at most HASH_SIDE a side; null when the browser cannot decode them (or there is no
 * OffscreenCanvas, as in tests). Decoding is the browser's: bounded by the upload limits before it.
 */
export async function decodePixels(bytes: Uint8Array<ArrayBuffer>, contentType: string): Promise<Pixels | null> {
  if (!canDecodePixels()) return null;
  try {
    const bitmap = await createImageBitmap(new Blob([bytes], { type: contentType }));
    const scale = Math.min(1, HASH_SIDE / Math.max(bitmap.width, bitmap.height));
    const width = Math.max(1, Math.round(bitmap.width * scale));
    const height = Math.max(1, Math.round(bitmap.height * scale));
    const canvas = new OffscreenCanvas(width, height);
    const context = canvas.getContext('2d');
    if (!context) return null;
    context.drawImage(bitmap, 0, 0, width, height);
    bitmap.close();
    return context.getImageData(0, 0, width, height);
  } catch {
    return null;
  }
}
