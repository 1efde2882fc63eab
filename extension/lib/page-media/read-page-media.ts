import { browser } from 'wxt/browser';
import { collectPageMedia, type PageMediaScan } from '@/lib/page-media/collect-page-media';
import { PAGE_MEDIA_LIMITS, type PageMediaItem, pageMediaItems } from '@/lib/page-media/page-media-items';

/**
 * What the side panel could read of a tab: its media, or why not. `no-access`: the extension has
 * neither activeTab for the tab nor host access to its origin (`origin`, when the browser tells the
 * tab's address: the member may grant it); `restricted`: a page no extension may script.
 */
export type PageMediaRead =
  | { ok: true; items: PageMediaItem[]; truncated: boolean; title: string; documentUrl: string }
  | { ok: false; reason: 'no-access' | 'restricted'; origin?: string };

type Target = { tabId: number; allFrames?: boolean };

/** Collects the media of every frame of `tabId` the extension may read (the top frame alone when the others refuse). */
export async function readPageMedia(tabId: number): Promise<PageMediaRead> {
  const run = (target: Target) => browser.scripting.executeScript({ target, func: collectPageMedia, args: [PAGE_MEDIA_LIMITS] });
  let results: Awaited<ReturnType<typeof run>> | null;
  try {
    results = await run({ tabId, allFrames: true });
  } catch {
    // A frame the grant does not reach (another site's) may fail the whole call: the top frame alone.
    results = await run({ tabId }).catch(() => null);
  }
  const frames = (results ?? []).flatMap((r) => (r.result ? [{ frameId: r.frameId ?? 0, scan: r.result as PageMediaScan }] : []));
  const top = frames.find((f) => f.frameId === 0)?.scan;
  if (!top) return refusal(tabId);
  return { ok: true, ...pageMediaItems(frames), title: top.title, documentUrl: top.documentUrl };
}

/** Why a tab could not be read: its address says, when the browser tells it (it does not without access). */
async function refusal(tabId: number): Promise<PageMediaRead> {
  const url = (await browser.tabs.get(tabId).catch(() => undefined))?.url;
  if (!url) return { ok: false, reason: 'no-access' };
  try {
    const { protocol, origin } = new URL(url);
    return protocol === 'http:' || protocol === 'https:' ? { ok: false, reason: 'no-access', origin } : { ok: false, reason: 'restricted' };
  } catch {
    return { ok: false, reason: 'restricted' };
  }
}
