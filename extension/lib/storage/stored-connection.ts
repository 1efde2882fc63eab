import type { Connection } from '@/lib/storage/records/setting-values';
import { settingsStore } from '@/lib/storage/settings-store';

export async function getConnection(): Promise<Connection | null> {
  return (await settingsStore.get('connection')) ?? null;
}

export async function setConnection(connection: Connection): Promise<void> {
  await settingsStore.put('connection', connection);
}

/** Forgets the connection (Disconnect). */
export async function clearConnection(): Promise<void> {
  await settingsStore.remove('connection');
}

/** Marks the stored token as refused (401), so every part of the extension asks to reconnect. */
export async function markNeedsReconnect(): Promise<void> {
  await settingsStore.update('connection', (current) => (current && !current.needsReconnect ? { ...current, needsReconnect: true } : current));
}
