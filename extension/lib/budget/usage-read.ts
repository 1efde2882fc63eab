import type { UsageView } from '@@/shared';
import type { Connection, UsageRecord } from '@/lib/storage/records/setting-values';
import { settingsStore } from '@/lib/storage/settings-store';
import { getConnection } from '@/lib/storage/stored-connection';

/**
 * The member's budget as usage-refresh last stored it, read from IndexedDB only (no proxy client):
 * what the popup's budget line paints first.
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
