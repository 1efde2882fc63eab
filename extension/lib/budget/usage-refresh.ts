import type { UsageView } from '@@/shared';
import { connectedClient, handleUnauthorized } from '@/lib/proxy/connected-client';
import { settingsStore } from '@/lib/storage/settings-store';
import { announceChange } from '@/lib/storage/store-changes';

/**
 * The member's budget for the popup's budget line: read from the proxy when the popup opens and
 * after each create, kept in IndexedDB so that the next opening shows it at once.
 */

// The budget as last read (no network): usage-read, part of the popup's first paint without the proxy client.
export { readUsage } from '@/lib/budget/usage-read';

let latest = 0;

/**
 * Asks the proxy for the member's budget, stores it and tells open views. A failure keeps the
 * last one (the line is information, never an error), a refused token is recorded as everywhere.
 * Of overlapping refreshes the last one started is kept.
 */
export async function refreshUsage(now: () => number = Date.now): Promise<void> {
  const mine = ++latest;
  const connected = await connectedClient();
  if (!connected) return;
  let usage: UsageView | null;
  try {
    usage = await connected.client.usage();
  } catch (error) {
    await handleUnauthorized(error).catch(() => {});
    return;
  }
  if (mine !== latest) return;
  const { proxyUrl, memberName } = connected.connection;
  await settingsStore.put('budget.usage', { usage, proxyUrl, ...(memberName === undefined ? {} : { memberName }), fetchedAt: now() });
  announceChange('settings');
}
