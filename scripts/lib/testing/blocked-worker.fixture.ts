import { test } from 'vitest';

/**
 * Blocks its worker's thread without using a core, so that vitest's own 1 s timeout cannot fire:
 * what a wedged runtime looks like from the outside (stall-watch.run.test.ts).
 */
test('blocks its worker', () => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(process.env.BLOCK_MS ?? 60_000));
});
