/** Rules for the addresses of media the service must download (asset URLs and video references). */

/**
 * Longest media URL accepted. Real media addresses (signed CDN links included) stay far below it;
 * the cap keeps every later step (parsing, signing, logging) bounded.
 */
export const MEDIA_URL_MAX = 8 * 1024;
/** Longest `data:image/...` URI accepted (10 MiB of text); larger pictures go by URL. */
export const DATA_IMAGE_URI_MAX = 10 * 1024 * 1024;

export interface MediaUrlOptions {
  /** Plain `http://` allowed (local development only: `ALLOW_HTTP_MEDIA` / `SANDBOX_ALLOW_HTTP`). */
  allowHttp?: boolean;
}

/**
 * Why `value` is not a downloadable media address, or null when it is: an absolute `https://`
 * URL (or `http://` when allowed) with a host and no user info, one URL only.
 */
export function mediaUrlProblem(value: string, options: MediaUrlOptions = {}): string | null {
  if (value.length === 0) return 'must not be empty';
  if (value.length > MEDIA_URL_MAX) return `must be at most ${MEDIA_URL_MAX} characters (${value.length} given)`;
  if (/\s/.test(value)) return 'must be a single URL without spaces';
  if (schemeCount(value) > 1) return 'must hold exactly one URL';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  const schemes = options.allowHttp ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) {
    return options.allowHttp ? 'must be an http:// or https:// URL' : 'must be an https:// URL';
  }
  // The WHATWG parser repairs `https:host`, `https:///host` and `https:\\host`; the service gets the raw text.
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/\\?#]*)/i.exec(value);
  if (!authority || !authority[1]) return 'must be an absolute URL of the form https://host/path';
  if (url.username || url.password || authority[1].includes('@')) return 'must not contain user info (user:password@)';
  if (!url.hostname) return 'must name a host';
  return null;
}

const isSchemeChar = (c: number) =>
  (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2e || c === 0x2d;
const isLetter = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);

/**
 * How many `scheme://` occur in `value` (a scheme: a letter, then letters, digits, `+`, `.`, `-`).
 * A scan instead of a global regex: `/[a-z][a-z0-9+.-]*:\/\//g` restarts at every letter of a long
 * run and is quadratic. Each `://` looks back over its own run of scheme characters only, and
 * those runs do not overlap, so the whole count is linear.
 */
export function schemeCount(value: string): number {
  let count = 0;
  for (let at = value.indexOf('://'); at !== -1; at = value.indexOf('://', at + 3)) {
    let start = at;
    while (start > 0 && isSchemeChar(value.charCodeAt(start - 1))) start--;
    // The scheme starts at the first letter of the run (`1https://` still names `https`).
    while (start < at && !isLetter(value.charCodeAt(start))) start++;
    if (start < at) count++;
  }
  return count;
}

/** `data:image/<subtype>;base64,<data>`: the only data URI form the service accepts (images only). */
const DATA_IMAGE = /^data:image\/([a-z0-9.+-]+);base64,([a-z0-9+/]+={0,2})$/i;

/** Why `value` is not a well-formed image data URI, or null when it is. */
export function dataImageUriProblem(value: string): string | null {
  if (!value.startsWith('data:')) return 'must start with data:';
  if (!value.startsWith('data:image/')) return 'data URIs must be images (data:image/<subtype>;base64,...)';
  if (value.length > DATA_IMAGE_URI_MAX) {
    return `must be at most ${DATA_IMAGE_URI_MAX} characters (10 MB; ${value.length} given): send larger pictures as a URL`;
  }
  const match = DATA_IMAGE.exec(value);
  if (!match) return 'must have the form data:image/<subtype>;base64,<data>';
  if (match[1]!.toLowerCase().startsWith('svg')) return 'must be a bitmap image, not SVG';
  if (match[2]!.length % 4 !== 0) return 'has base64 data of an invalid length';
  return null;
}
