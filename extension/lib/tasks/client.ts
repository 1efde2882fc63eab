import { ProxyClient } from '../api/client';
import { ApiError } from '../api/errors';
import { getConnection, markNeedsReconnect, type Connection } from '../connection';
import { announceChange } from '../db';

/** A client for the stored connection, with it; null when not connected or the token was refused. */
export async function connectedClient(): Promise<{ client: ProxyClient; connection: Connection } | null> {
  const connection = await getConnection();
  return connection && !connection.needsReconnect ? { client: new ProxyClient(connection), connection } : null;
}

/**
 * When the proxy refused the token: records it so the whole popup asks to reconnect (it reads the
 * connection from IndexedDB). Answers whether it was that.
 */
export async function handleUnauthorized(error: unknown): Promise<boolean> {
  if (!(error instanceof ApiError) || error.failure.kind !== 'unauthorized') return false;
  await markNeedsReconnect();
  announceChange('settings');
  return true;
}
