import { PORTRAIT_PNG, RESULT_LAST_FRAME_PNG, RESULT_MP4 } from './embedded';

const decode = (base64: string): Uint8Array => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));

/** Decoded once per isolate. */
export const resultVideo = decode(RESULT_MP4);
export const lastFrameImage = decode(RESULT_LAST_FRAME_PNG);
export const portraitImage = decode(PORTRAIT_PNG);

/** Longest Range header read (`bytes=<start>-<end>` needs far less); a longer one is ignored. */
export const RANGE_MAX = 64;

/** Serves bytes with Range support, which video players rely on for seeking. */
export function serveBytes(request: Request, bytes: Uint8Array, type: string): Response {
  const headers = new Headers({ 'Content-Type': type, 'Accept-Ranges': 'bytes', 'Cache-Control': 'private, max-age=3600' });
  const header = request.headers.get('range') ?? '';
  const range = header.length <= RANGE_MAX ? /^bytes=(\d*)-(\d*)$/.exec(header) : null;
  if (!range) {
    headers.set('Content-Length', String(bytes.byteLength));
    return new Response(request.method === 'HEAD' ? null : bytes, { headers });
  }
  const size = bytes.byteLength;
  const start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
  const end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
  if (start >= size || start > end) {
    headers.set('Content-Range', `bytes */${size}`);
    return new Response(null, { status: 416, headers });
  }
  headers.set('Content-Range', `bytes ${start}-${end}/${size}`);
  headers.set('Content-Length', String(end - start + 1));
  return new Response(request.method === 'HEAD' ? null : bytes.slice(start, end + 1), { status: 206, headers });
}
