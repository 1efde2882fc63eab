/** Rules for the addresses of media the service must download (asset URLs and video references). */

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
  if (/\s/.test(value)) return 'must be a single URL without spaces';
  if ((value.match(/[a-z][a-z0-9+.-]*:\/\//gi) ?? []).length > 1) return 'must hold exactly one URL';
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

/** `data:image/<subtype>;base64,<data>`: the only data URI form the service accepts (images only). */
const DATA_IMAGE = /^data:image\/([a-z0-9.+-]+);base64,([a-z0-9+/]+={0,2})$/i;

/** Why `value` is not a well-formed image data URI, or null when it is. */
export function dataImageUriProblem(value: string): string | null {
  if (!value.startsWith('data:')) return 'must start with data:';
  if (!value.startsWith('data:image/')) return 'data URIs must be images (data:image/<subtype>;base64,...)';
  const match = DATA_IMAGE.exec(value);
  if (!match) return 'must have the form data:image/<subtype>;base64,<data>';
  if (match[1]!.toLowerCase().startsWith('svg')) return 'must be a bitmap image, not SVG';
  if (match[2]!.length % 4 !== 0) return 'has base64 data of an invalid length';
  return null;
}
