import { defineConfig } from 'vitest/config';

/** A run of the one file that blocks its worker (stall-watch.run.test.ts): only the timing reporter, no project of the suite. */
export default defineConfig({
  test: {
    include: ['scripts/lib/testing/blocked-worker.fixture.ts'],
    reporters: ['./test/support/timing-reporter.ts'],
    testTimeout: 1_000,
    hookTimeout: 1_000,
  },
});
