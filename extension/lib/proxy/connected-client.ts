import { ApiError } from '@/lib/proxy/api-failure';
import { ProxyClient } from '@/lib/proxy/proxy-client';
import type { Connection } from '@/lib/storage/records/setting-values';
import { announceChange } from '@/lib/storage/store-changes';
import { getConnection, markNeedsReconnect } from '@/lib/storage/stored-connection';

/**
 * The one way every part of the extension (popup, pages, background) gets a client for the stored
 * connection, and the one place that acts on the proxy refusing the member token (401).
 * (The options page alone builds a client for a connection not stored yet, to test it.)
 */

export interface Connected {
  client: ProxyClient;
  connection: Connection;
}

/** A client for the stored connection, with it; null when not connected or the token was refused. */
export async function connectedClient(): Promise<Connected | null> {
  const connection = await getConnection();
  return connection && !connection.needsReconnect ? { client: new ProxyClient(connection), connection } : null;
}

/**
 * The proxy refused the stored token: records it, so that every part of the extension asks the
 * member to reconnect (open views read the connection again when told `settings` changed).
 */
export async function recordRefusedToken(): Promise<void> {
  await markNeedsReconnect();
  announceChange('settings');
}

/** When `error` is the proxy refusing the token: records it (recordRefusedToken). Answers whether it was. */
export async function handleUnauthorized(error: unknown): Promise<boolean> {
  if (!(error instanceof ApiError) || error.failure.kind !== 'unauthorized') return false;
  await recordRefusedToken();
  return true;
}
