/** Polls `read` every `everyMs` until `done` holds, or fails after `timeoutMs` with the last value seen. */
export async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000, everyMs = 100): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`condition not reached in ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * Polls `read` every 150 ms until `done` holds or `timeoutMs` passes, noting every distinct value
 * it passed through (a test asserts on `last`, and on the path in `seen`, e.g. Processing before
 * Active). Never throws on time: the assertion after it says what was wrong.
 */
export async function watch<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<{ last: T; seen: T[] }> {
  const seen: T[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (JSON.stringify(seen.at(-1)) !== JSON.stringify(value)) seen.push(value);
    if (done(value) || Date.now() > deadline) return { last: value, seen };
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}
