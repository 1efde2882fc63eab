/** Downloads media the way the service does before accepting it, and says why it failed. */

export type MediaKind = 'Image' | 'Video' | 'Audio';

const MAX_BYTES = 50 * 1024 * 1024;
const TIMEOUT_MS = 30_000;
/** A connection that fails before any answer is tried again after these pauses, as a fetcher of the web does. */
const RECONNECT_PAUSES_MS = [250, 1_000];

/** Whether the bytes look like markup (an SVG or HTML page) rather than a bitmap. */
function looksLikeMarkup(bytes: Uint8Array): boolean {
  const head = new TextDecoder().decode(bytes.subarray(0, 256)).trimStart().toLowerCase();
  return head.startsWith('<');
}

/**
 * Fetches `url` and checks it is a `kind` file: HTTP 200, a Content-Type of that kind,
 * and for images a bitmap, not SVG. Answers null on success, else a readable reason.
 */
export async function downloadProblem(url: string, kind: MediaKind): Promise<string | null> {
  let response: Response;
  const deadline = AbortSignal.timeout(TIMEOUT_MS);
  for (let attempt = 0; ; attempt++) {
    try {
      response = await fetch(url, { redirect: 'follow', signal: deadline });
      break;
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      // Only a failed connection is tried again (within the same 30 s); an answer, even an error, is final.
      if (!timedOut && attempt < RECONNECT_PAUSES_MS.length) {
        await new Promise((resolve) => setTimeout(resolve, RECONNECT_PAUSES_MS[attempt]));
        continue;
      }
      return `Download of ${url} failed: ${timedOut ? `timed out after ${TIMEOUT_MS / 1000} s` : 'could not connect'}.`;
    }
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    return `Download of ${url} failed: the server answered HTTP ${response.status} instead of 200.`;
  }
  const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const expected = kind.toLowerCase();
  if (!type.startsWith(`${expected}/`)) {
    await response.body?.cancel();
    return `Download of ${url} failed: Content-Type "${type || 'none'}" is not an ${expected} type (AssetType ${kind}).`;
  }
  if (kind === 'Image' && type === 'image/svg+xml') {
    await response.body?.cancel();
    return `Download of ${url} failed: SVG is not accepted; images must be bitmaps (JPEG, PNG, WebP...).`;
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.byteLength === 0) return `Download of ${url} failed: the file is empty.`;
  if (bytes.byteLength > MAX_BYTES) return `Download of ${url} failed: the file is larger than 50 MB.`;
  if (kind === 'Image' && looksLikeMarkup(bytes)) {
    return `Download of ${url} failed: the file is markup (SVG or HTML), not a bitmap image.`;
  }
  return null;
}

/** Checks an inline `data:image/...;base64,` reference decodes to a non-empty bitmap. */
export function dataUriProblem(uri: string): string | null {
  const data = uri.slice(uri.indexOf(',') + 1);
  try {
    const binary = atob(data);
    if (!binary.length) return 'the data URI holds no data';
    // The first bytes decide (markup or not): no need to copy megabytes into an array.
    const head = Uint8Array.from(binary.slice(0, 256), (c) => c.charCodeAt(0));
    return looksLikeMarkup(head) ? 'the data URI holds markup, not a bitmap image' : null;
  } catch {
    return 'the data URI is not valid base64';
  }
}
