import { PORTRAIT_PNG, RESULT_LAST_FRAME_PNG, RESULT_MP4 } from './embedded';
import { SIZED_MEDIA } from './embedded-sizes';

const decode = (base64: string): Uint8Array => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));

/** Decoded once per isolate. */
export const resultVideo = decode(RESULT_MP4);
export const lastFrameImage = decode(RESULT_LAST_FRAME_PNG);
export const portraitImage = decode(PORTRAIT_PNG);

/** A video of one size (2 s, built like the fixture) and the PNG of its last frame. */
export interface SizedMedia {
  video: Uint8Array;
  lastFrame: Uint8Array;
}

const legacy: SizedMedia = { video: resultVideo, lastFrame: lastFrameImage };
const sized = new Map<string, SizedMedia>();

/**
 * The media of a size ('<width>x<height>', one of the catalog's output sizes), decoded once per
 * isolate when first asked; null (a task stored before sizes were kept) or a size without media:
 * the 320x180 fixture.
 */
export function mediaOfSize(size: string | null): SizedMedia {
  if (size === null || !Object.hasOwn(SIZED_MEDIA, size)) return legacy;
  let media = sized.get(size);
  if (!media) {
    const { mp4, png } = SIZED_MEDIA[size]!;
    media = { video: decode(mp4), lastFrame: decode(png) };
    sized.set(size, media);
  }
  return media;
}

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
