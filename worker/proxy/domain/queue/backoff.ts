/**
 * How long the whole team waits after the service answered 429 or 503 to a create (docs/queue.md):
 * its `Retry-After` when it sent one, else an exponential backoff with jitter, 1 s doubling up to
 * 60 s. Afterwards one create probes before the rest go (the launcher sends one at a time).
 */

export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_MAX_MS = 60_000;
/** A Retry-After longer than this is taken as this: the queue looks again within the hour. */
export const RETRY_AFTER_MAX_S = 3_600;

/** Seconds of a Retry-After header (delta-seconds only, as the service sends), or null. */
export function retryAfterSeconds(header: string | null): number | null {
  if (header === null || !/^\d{1,10}$/.test(header.trim())) return null;
  return Math.min(Number(header.trim()), RETRY_AFTER_MAX_S);
}

/** The wait after the `attempt`-th busy answer in a row (1-based), in ms; `random` in [0, 1). */
export function backoffMs(retryAfter: number | null, attempt: number, random = Math.random()): number {
  if (retryAfter !== null) return retryAfter * 1000;
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.min(Math.max(attempt - 1, 0), 16));
  // "Equal jitter": at least half the ceiling, so members never all come back at once nor at zero.
  return Math.round(ceiling / 2 + (ceiling / 2) * random);
}
