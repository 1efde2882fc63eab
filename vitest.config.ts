import { defineConfig } from 'vitest/config';
import type { Plugin } from 'vite';
import { cloudflareTest } from '@cloudflare/vitest-pool-workers';
import { WxtVitest } from 'wxt/testing/vitest-plugin';
import { TEST_PROXY_SECRETS } from './test/support/sandbox';

/** FUZZ_RUNS and FUZZ_SEED for the fuzz tests in workerd, read there with `inject` (test/support/fuzz). */
const FUZZ = { fuzzRuns: process.env.FUZZ_RUNS ?? '', fuzzSeed: process.env.FUZZ_SEED ?? '' };

/**
 * mediabunny's file helper for Node (`node.js`, `node:fs/promises`), which its package.json maps
 * out for browsers: loaded through vitest, workerd fails on it. The sandbox's tests get the same
 * empty stand-in a bundler gives the browser (shared/media/mp4-join.ts never reads files by path).
 */
const mediabunnyWithoutNode: Plugin = {
  name: 'mediabunny-without-node',
  enforce: 'pre',
  resolveId: (source, importer) =>
    source === './node.js' && importer?.includes('/mediabunny/') === true ? '\0mediabunny-node' : undefined,
  load: (id) => (id === '\0mediabunny-node' ? 'export const fs = undefined;' : undefined),
};


/**
 * One `vitest run` runs every project:
 * - unit: shared/ rules and Node-side scripts, in Node;
 * - sandbox: the sandbox Worker in workerd;
 * - proxy: the proxy Worker in workerd, against a real sandbox on a local port;
 * - extension: extension code with WXT's fake browser and fake-indexeddb;
 * - e2e: the built extension in Debian Chromium, against servers the tests start.
 */
export default defineConfig({
  test: {
    // Inherited by every project (the sandbox's and the proxy's fuzz tests).
    provide: FUZZ,
    // The proxy's one-line request logs are checked through console spies; printed, they would
    // bury the output (a fuzz run writes hundreds of thousands).
    onConsoleLog: (log) => !log.startsWith('{"time":'),
    // Where the time went, per project and per file, printed at the end and kept in test-results/.
    reporters: ['default', './test/support/timing-reporter.ts'],
    // Files at once. vitest's default on a 2-core machine is one, which ran the whole suite file by
    // file; most files wait on workerd, a browser or the sandbox's clock rather than on a core.
    // The proxy's files still run one at a time (below). docs/testing.md has the figures.
    maxWorkers: Number(process.env.TEST_MAX_WORKERS ?? 3),
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          // A hang detector, not a speed check: on a loaded machine a test of a few seconds can take ten.
          testTimeout: 30_000,
          include: ['shared/**/*.test.ts', 'scripts/**/*.test.ts'],
        },
      },
      {
        plugins: [
          mediabunnyWithoutNode,
          cloudflareTest({
            wrangler: { configPath: './worker/sandbox/wrangler.jsonc' },
            miniflare: { bindings: { SANDBOX_ALLOW_HTTP: 'on', SANDBOX_ASSET_SECONDS: '1', SANDBOX_VIDEO_SECONDS: '4' } },
          }),
        ],
        test: {
          name: 'sandbox',
          testTimeout: 30_000,
          // The service's clock and injected faults are the sandbox's, one for the whole project:
          // a file moving the clock must not meet another that times an asset. `npm test` runs this
          // project in a vitest of its own, beside the others.
          fileParallelism: false,
          include: ['worker/sandbox/**/*.test.ts'],
          globalSetup: ['test/support/media-server.global.ts'],
        },
      },
      {
        plugins: [
          cloudflareTest(({ inject }) => ({
            wrangler: { configPath: './worker/proxy/wrangler.jsonc' },
            miniflare: {
              // For the tests' vendor SDK signer (@volcengine/openapi needs Node's modules); the proxy itself uses none.
              compatibilityFlags: ['nodejs_compat'],
              bindings: {
                ASSET_API_BASE: inject('sandboxUrl'),
                VIDEO_API_BASE: inject('sandboxUrl'),
                ...TEST_PROXY_SECRETS,
                ALLOW_HTTP_MEDIA: 'on',
                // Only tests that slow the service on purpose meet it (PAST_DEADLINE_MS in
                // worker/proxy/testing/proxy-test-client.ts); at 1.5 s, loaded runs met it by chance.
                UPSTREAM_TIMEOUT_MS: '5000',
                // Tasks are followed every second, so that they end within a test's patience.
                TRACK_INTERVAL_SECONDS: '1',
                // Followed assets are listed only when a test makes it due (runAssetChecks), so that no
                // background ListAssets of an earlier test lands in another's count of upstream calls.
                ASSET_CHECK_SECONDS: '86400',
                // Budget alerts go to the media fixture server, which keeps them for the tests to read.
                ALERT_WEBHOOK_URL: `${inject('mediaBaseUrl')}/hooks/alerts`,
                // Cloudflare Access with the media fixture server as the team domain (its /cdn-cgi/access/certs).
                ACCESS_TEAM_DOMAIN: inject('mediaBaseUrl'),
                ACCESS_AUD: 'arkbridge-test-aud',
              },
            },
          })),
        ],
        test: {
          name: 'proxy',
          testTimeout: 30_000,
          // The sandbox's faults and request counters are global: files run one after another so
          // that an injected fault or a stats delta belongs to the test that caused it.
          fileParallelism: false,
          include: ['worker/proxy/**/*.test.ts'],
          setupFiles: ['worker/proxy/testing/leak-guard.ts', 'worker/proxy/testing/settle-tasks.ts'],
          globalSetup: ['test/support/media-server.global.ts', 'test/support/sandbox.global.ts', 'test/support/webhook-receiver.global.ts'],
        },
      },
      {
        plugins: [WxtVitest()],
        test: {
          name: 'extension',
          environment: 'happy-dom',
          testTimeout: 30_000,
          include: ['extension/**/*.test.{ts,tsx}'],
          setupFiles: ['fake-indexeddb/auto', 'extension/lib/testing/wait-patience.ts'],
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 120_000,
          // A file's setup builds or waits for an extension build and starts the servers: minutes
          // on a loaded machine with files side by side. A hang detector, not a speed check.
          hookTimeout: 600_000,
          // Files run side by side: each owns its ports, state folders and browser profile, and the
          // extension builds they share are built once (test/e2e/support/build-extension.ts).
        },
      },
    ],
  },
});
