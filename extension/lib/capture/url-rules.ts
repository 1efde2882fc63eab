import { mediaUrlProblem } from '../../../shared';

export type UrlVerdict = { ok: true; url: string } | { ok: false; reason: string; advice: string };

const SCHEME_ADVICE: Record<string, { reason: string; advice: string }> = {
  'blob:': {
    reason: 'This media is streamed by the page (a blob: address) and has no public link.',
    advice: 'Find a direct link to the file (for example a download link) and add that instead.',
  },
  'data:': {
    reason: 'This media is embedded in the page (a data: address) and has no public link.',
    advice: 'Save the file, upload it somewhere public over https://, and add that address.',
  },
  'file:': {
    reason: 'This is a file on your computer; the service can only download public https:// links.',
    advice: 'Upload the file somewhere public over https://, then add that address.',
  },
  'http:': {
    reason: 'This media is served over plain http://; the service downloads only https:// links.',
    advice: 'Open the https:// version of the page or file and try again.',
  },
};

/**
 * Whether a right-clicked media address can be sent to the library, and if not, why and what to
 * do instead. `allowHttp` mirrors the proxy's ALLOW_HTTP_MEDIA (local development).
 */
export function checkMediaUrl(raw: string | undefined, allowHttp = false): UrlVerdict {
  if (!raw) return { ok: false, reason: 'This item has no address the extension can read.', advice: 'Right-click the image, video or audio itself.' };
  let scheme: string;
  try {
    scheme = new URL(raw).protocol;
  } catch {
    return { ok: false, reason: 'This item\'s address is not a valid URL.', advice: 'Open the media in its own tab and add it from there.' };
  }
  if (scheme === 'http:' && allowHttp) return verdictFor(raw, true);
  const known = SCHEME_ADVICE[scheme];
  if (known) return { ok: false, ...known };
  if (scheme !== 'https:') {
    return { ok: false, reason: `Addresses starting with ${scheme} cannot be downloaded by the service.`, advice: 'Use a public https:// link to the file.' };
  }
  return verdictFor(raw, allowHttp);
}

function verdictFor(url: string, allowHttp: boolean): UrlVerdict {
  const problem = mediaUrlProblem(url, { allowHttp });
  return problem
    ? { ok: false, reason: `This address ${problem}.`, advice: 'Use a plain public link to the file.' }
    : { ok: true, url };
}
