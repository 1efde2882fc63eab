import { cleanLabel, cutLabel, LABEL_UNITS_PER_CHARACTER, SOURCE_TITLE_MAX, SOURCE_URL_MAX, stripSourceText } from '@@/shared';
import type { AssetSource, SourceHow } from '@/lib/storage/records/asset-source';
import type { CaptureState } from '@/lib/storage/records/capture-state';

/** The page a capture was made on, as the tab reports it. */
export interface CapturePage {
  url?: string;
  title?: string;
}

/** How a capture was made, from how its media reaches the library (the one owner of this rule). */
export function sourceHowOf(capture: CaptureState | undefined): SourceHow {
  if (!capture || capture.how === 'link') return 'link';
  if (capture.reason === 'file' || capture.reason === 'screenshot' || capture.reason === 'frame') return capture.reason;
  return 'upload';
}

/**
 * The provenance kept with a new record: how, when, and the page (an http(s) address of at most
 * SOURCE_URL_MAX characters, else none, without the characters shared/provenance strips; the title
 * cleaned by the label rule of shared/labels and cut to SOURCE_TITLE_MAX characters, as the proxy
 * counts them). A local file has no page.
 */
export function sourceOf(capture: CaptureState | undefined, page: CapturePage | undefined, now: number): AssetSource {
  const how = sourceHowOf(capture);
  const source: AssetSource = { how, capturedAt: now };
  if (how === 'file' || !page) return source;
  const url = page.url && page.url.length <= SOURCE_URL_MAX ? stripSourceText(page.url) : undefined;
  if (url && /^https?:\/\//i.test(url)) source.pageUrl = url;
  // Bounded before cleaning, as the proxy bounds it: a page title can be megabytes.
  const title = page.title ? cutLabel(cleanLabel(page.title.slice(0, SOURCE_TITLE_MAX * LABEL_UNITS_PER_CHARACTER)), SOURCE_TITLE_MAX).trim() : undefined;
  if (title) source.pageTitle = title;
  return source;
}
