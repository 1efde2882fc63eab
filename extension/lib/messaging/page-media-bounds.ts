/**
 * Bounds of "Media on this page" (the side panel), shared by the page's collector limits, the
 * panel and the background's check of `arkbridge:save-page-media`. Constants only: the popup's
 * message module imports them, and must stay small.
 */

/** At most this many items are listed for a page (all frames together). */
export const PAGE_MEDIA_MAX = 2000;

/**
 * A data: address is carried whole up to 2 MB of text (an embedded image of about 1.5 MB), a frame's
 * together up to 16 MB, so that answers stay far below a message's limit (Chromium: 64 MB); longer
 * ones are listed as too large (a right-click on them still saves them).
 */
export const DATA_URL_MAX = 2 * 1024 * 1024;
export const DATA_TOTAL_MAX = 8 * DATA_URL_MAX;

/** Items of one save message, and characters of their addresses together (the panel sends batches within both). */
export const SAVE_ITEMS_MAX = 50;
export const SAVE_CHARS_MAX = 4 * DATA_URL_MAX;
