import { proxyError, toResponse } from '../../infra/http/responses';
import { checkAddress } from './media-address';
import type { MediaEnv } from './media-env';
import { mediaStoreOff } from './media-store-off';
import { objectKey, parseMediaId } from './media-ids';

/**
 * `GET`/`HEAD /media/<id>?expires=&sig=`: the only way into the media store. A signed address
 * serves one object, with its type, length, ETag and byte ranges (206), cacheable until it
 * expires; a `Range` it does not serve is ignored (200, the whole body); a bad signature is 403, an
 * expired one 410. There is no listing.
 */

/** A refusal of the media route: the proxy's error answer, never cached. */
const json = (status: number, code: string, message: string) => toResponse(proxyError(status, code, message, undefined, { 'Cache-Control': 'no-store' }));

/**
 * One satisfiable `bytes=` range, as R2 takes it, or null: no header, or one this route ignores.
 * A server may ignore `Range` (RFC 9110, section 14.2), and this one ignores what it does not serve
 * (several ranges, another unit, a malformed or unsatisfiable range): the whole body answers, 200.
 */
function parseRange(header: string | null, size: number): R2Range | null {
  if (!header) return null;
  const match = /^bytes=(\d{0,15})-(\d{0,15})$/.exec(header.trim());
  if (!match || (!match[1] && !match[2])) return null;
  if (!match[1]) {
    const suffix = Number(match[2]);
    return suffix === 0 || size === 0 ? null : { suffix: Math.min(suffix, size) };
  }
  const offset = Number(match[1]);
  if (offset >= size) return null;
  const end = match[2] ? Math.min(Number(match[2]), size - 1) : size - 1;
  return end < offset ? null : { offset, length: end - offset + 1 };
}

export async function serveMedia(env: MediaEnv, request: Request, id: string): Promise<Response> {
  const off = mediaStoreOff(env);
  if (off) return json(off.status, off.code, off.message);
  const secret = env.MEDIA_URL_SECRET!;
  const parsed = parseMediaId(id);
  if (!parsed) return json(404, 'not_found', 'No such media.');
  const url = new URL(request.url);
  const now = Math.floor(Date.now() / 1000);
  const check = checkAddress(secret, id, url.searchParams.get('expires') ?? undefined, url.searchParams.get('sig') ?? undefined, now);
  if (check === 'forged') return json(403, 'forbidden', 'This media address is not valid: its signature does not match.');
  if (check === 'expired') return json(410, 'expired', 'This media address has expired; ask for a fresh one.');
  const key = objectKey(parsed);
  const head = await env.MEDIA.head(key);
  if (!head) return json(404, 'not_found', 'No such media (it may have been deleted).');
  const expires = Number(url.searchParams.get('expires'));
  const headers = new Headers({
    'Accept-Ranges': 'bytes',
    ETag: head.httpEtag,
    'Cache-Control': `private, max-age=${Math.max(0, expires - now)}`,
    // Served bytes are media, checked at upload: never rendered as a page.
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "sandbox; default-src 'none'",
  });
  head.writeHttpMetadata(headers);
  if (request.headers.get('if-none-match') === head.httpEtag) return new Response(null, { status: 304, headers });
  const range = parseRange(request.headers.get('range'), head.size);
  const start = range === null ? 0 : 'suffix' in range ? head.size - range.suffix! : range.offset!;
  const length = range === null ? head.size : 'suffix' in range ? range.suffix! : range.length!;
  headers.set('Content-Length', String(length));
  const status = range === null ? 200 : 206;
  if (range !== null) headers.set('Content-Range', `bytes ${start}-${start + length - 1}/${head.size}`);
  if (request.method === 'HEAD') return new Response(null, { status, headers });
  const object = await env.MEDIA.get(key, range ? { range: { offset: start, length } } : {});
  if (!object || !('body' in object)) return json(404, 'not_found', 'No such media (it may have been deleted).');
  return new Response(object.body, { status, headers });
}
