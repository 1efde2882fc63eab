import type { UsageView } from '@@/shared';
import type { Connection, UsageRecord } from '@/lib/storage/records/setting-values';
import { settingsStore } from '@/lib/storage/settings-store';
import { announceChange } from '@/lib/storage/store-changes';
import { getConnection } from '@/lib/storage/stored-connection';

/**
 * The member's budget for the popup's budget line: read from the proxy when the popup opens and
 * after each create, kept in IndexedDB so that the next opening shows it at once. The proxy client
 * is imported when the budget is refreshed, not with this module: the popup's first paint reads the
 * stored budget without it.
 */

const belongsTo = (record: UsageRecord, connection: Connection) => record.proxyUrl === connection.proxyUrl && record.memberName === connection.memberName;

/**
 * The budget as last read for the stored connection: undefined when none was read for it, null
 * when its proxy keeps no budgets.
 */
export async function readUsage(): Promise<UsageView | null | undefined> {
  const [connection, record] = await Promise.all([getConnection(), settingsStore.get('budget.usage')]);
  return connection && record && belongsTo(record, connection) ? record.usage : undefined;
}

let latest = 0;

/**
 * Asks the proxy for the member's budget, stores it and tells open views. A failure keeps the
 * last one (the line is information, never an error), a refused token is recorded as everywhere.
 * Of overlapping refreshes the last one started is kept.
 */
export async function refreshUsage(now: () => number = Date.now): Promise<void> {
  const mine = ++latest;
  const { connectedClient, handleUnauthorized } = await import('@/lib/proxy/connected-client');
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
