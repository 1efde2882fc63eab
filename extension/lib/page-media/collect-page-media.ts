/**
 * Runs in each frame of a page (`scripting.executeScript`, so self-contained: no imports, the limits
 * come as an argument): every image, video and audio the document shows or names, as raw facts. The
 * extension turns them into the panel's items (page-media-items.ts: the largest srcset candidate,
 * the format, deduplication), so that the rules stay in one place and out of the page.
 */

/** Where a raw item was found. */
export type RawMediaKind = 'img' | 'source' | 'video' | 'audio' | 'poster' | 'background' | 'meta';
export type PageMediaType = 'image' | 'video' | 'audio';

export interface RawMedia {
  kind: RawMediaKind;
  type: PageMediaType;
  /** The address as the document resolves it (absolute); cut to `urlMax + 1` characters, or a data: prefix when `cut`. */
  src?: string;
  /** The element's srcset as written (relative candidates resolve against the scan's documentUrl). */
  srcset?: string;
  /** A `<source type>`: names the format when the address does not. */
  mime?: string;
  /** Natural dimensions of what is shown, when the element knows them. */
  width?: number;
  height?: number;
  /** The element's alt or title, cut to `textMax`. */
  alt?: string;
  /** A data: address too long to carry: its length (src holds only its first characters). */
  cut?: number;
}

export interface PageMediaScan {
  documentUrl: string;
  title: string;
  items: RawMedia[];
  /** More was found than `itemsMax` (or the element budget ended the background scan). */
  truncated: boolean;
}

export interface PageMediaLimits {
  /** Raw items per frame. */
  itemsMax: number;
  /** Longest address carried (longer ones are cut one past it, so the extension can tell). */
  urlMax: number;
  /** Longest data: address carried whole, and all of a frame's data: addresses together. */
  dataUrlMax: number;
  dataTotalMax: number;
  /** Longest srcset read (a longer one is left out: a cut one would name a wrong URL). */
  srcsetMax: number;
  /** alt/title characters kept. */
  textMax: number;
  /** Elements whose computed background is read, and background addresses kept. */
  elementsMax: number;
  backgroundsMax: number;
}

export function collectPageMedia(limits: PageMediaLimits): PageMediaScan {
  // Characters of a data: address kept when it is too long to carry (its type shows; it cannot be saved from here).
  const DATA_PREFIX = 64;
  const items: RawMedia[] = [];
  let truncated = false;
  let dataTotal = 0;

  const address = (raw: string | null | undefined): Pick<RawMedia, 'src' | 'cut'> | null => {
    if (!raw) return null;
    if (raw.slice(0, 5).toLowerCase() === 'data:') {
      if (raw.length <= limits.dataUrlMax && dataTotal + raw.length <= limits.dataTotalMax) {
        dataTotal += raw.length;
        return { src: raw };
      }
      return { src: raw.slice(0, DATA_PREFIX), cut: raw.length };
    }
    return { src: raw.slice(0, limits.urlMax + 1) };
  };
  const resolve = (value: string): string | null => {
    try {
      return new URL(value.slice(0, limits.dataUrlMax + 1), document.baseURI).href;
    } catch {
      return null;
    }
  };
  const text = (value: string | null | undefined) => (value ? value.slice(0, limits.textMax) : undefined);
  const size = (width: number, height: number) => (width > 0 && height > 0 ? { width, height } : {});
  const push = (item: RawMedia): boolean => {
    if (items.length >= limits.itemsMax) {
      truncated = true;
      return false;
    }
    items.push(item);
    return true;
  };

  for (const img of Array.from(document.querySelectorAll('img'))) {
    const at = address(img.currentSrc || img.src);
    const srcset = img.srcset && img.srcset.length <= limits.srcsetMax ? img.srcset : undefined;
    if (!at && !srcset) continue;
    if (!push({ kind: 'img', type: 'image', ...at, srcset, ...size(img.naturalWidth, img.naturalHeight), alt: text(img.alt || img.title) })) break;
  }
  for (const source of Array.from(document.querySelectorAll<HTMLSourceElement>('picture > source'))) {
    const srcset = source.srcset && source.srcset.length <= limits.srcsetMax ? source.srcset : undefined;
    if (!srcset) continue;
    const img = source.parentElement?.querySelector('img');
    if (!push({ kind: 'source', type: 'image', srcset, mime: text(source.type), alt: text(img?.alt || img?.title) })) break;
  }
  for (const media of Array.from(document.querySelectorAll<HTMLMediaElement>('video, audio'))) {
    const type = media.tagName.toLowerCase() === 'video' ? 'video' : 'audio';
    const video = media as HTMLVideoElement;
    const label = text(media.title || media.getAttribute('aria-label'));
    const shown = address(media.currentSrc || media.src);
    if (shown) push({ kind: type, type, ...shown, ...(type === 'video' ? size(video.videoWidth, video.videoHeight) : {}), alt: label });
    for (const source of Array.from(media.querySelectorAll('source'))) {
      const at = address(source.src);
      if (at) push({ kind: 'source', type, ...at, mime: text(source.type), alt: label });
    }
    const poster = type === 'video' ? video.getAttribute('poster') : null;
    if (poster) {
      const at = address(resolve(poster));
      if (at) push({ kind: 'poster', type: 'image', ...at, alt: label });
    }
  }

  // Computed backgrounds: one element at a time (a tree walk, not a list of the whole page), bounded.
  const walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_ELEMENT);
  let seen = 0;
  let backgrounds = 0;
  for (let node = walker.nextNode(); node && backgrounds < limits.backgroundsMax; node = walker.nextNode()) {
    if (++seen > limits.elementsMax) {
      truncated = true;
      break;
    }
    const value = getComputedStyle(node as Element).backgroundImage;
    if (!value || value === 'none') continue;
    // `url("…")` / `url('…')` / `url(…)`, each found by indexOf and read to its end once: linear.
    let at = value.indexOf('url(');
    while (at >= 0 && backgrounds < limits.backgroundsMax) {
      let i = at + 4;
      while (value[i] === ' ') i++;
      const quote = value[i] === '"' || value[i] === "'" ? value[i] : '';
      let url = '';
      if (quote) {
        for (i++; i < value.length && value[i] !== quote; i++) {
          if (value[i] === '\\' && i + 1 < value.length) i++;
          url += value[i];
        }
      } else {
        const end = value.indexOf(')', i);
        url = value.slice(i, end < 0 ? value.length : end).trim();
        i = end < 0 ? value.length : end;
      }
      const found = address(url ? resolve(url) : null);
      if (found) {
        backgrounds++;
        if (!push({ kind: 'background', type: 'image', ...found, alt: text((node as HTMLElement).title || (node as Element).getAttribute('aria-label')) })) break;
      }
      at = value.indexOf('url(', i);
    }
    if (items.length >= limits.itemsMax) break;
  }

  const metas = document.querySelectorAll<HTMLMetaElement>(
    'meta[property="og:image"], meta[name="og:image"], meta[property="og:image:url"], meta[property="og:image:secure_url"], meta[name="twitter:image"], meta[property="twitter:image"], meta[name="twitter:image:src"]',
  );
  for (const meta of Array.from(metas)) {
    const content = meta.content.trim();
    if (!content) continue;
    const at = address(resolve(content.slice(0, limits.urlMax + 1)));
    if (at && !push({ kind: 'meta', type: 'image', ...at })) break;
  }

  return { documentUrl: document.baseURI, title: text(document.title) ?? '', items, truncated };
}
