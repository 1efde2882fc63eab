import { captureEn } from '@/lib/i18n/capture.en';
import { filesEn } from '@/lib/i18n/files.en';
import { popupEn } from '@/lib/i18n/popup.en';
import { searchEn } from '@/lib/i18n/search.en';

/**
 * The English strings this context has. Up front, only the popup's part (with uploads', local
 * files' and the library search's): the popup's first paint carries it. The other parts (options, background, side panel,
 * screenshots) add themselves when imported: a module naming their keys imports them
 * (page-strings.test checks it), so a page or chunk carries only the parts its code uses.
 * Untyped here (no import of every key's type: the parts import this module).
 */
export const english: Record<string, string> = { ...popupEn, ...captureEn, ...filesEn, ...searchEn };

/** Adds a part's English strings (called by the part's own module). */
export function provideEnglish(part: Record<string, string>): void {
  Object.assign(english, part);
}
