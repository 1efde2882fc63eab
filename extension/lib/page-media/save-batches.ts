import { SAVE_CHARS_MAX, SAVE_ITEMS_MAX } from '@/lib/messaging/page-media-bounds';

/**
 * Splits items to save into messages within the background's bounds (at most `size` items, never
 * more than SAVE_ITEMS_MAX, and SAVE_CHARS_MAX characters of addresses together). Small batches:
 * each answer shows its items' records at once, while the next batch is read and checked.
 */
export function saveBatches<T extends { url: string }>(items: readonly T[], size = 5): T[][] {
  const per = Math.min(Math.max(1, size), SAVE_ITEMS_MAX);
  const batches: T[][] = [];
  let current: T[] = [];
  let chars = 0;
  for (const item of items) {
    if (current.length && (current.length >= per || chars + item.url.length > SAVE_CHARS_MAX)) {
      batches.push(current);
      current = [];
      chars = 0;
    }
    current.push(item);
    chars += item.url.length;
  }
  if (current.length) batches.push(current);
  return batches;
}
