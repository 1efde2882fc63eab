import { MEDIA_URL_MAX } from '@@/shared';
import { NAME_TEXT_MAX } from '@/lib/capture/choose-name';
import { pickSource, SRCSET_MAX } from '@/lib/capture/pick-source';
import { DATA_TOTAL_MAX, DATA_URL_MAX, PAGE_MEDIA_MAX } from '@/lib/messaging/page-media-bounds';
import type { PageMediaLimits, PageMediaScan, PageMediaType, RawMedia, RawMediaKind } from '@/lib/page-media/collect-page-media';

/** The limits the panel runs the collector with. */
export const PAGE_MEDIA_LIMITS: PageMediaLimits = {
  itemsMax: PAGE_MEDIA_MAX,
  urlMax: MEDIA_URL_MAX,
  dataUrlMax: DATA_URL_MAX,
  dataTotalMax: DATA_TOTAL_MAX,
  srcsetMax: SRCSET_MAX,
  textMax: NAME_TEXT_MAX,
  elementsMax: 20_000,
  backgroundsMax: 300,
};

/** One entry of "Media on this page". */
export interface PageMediaItem {
  /** The address to save (the largest srcset candidate where there is one); the item's identity. */
  url: string;
  type: PageMediaType;
  /** Lower-case format from the address or data: type (`jpg`, `png`, `mp4`…), '' when unknown. */
  format: string;
  width?: number;
  height?: number;
  alt?: string;
  /** Where it was found first. */
  kind: RawMediaKind;
  /** The frame holding it (the upload path reads it there) and that frame's address. */
  frameId: number;
  documentUrl: string;
  /** A data: address too long to carry: its length; such an item cannot be saved from the panel. */
  tooLarge?: number;
}

const FORMAT_ALIASES: Record<string, string> = { jpeg: 'jpg', 'svg+xml': 'svg', mpeg: 'mp3', quicktime: 'mov', 'x-m4a': 'm4a', 'x-wav': 'wav', tif: 'tiff' };
const alias = (format: string) => FORMAT_ALIASES[format] ?? format;

/** The format of an address: a data: address's declared type, else the file name's ending, else a `<source type>`. */
export function formatOf(url: string, mime?: string): string {
  if (url.slice(0, 5).toLowerCase() === 'data:') {
    // `data:image/png;base64,…`: the subtype, read from a bounded prefix.
    const subtype = /^data:[a-z]+\/([a-z0-9.+-]{1,32})/i.exec(url.slice(0, 64))?.[1];
    return subtype ? alias(subtype.toLowerCase()) : '';
  }
  let ending = '';
  try {
    const { pathname } = new URL(url);
    ending = /\.([a-z0-9]{2,5})$/i.exec(pathname.slice(-16))?.[1]?.toLowerCase() ?? '';
  } catch {
    ending = '';
  }
  if (ending) return alias(ending);
  const subtype = mime ? /^[a-z]+\/([a-z0-9.+-]{1,32})/i.exec(mime)?.[1] : undefined;
  return subtype ? alias(subtype.toLowerCase()) : '';
}

/** Schemes an item may have: what the background can link or upload (capture-plan decides which). */
const LISTED = /^(https?|data|blob):/i;

/** The item for one raw finding, or null when it names nothing that could be saved. */
function itemOf(raw: RawMedia, frameId: number, documentUrl: string): PageMediaItem | null {
  if (raw.cut !== undefined) {
    if (!raw.src) return null;
    return { url: `${raw.src}…#${raw.cut}`, type: raw.type, format: formatOf(raw.src), kind: raw.kind, frameId, documentUrl, alt: raw.alt, tooLarge: raw.cut };
  }
  // The context menu's rule: the largest srcset candidate, else what the element shows.
  const url = pickSource(raw.src, raw.srcset ? { tag: 'other', srcset: raw.srcset } : undefined, documentUrl);
  if (!url || !LISTED.test(url.slice(0, 6))) return null;
  if (!url.toLowerCase().startsWith('data:') && url.length > MEDIA_URL_MAX) return null;
  // Dimensions are those of what is shown: of another candidate, they would say nothing about this one.
  const sized = url === raw.src && raw.width && raw.height ? { width: raw.width, height: raw.height } : {};
  return { url, type: raw.type, format: formatOf(url, raw.mime), kind: raw.kind, frameId, documentUrl, alt: raw.alt || undefined, ...sized };
}

/**
 * The panel's list from every frame's scan (top frame first): one item per address (the first
 * finding wins; it gains dimensions or a name another finding knows), at most PAGE_MEDIA_MAX.
 */
export function pageMediaItems(frames: { frameId: number; scan: PageMediaScan }[]): { items: PageMediaItem[]; truncated: boolean } {
  const byUrl = new Map<string, PageMediaItem>();
  let truncated = false;
  const ordered = [...frames].sort((a, b) => Number(b.frameId === 0) - Number(a.frameId === 0));
  for (const { frameId, scan } of ordered) {
    truncated ||= scan.truncated;
    for (const raw of scan.items) {
      const item = itemOf(raw, frameId, scan.documentUrl);
      if (!item) continue;
      const known = byUrl.get(item.url);
      if (known) {
        if (!known.width && item.width) Object.assign(known, { width: item.width, height: item.height });
        known.alt ??= item.alt;
        continue;
      }
      if (byUrl.size >= PAGE_MEDIA_MAX) {
        truncated = true;
        break;
      }
      byUrl.set(item.url, item);
    }
  }
  return { items: [...byUrl.values()], truncated };
}
