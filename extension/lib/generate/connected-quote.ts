import type { QuoteFn } from '@/lib/generate/form-quote';
import { connectedClient, handleUnauthorized } from '@/lib/proxy/connected-client';
import { quoteVideo } from '@/lib/proxy/quote-client';

/** The connected proxy client for reference readiness checks (null when not connected). */
export const readinessClient = async () => (await connectedClient())?.client ?? null;

/**
 * The quote of a valid form, for the popup's Generate form and the studio alike: a refused token
 * recorded as everywhere; not connected: no quote shown.
 */
export const quoteWhenConnected: QuoteFn = async (body, signal) => {
  const connected = await connectedClient();
  if (!connected) throw new Error('not connected');
  try {
    return await quoteVideo(connected.client, body, signal);
  } catch (error) {
    await handleUnauthorized(error).catch(() => {});
    throw error;
  }
};
