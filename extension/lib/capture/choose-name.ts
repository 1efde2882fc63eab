import { LIMITS } from '@@/shared';

/** The file name of a URL without extension noise, or '' (e.g. `sunset-beach` for `.../sunset-beach.jpg?w=2`). */
export function fileNameOf(url: string): string {
  try {
    const last = decodeURIComponent(new URL(url).pathname.split('/').filter(Boolean).pop() ?? '');
    return last.replace(/\.[a-z0-9]{2,5}$/i, '').replace(/[-_]+/g, ' ').trim();
  } catch {
    return '';
  }
}

/**
 * Most characters of the page's alt, title and page title read (the page sets them, unbounded):
 * the name keeps only `LIMITS.assetNameMax` of them anyway.
 */
export const NAME_TEXT_MAX = 4096;

const clean = (text: string | undefined) => (text ?? '').slice(0, NAME_TEXT_MAX).replace(/\s+/g, ' ').trim();

/** Name from the element's alt or title, else the file name, else the page title, else a fallback. */
export function chooseName(input: { alt?: string; title?: string; url: string; pageTitle?: string; kind: string }): string {
  const name = clean(input.alt) || clean(input.title) || fileNameOf(input.url) || clean(input.pageTitle) || `${input.kind} from the web`;
  return name.length > LIMITS.assetNameMax ? `${name.slice(0, LIMITS.assetNameMax - 1)}…` : name;
}
