/**
 * The Firefox MV3 build passes Mozilla's addons-linter (what addons.mozilla.org runs on a
 * submission) with no error and no warning about its manifest, declares its data collection, and
 * asks for no host access at install. Builds once (`wxt build -b firefox --mv3`, a few seconds) into
 * a private folder, like the Chromium build of build-extension.ts. Other warnings (in bundled
 * libraries' code) are printed, not failed on: docs/extension.md "Firefox".
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { REPO_ROOT } from './support/build-extension';

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

let outDir: string;
let extensionDir: string;

/** The Firefox build, in production mode (the test runner's NODE_ENV=test would make Vite build the development bundle). */
function buildFirefox(into: string): Promise<string> {
  const { NODE_ENV: _testMode, ...env } = process.env;
  const dir = join(into, 'firefox-mv3');
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['wxt', 'build', '--browser', 'firefox', '--mv3'], {
      cwd: REPO_ROOT,
      env: { ...env, ARKBRIDGE_OUT_DIR: into },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0 && existsSync(join(dir, 'manifest.json'))) resolve(dir);
      else reject(new Error(`wxt build -b firefox failed (${signal ?? `exit ${code}`}):\n${output}`));
    });
  });
}

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
  outDir = mkdtempSync(join(tmpdir(), 'arkbridge-firefox-'));
  extensionDir = await buildFirefox(outDir);
});

afterAll(() => {
  if (outDir) rmSync(outDir, { recursive: true, force: true });
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
