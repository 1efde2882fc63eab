import { browser } from 'wxt/browser';
import { type AssetType, MEDIA_URL_MAX } from '@@/shared';
import { kindOf } from '@/lib/background/menu-click';

/** What a frame shows, read when the keyboard save fires (surveyPage). */
export interface PageSurvey {
  /** The media element under the pointer, and its address as the browser shows it. */
  pointed: { tag: 'img' | 'video' | 'audio'; src: string } | null;
  /** The largest image in view, and how much of it is in view (CSS pixels²). */
  largest: { src: string; area: number } | null;
  /** The page's `og:image`, resolved against the document. */
  ogImage: string | null;
  /** The document's address (a relative srcset is relative to it). */
  documentUrl: string;
}

/** What the keyboard save adds: a media element of some frame, or the page's og:image. */
export interface SaveTarget {
  type: AssetType;
  srcUrl: string;
  frameId: number;
  documentUrl: string;
  /** Why this one, for tests and debugging: under the pointer, the main image in view, or og:image. */
  reason: 'pointer' | 'largest' | 'og:image';
}

/**
 * An image must show at least this much (CSS pixels², about 100 × 100) to be the page's main
 * image: smaller ones are icons, avatars and buttons. Below it, the page's og:image is taken.
 */
export const MAIN_IMAGE_MIN_AREA = 10_000;

/**
 * Runs in each frame of the page (serialized by scripting, so self-contained, the limit comes as an
 * argument): the media element under the pointer, the largest image in view and the og:image.
 *
 * The pointer is read from `:hover` at that moment, which the browser keeps for the last pointer
 * position (no listener has to run beforehand): the hovered media element itself, or the media
 * element under an element drawn over it (a transparent overlay, a play button), found among the
 * elements stacked under the middle of the hovered element and covering it. Open shadow roots
 * are entered. The page sets addresses at any length (a data: image can be megabytes): one longer
 * than `urlMax` is cut one character past it, so that it is still refused, with the reason.
 */
export function surveyPage(urlMax: number): PageSurvey {
  const MEDIA = 'img, video, audio';
  const addressOf = (element: Element): string => {
    const media = element as HTMLImageElement & HTMLMediaElement;
    return (media.currentSrc || media.src || element.querySelector<HTMLSourceElement>('source[src]')?.src || '').slice(0, urlMax + 1);
  };
  const describe = (element: Element | null | undefined): PageSurvey['pointed'] => {
    const src = element ? addressOf(element) : '';
    return element && src ? { tag: element.tagName.toLowerCase() as 'img' | 'video' | 'audio', src } : null;
  };

  // `:hover` lists the hovered element and its ancestors in document order: the deepest comes last.
  let root: Document | ShadowRoot = document;
  let deepest = Array.from(root.querySelectorAll(':hover')).pop();
  while (deepest?.shadowRoot) {
    const inner = Array.from(deepest.shadowRoot.querySelectorAll(':hover')).pop();
    if (!inner) break;
    root = deepest.shadowRoot;
    deepest = inner;
  }
  let pointed: PageSurvey['pointed'] = null;
  if (deepest && deepest !== document.documentElement && deepest !== document.body) {
    pointed = describe(deepest.closest(MEDIA));
    if (!pointed && typeof root.elementsFromPoint === 'function') {
      const box = deepest.getBoundingClientRect();
      const x = Math.min(Math.max(box.left + box.width / 2, 0), innerWidth - 1);
      const y = Math.min(Math.max(box.top + box.height / 2, 0), innerHeight - 1);
      const covers = (element: Element) => {
        const r = element.getBoundingClientRect();
        return r.left <= box.left + 2 && r.top <= box.top + 2 && r.right >= box.right - 2 && r.bottom >= box.bottom - 2;
      };
      pointed = describe(root.elementsFromPoint(x, y).find((e) => e.matches(MEDIA) && covers(e)));
    }
  }

  let largest: PageSurvey['largest'] = null;
  for (const image of Array.from(document.querySelectorAll('img'))) {
    const src = addressOf(image);
    if (!src) continue;
    const r = image.getBoundingClientRect();
    const area = Math.max(0, Math.min(r.right, innerWidth) - Math.max(r.left, 0)) * Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0));
    if (area <= 0) continue;
    const visible = (image as Element & { checkVisibility?: (o: object) => boolean }).checkVisibility?.({ opacityProperty: true, visibilityProperty: true, checkOpacity: true, checkVisibilityCSS: true }) ?? true;
    if (visible && (!largest || area > largest.area)) largest = { src, area: Math.round(area) };
  }

  let ogImage: string | null = null;
  const og = document.querySelector<HTMLMetaElement>('meta[property="og:image"], meta[name="og:image"]')?.content.trim();
  if (og) {
    try {
      ogImage = new URL(og, document.baseURI).href.slice(0, urlMax + 1);
    } catch {
      ogImage = null;
    }
  }
  return { pointed, largest, ogImage, documentUrl: document.baseURI };
}

/**
 * What to save from the frames' surveys (top frame first or not): the media under the pointer (in
 * whichever frame has it; a frame inside another wins, the pointer being over it), else the page's
 * main image: the largest image in view of the top frame when it shows at least
 * MAIN_IMAGE_MIN_AREA, else its og:image. Null: nothing to save.
 */
export function chooseTarget(frames: { frameId: number; survey: PageSurvey }[]): SaveTarget | null {
  const byDepth = [...frames].sort((a, b) => Number(a.frameId === 0) - Number(b.frameId === 0));
  for (const { frameId, survey } of byDepth) {
    const type = survey.pointed && kindOf({ mediaType: survey.pointed.tag === 'img' ? 'image' : survey.pointed.tag });
    if (survey.pointed && type) return { type, srcUrl: survey.pointed.src, frameId, documentUrl: survey.documentUrl, reason: 'pointer' };
  }
  const top = frames.find((f) => f.frameId === 0)?.survey;
  if (!top) return null;
  if (top.largest && top.largest.area >= MAIN_IMAGE_MIN_AREA) return { type: 'Image', srcUrl: top.largest.src, frameId: 0, documentUrl: top.documentUrl, reason: 'largest' };
  if (top.ogImage) return { type: 'Image', srcUrl: top.ogImage, frameId: 0, documentUrl: top.documentUrl, reason: 'og:image' };
  return null;
}

/**
 * Surveys every frame of the tab the command fired in (activeTab, granted by the command, so the
 * extension needs no access to all sites) and answers what to save. Undefined: the page cannot be
 * scripted (the browser's own pages, the web store); null: nothing found.
 */
export async function findPageMedia(tabId: number | undefined): Promise<SaveTarget | null | undefined> {
  if (tabId === undefined || tabId < 0) return undefined;
  const survey = (target: { tabId: number; allFrames?: boolean }) => browser.scripting.executeScript({ target, func: surveyPage, args: [MEDIA_URL_MAX] });
  let results: Awaited<ReturnType<typeof survey>>;
  try {
    results = await survey({ tabId, allFrames: true });
  } catch {
    // Frames the grant does not reach (another site's) may fail the whole call: the top frame alone.
    results = await survey({ tabId }).catch(() => []);
  }
  const frames = results.flatMap((r) => (r.result ? [{ frameId: r.frameId ?? 0, survey: r.result as PageSurvey }] : []));
  return frames.length ? chooseTarget(frames) : undefined;
}
