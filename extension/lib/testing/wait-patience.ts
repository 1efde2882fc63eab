import { vi } from 'vitest';

/**
 * `vi.waitFor` gives up after one second unless told otherwise, and this project's tests wait with
 * it about three hundred times. One second is a deadline a loaded machine misses (the suite runs
 * its projects side by side, often beside other work): a test that waits for a state the code
 * reaches is then red for no fault of the code. The wait is a hang detector, so it gets the
 * patience of one: ten seconds, unless a test names its own. It changes nothing a test checks; a
 * state that never comes still fails the test, later.
 */
const PATIENCE_MS = 10_000;

const waitFor = vi.waitFor.bind(vi);
vi.waitFor = ((callback, options) =>
  waitFor(callback, typeof options === 'number' ? options : { timeout: PATIENCE_MS, ...options })) as typeof vi.waitFor;
