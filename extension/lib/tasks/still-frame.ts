/**
 * Takes a video's stills in the page: the video loaded (not shown) with CORS, each frame drawn into a
 * canvas at most STILL_MAX_WIDTH wide and encoded as a small JPEG. Loaded only when a still is needed.
 * A video that does not load with CORS is tried once without, to tell a video that is gone from one
 * whose pixels the page may not read (the service's own link has no CORS).
 */

/** What taking stills came to: the stills, the video is gone (it does not load at all), or none can be read (no CORS). */
export type Taken = { kind: 'taken'; head: string; tail?: string; duration: number } | { kind: 'gone' } | { kind: 'unreadable' };

/** Widest still, in pixels: a tile is no wider. */
export const STILL_MAX_WIDTH = 320;
/** Longest still kept (its `data:` address, characters): a 320-pixel JPEG is a few KB, so this is generous. */
export const STILL_MAX_CHARS = 100_000;

/** Where the head still is taken: 10 % in, at least 0.1 s (a fade-in's first frames are black). */
export const headTime = (duration: number): number => (Number.isFinite(duration) && duration > 0 ? Math.min(duration, Math.max(0.1, duration / 10)) : 0.1);
/** Where the tail still is taken: 0.1 s before the end, as near the last frame as a seek gets. */
export const tailTime = (duration: number): number => (Number.isFinite(duration) && duration > 0.1 ? duration - 0.1 : 0);

/** The most a video may take to load or seek (a hung request must not hold the line of stills). */
const WAIT_MS = 20_000;

/**
 * A frame drawn right after `seeked` can still be the decoder's empty picture (all black, or
 * transparent) on a busy machine: drawn again this many times, this far apart, before it is taken as
 * it is (a video whose frame really is black then still gets its still).
 */
const BLANK_REDRAWS = 5;
const REDRAW_MS = 60;

/** Whether RGBA pixels are all transparent or all near black (no channel above 16). */
export function isBlankFrame(pixels: Uint8ClampedArray): boolean {
  for (let i = 0; i + 3 < pixels.length; i += 4) {
    if (pixels[i + 3]! > 0 && (pixels[i]! > 16 || pixels[i + 1]! > 16 || pixels[i + 2]! > 16)) return false;
  }
  return true;
}

type Loaded = HTMLVideoElement | 'error' | 'timeout';

function once(video: HTMLVideoElement, ok: string): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (value: boolean) => {
      clearTimeout(timer);
      video.removeEventListener(ok, yes);
      video.removeEventListener('error', no);
      resolve(value);
    };
    const yes = () => done(true);
    const no = () => done(false);
    const timer = setTimeout(no, WAIT_MS);
    video.addEventListener(ok, yes);
    video.addEventListener('error', no);
  });
}

async function load(url: string, cors: boolean): Promise<Loaded> {
  const video = document.createElement('video');
  video.muted = true;
  video.preload = 'auto';
  if (cors) video.crossOrigin = 'anonymous';
  const loaded = once(video, 'loadeddata');
  video.src = url;
  if (await loaded) return video;
  const failed = video.error !== null;
  release(video);
  return failed ? 'error' : 'timeout';
}

function release(video: HTMLVideoElement): void {
  video.removeAttribute('src');
  video.load();
}

async function frameAt(video: HTMLVideoElement, time: number): Promise<string | null> {
  if (Math.abs(video.currentTime - time) > 0.01) {
    const seeked = once(video, 'seeked');
    video.currentTime = time;
    if (!(await seeked)) return null;
  }
  const scale = Math.min(1, STILL_MAX_WIDTH / (video.videoWidth || STILL_MAX_WIDTH));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(video.videoWidth * scale));
  canvas.height = Math.max(1, Math.round(video.videoHeight * scale));
  const context = canvas.getContext('2d');
  if (!context) return null;
  for (let redraw = 0; ; redraw++) {
    context.drawImage(video, 0, 0, canvas.width, canvas.height);
    if (redraw >= BLANK_REDRAWS || !isBlankFrame(context.getImageData(0, 0, canvas.width, canvas.height).data)) break;
    await new Promise((resolve) => setTimeout(resolve, REDRAW_MS));
  }
  // Lower quality once if the first is too large; a still past the limit is not kept.
  for (const quality of [0.75, 0.5]) {
    const url = canvas.toDataURL('image/jpeg', quality);
    if (url.length <= STILL_MAX_CHARS) return url;
  }
  return null;
}

/** The head and tail stills of the video at `url`, and its length. */
export async function takeStills(url: string): Promise<Taken> {
  const video = await load(url, true);
  if (video === 'timeout') return { kind: 'unreadable' };
  if (video === 'error') {
    const plain = await load(url, false);
    if (plain === 'error') return { kind: 'gone' };
    if (plain !== 'timeout') release(plain);
    return { kind: 'unreadable' };
  }
  try {
    const duration = video.duration;
    const head = await frameAt(video, headTime(duration));
    if (!head) return { kind: 'unreadable' };
    const tail = (await frameAt(video, tailTime(duration))) ?? undefined;
    return { kind: 'taken', head, ...(tail ? { tail } : {}), duration };
  } catch {
    return { kind: 'unreadable' };
  } finally {
    release(video);
  }
}
