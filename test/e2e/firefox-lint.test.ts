/**
 * The Firefox MV3 build passes Mozilla's addons-linter (what addons.mozilla.org runs on a
 * submission) with no error and no warning about its manifest, declares its data collection, and
 * asks for no host access at install. The build is build-extension.ts's Firefox build
 * (`wxt build -b firefox --mv3`), the very one firefox.test.ts runs in Firefox ESR: made once for
 * both. Other warnings (in bundled libraries' code) are printed, not failed on: docs/extension.md
 * "Firefox".
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { buildExtension } from './support/build-extension';

interface LinterMessage {
  code: string;
  message: string;
  description?: string | string[];
  file?: string;
  line?: number;
}
interface LinterResult {
  errors: LinterMessage[];
  warnings: LinterMessage[];
  notices: LinterMessage[];
}
interface AddonsLinter {
  createInstance(options: { config: Record<string, unknown>; runAsBinary?: boolean }): { run(): Promise<LinterResult> };
}

/** addons-linter is CommonJS without types. */
const addonsLinter = createRequire(import.meta.url)('addons-linter') as AddonsLinter;

let extensionDir: string;

function lint(dir: string): Promise<LinterResult> {
  return addonsLinter
    .createInstance({
      config: { _: [dir], logLevel: 'fatal', stack: false, pretty: false, warningsAsErrors: false, metadata: false, output: 'none', boring: true, selfHosted: false },
      runAsBinary: false,
    })
    .run();
}

const describe = (m: LinterMessage) => `${m.code} ${m.file ?? ''}${m.line ? `:${m.line}` : ''}: ${m.message}`;

beforeAll(async () => {
  extensionDir = await buildExtension({}, { browser: 'firefox' });
});

test('addons-linter finds no error in the Firefox build, and no warning about its manifest', async () => {
  const result = await lint(extensionDir);
  console.info(
    [`addons-linter: ${result.errors.length} errors, ${result.warnings.length} warnings, ${result.notices.length} notices`, ...[...result.errors, ...result.warnings, ...result.notices].map((m) => `  ${describe(m)}`)].join('\n'),
  );
  expect(result.errors.map(describe)).toEqual([]);
  expect(result.warnings.filter((m) => m.file === 'manifest.json').map(describe)).toEqual([]);
});

test('the Firefox manifest declares its data collection and asks for no host access at install', () => {
  const manifest = JSON.parse(readFileSync(join(extensionDir, 'manifest.json'), 'utf8'));
  const gecko = manifest.browser_specific_settings?.gecko;
  expect(gecko?.id).toBe('arkbridge@arkbridge.dev');
  expect(gecko?.data_collection_permissions).toEqual({ required: ['websiteContent'] });
  // Only the proxy's origin is asked for, when connecting; a page is reached through activeTab on a menu click.
  expect(manifest.host_permissions ?? []).toEqual([]);
  expect((manifest.permissions as string[]).filter((p) => p.includes('://') || p === '<all_urls>')).toEqual([]);
  expect(manifest.optional_host_permissions).toEqual(['http://*/*', 'https://*/*']);
});
