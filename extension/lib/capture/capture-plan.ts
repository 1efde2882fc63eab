import { checkMediaUrl } from '@/lib/capture/url-rules';
import { checkAccess, type PageTarget } from '@/lib/capture/page-reader';
import type { UploadReason } from '@/lib/storage/records/capture-state';

/**
 * Decides, per item, how it reaches the library:
 * - **link**: a public `https://` address (or `http://` when the proxy takes it) that answers
 *   without the page's cookies, or whose answer cannot be checked: the service downloads it, as
 *   before uploads existed;
 * - **upload**: what the service cannot download: `data:` (embedded), `blob:` (made by the page),
 *   `http://` when the proxy takes no plain http (its capabilities' `media.allowHttp`), and an
 *   address the site refuses without its cookies (a check from the page without them answered
 *   401/403 or a web page): the browser reads the bytes and uploads them through the proxy;
 * - **refuse**: what nobody can read (`file:`, other schemes, malformed addresses).
 */
export type CapturePlan =
  | { how: 'link'; url: string }
  | { how: 'upload'; url: string; reason: UploadReason }
  | { how: 'refuse'; reason: string; advice: string };

const parses = (url: string): boolean => {
  try {
    return Boolean(new URL(url).host);
  } catch {
    return false;
  }
};

/** The plan from the address alone; `link` still to be checked against the page (planCapture). */
export function planFromUrl(url: string | undefined, allowHttp: boolean): CapturePlan {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url ?? '')?.[1]?.toLowerCase();
  if (url && scheme === 'data') return { how: 'upload', url, reason: 'data' };
  if (url && scheme === 'blob') return { how: 'upload', url, reason: 'blob' };
  if (url && scheme === 'http' && !allowHttp && parses(url)) return { how: 'upload', url, reason: 'http' };
  const verdict = checkMediaUrl(url, allowHttp);
  return verdict.ok ? { how: 'link', url: verdict.url } : { how: 'refuse', reason: verdict.reason, advice: verdict.advice };
}

/**
 * The plan for a clicked item: by its address, then, for one to link, a check from the page
 * without cookies (page-reader's checkAccess); a site that gates it makes it an upload.
 */
export async function planCapture(url: string | undefined, allowHttp: boolean, target: PageTarget | undefined): Promise<CapturePlan> {
  const plan = planFromUrl(url, allowHttp);
  if (plan.how !== 'link') return plan;
  return (await checkAccess(target, plan.url)) === 'gated' ? { how: 'upload', url: plan.url, reason: 'signin' } : plan;
}

/** The address to take a name from (the file name of `…/red-fox.jpg`): none for `data:` and `blob:`. */
export const nameSourceOf = (plan: CapturePlan): string => (plan.how === 'refuse' || (plan.how === 'upload' && (plan.reason === 'data' || plan.reason === 'blob')) ? '' : plan.url);
