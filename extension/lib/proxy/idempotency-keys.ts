import { settingsStore } from '@/lib/storage/settings-store';

/**
 * Idempotency-Keys: one rule for every create the proxy may receive more than once (CreateAsset,
 * CreateAssetGroup, POST /v1/video/generations).
 *
 * A key belongs to one create the member asked for. It is made before the first request and kept
 * in IndexedDB: on the record the create makes (an asset, a task), or, for a create that has no
 * record (a group), under the create's operation and body. Every repeat of that create (after a
 * lost answer, a closed popup, a reloaded page, a stopped service worker) sends the same key, and
 * the proxy answers with the first result instead of creating twice. Once the create is settled
 * (accepted, or refused) its key is never sent again: asking for the same thing again is a new
 * create with a new key. The proxy remembers a key for KEY_LIFETIME_MS; a repeat after that could
 * create twice, so pending keys are not kept longer.
 */

/** How long the proxy remembers an Idempotency-Key and its answer. */
export const KEY_LIFETIME_MS = 24 * 3600 * 1000;

/** A fresh key, for a create asked for now. */
export const newIdempotencyKey = (): string => crypto.randomUUID();

const identity = (operation: string, body: unknown): string => `${operation} ${JSON.stringify(body)}`;

/**
 * The key of a create that has no record: the stored one while that create is pending, else a new
 * one, stored before it is used.
 */
export async function keyForCreate(operation: string, body: unknown, now = Date.now()): Promise<string> {
  const id = identity(operation, body);
  const pending = await settingsStore.update('pendingCreateKeys', (stored = {}) => {
    const kept = Object.fromEntries(Object.entries(stored).filter(([, entry]) => now - entry.madeAt < KEY_LIFETIME_MS));
    return { ...kept, [id]: kept[id] ?? { key: newIdempotencyKey(), madeAt: now } };
  });
  return pending![id]!.key;
}

/** The create was accepted or refused: its key is not sent again. */
export async function settleCreate(operation: string, body: unknown): Promise<void> {
  const id = identity(operation, body);
  await settingsStore.update('pendingCreateKeys', (stored = {}) => Object.fromEntries(Object.entries(stored).filter(([key]) => key !== id)));
}
