import type { PageMediaType } from '@/lib/page-media/collect-page-media';
import type { PageMediaItem } from '@/lib/page-media/page-media-items';

/** What "Media on this page" shows: some types, a minimum size, and words to match. */
export interface MediaFilter {
  types: readonly PageMediaType[];
  /** Minimum width and height in pixels; 0 for none. Items whose size is not known are kept. */
  minWidth: number;
  minHeight: number;
  /** Words, each matching the format exactly or a part of the address or name (case-insensitive). */
  text: string;
}

export const MEDIA_TYPES: readonly PageMediaType[] = ['image', 'video', 'audio'];
export const SIZE_PRESETS = [0, 100, 300, 600] as const;
/** The text filter reads at most this much (the input is the member's, still bounded). */
export const FILTER_TEXT_MAX = 200;
/** Characters of an address searched for a word: the start names the host and file; data: bytes say nothing. */
const SEARCHED_URL_MAX = 2048;

export const ALL_MEDIA: MediaFilter = { types: MEDIA_TYPES, minWidth: 0, minHeight: 0, text: '' };

/** Dimensions as the panel knows them: the page's, else those learnt when its thumbnail loaded. */
export type KnownSizes = ReadonlyMap<string, { width: number; height: number }>;

const wordsOf = (text: string) => text.slice(0, FILTER_TEXT_MAX).toLowerCase().split(/[\s,]+/).filter(Boolean);

/** The items the filter keeps, in their order. */
export function filterMedia(items: readonly PageMediaItem[], filter: MediaFilter, sizes: KnownSizes = new Map()): PageMediaItem[] {
  const words = wordsOf(filter.text);
  const types = new Set(filter.types);
  return items.filter((item) => {
    if (!types.has(item.type)) return false;
    const size = item.width && item.height ? { width: item.width, height: item.height } : sizes.get(item.url);
    if (size && (size.width < filter.minWidth || size.height < filter.minHeight)) return false;
    if (!words.length) return true;
    const haystack = `${item.url.slice(0, SEARCHED_URL_MAX)} ${item.alt ?? ''}`.toLowerCase();
    return words.every((word) => item.format === word || haystack.includes(word));
  });
}

/** The formats present, for the filter's suggestions (sorted). */
export const formatsIn = (items: readonly PageMediaItem[]): string[] => [...new Set(items.map((i) => i.format).filter(Boolean))].sort();
