import type { StoreName } from '@/lib/storage/database';

/**
 * Every context (popup, pages, background) announces its writes on one channel, so that open views
 * read IndexedDB again. Writers announce once a change is complete, not per record.
 */

/** Name of the channel on which every context announces its writes. */
const CHANNEL = 'arkbridge-db';

/** Tells open pages (the popup) that these stores changed. */
export function announceChange(...stores: StoreName[]): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage(stores);
  channel.close();
}

/** Calls `listener` with the changed stores whenever another context announces a write. */
export function onChange(listener: (stores: StoreName[]) => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => {};
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (event: MessageEvent<StoreName[]>) => listener(event.data);
  return () => channel.close();
}
