import { settingsStore } from '@/lib/storage/settings-store';

/** How the extension reaches the team's proxy. */
export interface Connection {
  /** Origin of the proxy, e.g. `https://arkbridge.example.workers.dev` (no trailing slash). */
  proxyUrl: string;
  /** The member token. Kept in the extension's IndexedDB: page and content-script contexts cannot read it. */
  token: string;
  /** The member's display name, from `/proxy/me` at connect time. */
  memberName?: string;
  /** The proxy accepts plain http:// media (its ALLOW_HTTP_MEDIA; local development). */
  allowHttpMedia?: boolean;
  /** Set when the proxy refused the token: the member must reconnect. */
  needsReconnect?: boolean;
}

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
