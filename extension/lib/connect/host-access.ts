import { browser } from 'wxt/browser';
import { originPattern } from '@/lib/connect/proxy-url-rules';

/**
 * Asks for host access to exactly the proxy origin. Must be called synchronously from the click
 * handler (browsers only show the prompt during a user gesture). Declined or unavailable: false.
 */
export function requestHostAccess(proxyUrl: string): Promise<boolean> {
  try {
    return Promise.resolve(browser.permissions.request({ origins: [originPattern(proxyUrl)] })).then(Boolean, () => false);
  } catch {
    return Promise.resolve(false);
  }
}

/** Gives back host access to the proxy origin (on disconnect); failures are ignored. */
export async function releaseHostAccess(proxyUrl: string): Promise<void> {
  try {
    await browser.permissions.remove({ origins: [originPattern(proxyUrl)] });
  } catch {
    // Not granted, or the API is unavailable: nothing to give back.
  }
}
