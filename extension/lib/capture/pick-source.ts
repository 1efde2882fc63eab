/** What the content script recorded about the right-clicked element. */
export interface ProbedElement {
  tag: 'img' | 'video' | 'audio' | 'a' | 'other';
  src?: string;
  currentSrc?: string;
  srcset?: string;
  alt?: string;
  title?: string;
  /** Declared or natural width of the shown image, to compare with srcset candidates. */
  width?: number;
}

/**
 * Longest srcset read (page-provided, unbounded in HTML): 16 candidates at the 8 KB media URL cap.
 * A longer one is ignored and the shown source used instead.
 */
export const SRCSET_MAX = 128 * 1024;

/**
 * The candidates of a srcset as the HTML parser reads them: a URL runs to the next whitespace (so
 * CDN URLs may hold commas), its descriptors to the next comma; commas may follow without a space.
 */
function srcsetCandidates(srcset: string): { url: string; descriptor: string }[] {
  const candidates: { url: string; descriptor: string }[] = [];
  let i = 0;
  while (i < srcset.length) {
    while (i < srcset.length && /[\s,]/.test(srcset[i]!)) i++;
    if (i >= srcset.length) break;
    const start = i;
    while (i < srcset.length && !/\s/.test(srcset[i]!)) i++;
    let url = srcset.slice(start, i);
    let descriptor = '';
    if (url.endsWith(',')) {
      // A scan, not `/,+$/`: that regex restarts at every comma of a run and is quadratic.
      let end = url.length;
      while (end > 0 && url[end - 1] === ',') end--;
      url = url.slice(0, end);
    } else {
      const from = i;
      let depth = 0;
      while (i < srcset.length && (srcset[i] !== ',' || depth > 0)) {
        if (srcset[i] === '(') depth++;
        else if (srcset[i] === ')') depth = Math.max(0, depth - 1);
        i++;
      }
      descriptor = srcset.slice(from, i).trim();
    }
    if (url) candidates.push({ url, descriptor });
  }
  return candidates;
}

/** The largest candidate of a srcset (by `w`, else by `x` density), resolved against `base`. */
export function largestSrcsetCandidate(srcset: string, base: string): string | null {
  if (srcset.length > SRCSET_MAX) return null;
  let best: { url: string; size: number } | null = null;
  for (const { url, descriptor } of srcsetCandidates(srcset)) {
    const token = descriptor.split(/\s+/).find((d) => /[wx]$/i.test(d)) ?? (descriptor ? '' : '1x');
    const size = Number(token.slice(0, -1)) * (/w$/i.test(token) ? 1 : 1000);
    if (!token || !Number.isFinite(size) || size <= 0) continue;
    if (!best || size > best.size) best = { url, size };
  }
  if (!best) return null;
  try {
    return new URL(best.url, base).href;
  } catch {
    return null;
  }
}

/**
 * The address to add: the largest srcset candidate when the page offers one, else the element's
 * currentSrc (what the browser actually shows), else the menu's srcUrl.
 */
export function pickSource(srcUrl: string | undefined, probe: ProbedElement | undefined, pageUrl: string): string | undefined {
  if (probe?.srcset) {
    const largest = largestSrcsetCandidate(probe.srcset, pageUrl);
    if (largest) return largest;
  }
  return probe?.currentSrc || srcUrl || probe?.src;
}
