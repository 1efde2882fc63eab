import { ApiError } from '@/lib/proxy/api-failure';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends a create the proxy may still be working on: a 409 "in progress" answer (the first request
 * with this Idempotency-Key has not finished) is asked again with the same key, 1 s, 2 s, … later,
 * at most `attempts` times, never re-sent with a new key. (The asset queue and task submissions
 * store when to ask again instead: they outlive the page that sent them.)
 */
export async function retryWhileInProgress<T>(send: () => Promise<T>, wait: (ms: number) => Promise<unknown> = sleep, attempts = 5): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      if (!(error instanceof ApiError) || error.failure.kind !== 'in_progress' || attempt >= attempts) throw error;
      await wait(1000 * (attempt + 1));
    }
  }
}
