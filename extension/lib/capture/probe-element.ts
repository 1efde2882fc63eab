import { browser } from 'wxt/browser';
import { NAME_TEXT_MAX } from '@/lib/capture/choose-name';
import { type ProbedElement, SRCSET_MAX } from '@/lib/capture/pick-source';

/**
 * Reads the right-clicked element's srcset, currentSrc, alt and title from the page. Runs only
 * on the tab the member clicked in (activeTab, granted by the menu click), so the extension needs
 * no access to all sites. Answers undefined when the page cannot be scripted.
 */
export async function probeElement(tabId: number | undefined, frameId: number | undefined, srcUrl: string): Promise<ProbedElement | undefined> {
  if (tabId === undefined || tabId < 0) return undefined;
  try {
    const [result] = await browser.scripting.executeScript({
      target: { tabId, frameIds: [frameId ?? 0] },
      func: findMediaElement,
      args: [srcUrl, SRCSET_MAX, NAME_TEXT_MAX],
    });
    return (result?.result as ProbedElement | null) ?? undefined;
  } catch {
    return undefined; // restricted pages (store, settings), or no user gesture
  }
}

/**
 * Runs in the page: the media element showing `srcUrl`. Self-contained (serialized by scripting),
 * so the limits come as arguments. The page sets srcset, alt and title at any length: an
 * over-long srcset is left out (a cut one would name a wrong URL), alt and title are cut.
 */
export function findMediaElement(srcUrl: string, srcsetMax: number, textMax: number): ProbedElement | null {
  const elements = Array.from(document.querySelectorAll<HTMLImageElement | HTMLMediaElement>('img, video, audio'));
  const element = elements.find((e) => e.currentSrc === srcUrl || (e as HTMLImageElement).src === srcUrl || e.querySelector(`source[src="${CSS.escape(srcUrl)}"]`));
  if (!element) return null;
  const tag = element.tagName.toLowerCase() as 'img' | 'video' | 'audio';
  const srcset = tag === 'img' ? (element as HTMLImageElement).srcset : '';
  const cut = (text: string | null | undefined) => (text ? text.slice(0, textMax) : undefined);
  return {
    tag,
    src: (element as HTMLImageElement).src || undefined,
    currentSrc: element.currentSrc || undefined,
    srcset: srcset && srcset.length <= srcsetMax ? srcset : undefined,
    alt: tag === 'img' ? cut((element as HTMLImageElement).alt) : undefined,
    title: cut(element.title || element.getAttribute('aria-label')),
  };
}
