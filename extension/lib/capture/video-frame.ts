import { beginPageRead, inPage, type PageTarget } from '@/lib/capture/page-reader';
import { captureCropped, captureProblem, type Shot, type ViewportRect } from '@/lib/capture/tab-capture';
import { t } from '@/lib/i18n/translate';
import { readLimitFor, tooLargeMessage } from '@/lib/uploads/upload-rules';
import '@/lib/i18n/snapshot.en';

/**
 * "Capture this frame": the picture a `<video>` shows, at its own size (videoWidth × videoHeight),
 * drawn to a canvas in the frame holding it and read out as PNG through the page reader (the
 * canvas's blob under a `blob:` address, copied out in chunks). A video from another site without
 * CORS taints the canvas (reading it throws SecurityError): then the visible tab is cropped to the
 * video's box instead, at screen resolution.
 */

/** Where the video is, in CSS pixels of its frame's viewport (clipped to it), with what names it. */
interface FrameFacts {
  /** The element's title or aria-label ('' when none). */
  name: string;
  /** currentTime, in seconds. */
  time: number;
  rect: ViewportRect;
  dpr: number;
  /** The frame's innerWidth (tab-capture's screenScale, in the top frame). */
  viewportWidth: number;
}

/** What the frame's page answers. */
export type FrameAnswer =
  | { kind: 'none' }
  | ({ kind: 'not-ready' | 'tainted' } & FrameFacts)
  | ({ kind: 'failed'; detail: string } & FrameFacts)
  | ({ kind: 'bytes'; url: string; width: number; height: number } & FrameFacts);

/** Most characters of the element's title kept (the name keeps fewer). */
const NAME_MAX = 4096;

/**
 * In the frame: the clicked video (its address is `srcUrl`: currentSrc or src), else the largest
 * one in view, drawn at its own size; its PNG is left under a `blob:` address for the page reader.
 */
export async function grabVideoFrame(srcUrl: string | null, nameMax: number): Promise<FrameAnswer> {
  const videos = [...document.querySelectorAll('video')];
  const visibleArea = (v: HTMLVideoElement) => {
    const r = v.getBoundingClientRect();
    return Math.max(0, Math.min(r.right, innerWidth) - Math.max(r.left, 0)) * Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0));
  };
  let video = srcUrl ? videos.find((v) => v.currentSrc === srcUrl || v.src === srcUrl) : undefined;
  if (!video) {
    let best = 0;
    for (const v of videos) {
      const area = visibleArea(v);
      if (area > best) [video, best] = [v, area];
    }
  }
  if (!video) return { kind: 'none' };
  const box = video.getBoundingClientRect();
  const left = Math.max(0, box.left);
  const top = Math.max(0, box.top);
  const facts = {
    name: (video.getAttribute('title') || video.getAttribute('aria-label') || '').slice(0, nameMax),
    time: video.currentTime,
    rect: { x: left, y: top, width: Math.max(0, Math.min(box.right, innerWidth) - left), height: Math.max(0, Math.min(box.bottom, innerHeight) - top) },
    dpr: devicePixelRatio || 1,
    viewportWidth: innerWidth,
  };
  const width = video.videoWidth;
  const height = video.videoHeight;
  if (video.readyState < 2 || !width || !height) return { kind: 'not-ready', ...facts };
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) return { kind: 'failed', detail: 'no canvas', ...facts };
  context.drawImage(video, 0, 0, width, height);
  try {
    const blob = await new Promise<Blob>((resolve, reject) => {
      try {
        canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the canvas gave no image'))), 'image/png');
      } catch (error) {
        reject(error); // SecurityError: the canvas is tainted
      }
    });
    return { kind: 'bytes', url: URL.createObjectURL(blob), width, height, ...facts };
  } catch (error) {
    if (error instanceof DOMException && error.name === 'SecurityError') return { kind: 'tainted', ...facts };
    return { kind: 'failed', detail: error instanceof Error ? error.message : String(error), ...facts };
  }
}

/** In the frame: forgets the frame's `blob:` address once read. */
export function dropFrameUrl(url: string): boolean {
  URL.revokeObjectURL(url);
  return true;
}

/**
 * In the top frame: where the frame showing `frameUrl` starts in the viewport (its content box),
 * when exactly one `<iframe>`/`<frame>` there shows that address, with the viewport's width; else null.
 */
export function locateFrame(frameUrl: string): { x: number; y: number; viewportWidth: number } | null {
  const frames = [...document.querySelectorAll<HTMLIFrameElement>('iframe, frame')].filter((f) => f.src === frameUrl);
  if (frames.length !== 1) return null;
  const frame = frames[0]!;
  const box = frame.getBoundingClientRect();
  const style = getComputedStyle(frame);
  return {
    x: box.left + frame.clientLeft + (parseFloat(style.paddingLeft) || 0),
    y: box.top + frame.clientTop + (parseFloat(style.paddingTop) || 0),
    viewportWidth: innerWidth,
  };
}

/**
 * What to do with the frame's answer: read its bytes, crop the visible tab to the video (a tainted
 * canvas; in a subframe, once the frame is located in the top one), or tell the member why not.
 */
export function frameRoute(answer: FrameAnswer, inTopFrame: boolean): 'read' | 'crop' | 'locate-then-crop' | 'none' | 'not-ready' | 'failed' {
  switch (answer.kind) {
    case 'bytes':
      return 'read';
    case 'tainted':
      return inTopFrame ? 'crop' : 'locate-then-crop';
    default:
      return answer.kind;
  }
}

/** A frame's picture, with what names it (the element's title, the video's time). */
export type FrameShot = { ok: true; bytes: Uint8Array<ArrayBuffer>; name: string; time: number } | { ok: false; message: string };

/** Copies the frame's PNG out of the page (the page reader, as for a `blob:` image) and forgets it there. */
async function readFrameBytes(target: PageTarget, url: string): Promise<Shot> {
  const limit = readLimitFor('Image');
  try {
    const handle = await beginPageRead(target, url, limit);
    if (!handle) return { ok: false, message: t('snapshot.failed.page') };
    const read = await handle.finish();
    if (read.ok) return { ok: true, bytes: read.bytes };
    return { ok: false, message: read.reason === 'too-large' ? tooLargeMessage('Image', limit) : t('snapshot.failed.read', { why: read.detail ?? read.reason }) };
  } finally {
    await inPage(target, dropFrameUrl, [url]).catch(() => undefined);
  }
}

/** The clicked video's frame in tab `tab` (frame `frameId`), as PNG bytes with its name and time. */
export async function captureVideoFrame(tab: { id: number; windowId?: number }, frameId: number, srcUrl: string | undefined, frameUrl: string | undefined): Promise<FrameShot> {
  const target = { tabId: tab.id, frameId };
  let answer: FrameAnswer | undefined;
  try {
    answer = await inPage(target, grabVideoFrame, [srcUrl ?? null, NAME_MAX]);
  } catch (error) {
    // activeTab reaches the tab's own site: a player embedded from another one cannot be scripted.
    return { ok: false, message: frameId !== 0 ? t('snapshot.failed.embedded') : captureProblem(error) };
  }
  if (!answer) return { ok: false, message: t('snapshot.failed.noVideo') };
  const route = frameRoute(answer, frameId === 0);
  if (answer.kind === 'none' || route === 'none') return { ok: false, message: t('snapshot.failed.noVideo') };
  const named = { name: answer.name, time: answer.time };
  if (answer.kind === 'not-ready') return { ok: false, message: t('snapshot.failed.notReady') };
  if (answer.kind === 'failed') return { ok: false, message: t('snapshot.failed.read', { why: answer.detail }) };
  if (answer.kind === 'bytes') {
    const read = await readFrameBytes(target, answer.url);
    return read.ok ? { ...read, ...named } : read;
  }

  // Tainted: the screen's pixels of the video's box, offset by its frame's place in the top one.
  let place = { x: 0, y: 0, viewportWidth: answer.viewportWidth };
  if (route === 'locate-then-crop') {
    const located = frameUrl ? await inPage({ tabId: tab.id, frameId: 0 }, locateFrame, [frameUrl]).catch(() => null) : null;
    if (!located) return { ok: false, message: t('snapshot.failed.crossFrame') };
    place = located;
  }
  const rect = { ...answer.rect, x: answer.rect.x + place.x, y: answer.rect.y + place.y };
  const cropped = await captureCropped(tab.windowId, rect, { dpr: answer.dpr, viewportWidth: place.viewportWidth });
  return cropped.ok ? { ...cropped, ...named } : cropped;
}
