import { defineConfig } from 'vitest/config';
import { cloudflareTest } from '@cloudflare/vitest-pool-workers';
import { WxtVitest } from 'wxt/testing/vitest-plugin';

/**
 * One `vitest run` runs every project:
 * - unit: shared/ rules and Node-side scripts, in Node;
 * - sandbox: the sandbox Worker in workerd;
 * - extension: extension code with WXT's fake browser and fake-indexeddb;
 * - e2e: the built extension in Debian Chromium, against servers the tests start.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: ['shared/**/*.test.ts', 'scripts/**/*.test.ts'],
        },
      },
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: './worker/sandbox/wrangler.jsonc' },
            miniflare: { bindings: { SANDBOX_ALLOW_HTTP: 'on', SANDBOX_ASSET_SECONDS: '1', SANDBOX_VIDEO_SECONDS: '4' } },
          }),
        ],
        test: {
          name: 'sandbox',
          include: ['worker/sandbox/**/*.test.ts'],
          globalSetup: ['test/support/media-server.global.ts'],
        },
      },
      {
        plugins: [WxtVitest()],
        test: {
          name: 'extension',
          environment: 'happy-dom',
          include: ['extension/**/*.test.{ts,tsx}'],
          setupFiles: ['fake-indexeddb/auto'],
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
