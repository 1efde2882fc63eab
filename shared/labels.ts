import * as v from 'valibot';

/**
 * The one rule for every label the proxy stores from people (docs/identity.md#labels-one-rule-for-names-people-give): member
 * names, token labels, source titles, upload names. A label shows in the console, the team list,
 * sharing views and the gallery, so it must read as what it is: a right-to-left override makes
 * `photo<U+202E>gpj.exe` show as `photoexe.jpg`, a NUL or a bell hides in a list and breaks copies.
 *
 * Cleaning, in this order:
 * 1. removed: control characters (Cc: U+0000..U+001F, U+007F..U+009F), the bidirectional
 *    embeddings, overrides and isolates (U+202A..U+202E, U+2066..U+2069), and unpaired surrogates
 *    (not characters at all). The direction marks U+200E, U+200F and U+061C stay: they cannot
 *    reverse a run, and right-to-left names need them to show digits and punctuation in place;
 * 2. NFC normalisation (`e` + U+0301 becomes `é`), after the removal so that the result is NFC
 *    (a removed character between two that compose no longer blocks them);
 * 3. trimmed of white space at both ends.
 *
 * Then its length is counted in characters as people see them (grapheme clusters, `Intl.Segmenter`,
 * which Node and workerd both have): a title of 300 emoji is 300 characters, not 600 UTF-16 units.
 * Before any of that, the raw text is bounded in UTF-16 units (LABEL_UNITS_PER_CHARACTER per
 * character allowed), so that no input costs more than a few times the longest label allowed, and a
 * single "character" of stacked combining marks cannot be unbounded. Every step is one linear pass.
 */

/** UTF-16 units the raw text may have per character allowed: room for the longest emoji sequences (a tag flag is 14). */
export const LABEL_UNITS_PER_CHARACTER = 16;

/** Removed from labels: control characters, bidirectional embeddings/overrides/isolates, unpaired surrogates. */
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Step 1 alone: what a label loses (also used for a source's page address, which is not normalised nor trimmed). */
export const dropHiddenCharacters = (text: string): string => text.replace(HIDDEN, '');

/** A label as stored: hidden characters removed, NFC, trimmed. */
export const cleanLabel = (text: string): string => dropHiddenCharacters(text).normalize('NFC').trim();

let segmenter: Intl.Segmenter | undefined;

/** The first `max` characters of a label (whole grapheme clusters, never half an emoji). */
export function cutLabel(text: string, max: number): string {
  if (text.length <= max) return text;
  segmenter ??= new Intl.Segmenter();
  let out = '';
  let count = 0;
  for (const { segment } of segmenter.segment(text)) {
    if (count++ === max) break;
    out += segment;
  }
  return out;
}

const tooLong = (max: number) => `must be at most ${max} characters`;

/** The raw bound, the cleaning, the count: a label that may come out empty. */
const cleaned = (max: number, typeMessage: string) =>
  v.pipe(
    v.string(typeMessage),
    v.maxLength(max * LABEL_UNITS_PER_CHARACTER, tooLong(max)),
    v.transform(cleanLabel),
    v.maxGraphemes(max, tooLong(max)),
  );

/** A required label of at most `max` characters: cleaned, and refused when nothing is left (400 naming the field). */
export const labelField = (max: number, typeMessage = 'must be a string') =>
  v.pipe(cleaned(max, typeMessage), v.nonEmpty('must not be empty (control and direction characters and surrounding spaces do not count)'));

/** An optional text label of at most `max` characters: cleaned; null when nothing is left. */
export const labelOrNullField = (max: number, typeMessage = 'must be a string') =>
  v.pipe(cleaned(max, typeMessage), v.transform((text: string): string | null => text || null));
