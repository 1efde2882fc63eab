import { tellBackground } from '@/lib/messaging/extension-messages';
import { settingsStore } from '@/lib/storage/settings-store';

/**
 * "Sync soon": one pass of the background's engine now, or right after the pass in progress.
 * Apart from the engine (lib/background/background-sync, which registers its pass here when it
 * loads), so that what adds an item (lib/saving) can start a pass without importing the background.
 * Where no engine is loaded (a page), the background is asked by message.
 */

/** The pace polling starts from, and returns to when something changed or was added. */
export const FIRST_SYNC_DELAY_MS = 2_000;

let pass: (() => Promise<void>) | null = null;
let running: Promise<void> | null = null;
let again = false;

/** Makes `run` the pass syncSoon runs (the background's engine, once, when it loads). */
export function setSyncPass(run: () => Promise<void>): void {
  pass = run;
}

/** Runs a pass now, or right after the one in progress (passes never overlap). */
export function syncSoon(): Promise<void> {
  const run = pass;
  if (!run) return tellBackground({ type: 'arkbridge:sync' });
  if (running) {
    again = true;
    return running;
  }
  running = (async () => {
    let failure: unknown = null;
    try {
      do {
        again = false;
        // A pass that fails does not swallow the one asked for meanwhile (an item added during it).
        // The first failure is told to the callers once the passes asked for have run.
        const outcome = await run().then(() => null, (error: unknown) => error ?? new Error('sync pass failed'));
        failure ??= outcome;
      } while (again);
    } finally {
      running = null;
    }
    if (failure) throw failure;
  })();
  return running;
}

/** Settles once the pass in progress (if any) is over; starts none. */
export const passInProgress = (): Promise<void> => running ?? Promise.resolve();

/** A new item was added: poll quickly again. */
export async function resetBackoff(): Promise<void> {
  await settingsStore.put('syncDelayMs', FIRST_SYNC_DELAY_MS);
}
