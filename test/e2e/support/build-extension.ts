/**
 * Builds the extension for the e2e tests (`wxt build -b <browser> --mv3`) into a private folder per
 * build, so that no other build (another test file, `npm start`) can change it under a running
 * browser.
 *
 * - Chrome (the default): cached per test process and env (each file's build presets its own proxy
 *   URL). E2E_SKIP_BUILD=1 reuses `.output/chrome-mv3` if present.
 * - Firefox: one build serves the addons-linter (`firefox-lint.test.ts`) and the Firefox e2e tests
 *   (`firefox.test.ts`), which run in separate test processes. It is kept on disk under a hash of
 *   everything the build reads (the extension's and the shared sources, wxt.config.ts, tsconfig.json,
 *   package-lock.json) and the env: the first file to ask builds it, the next one finds it. A
 *   finished build is never written again (built beside it, then renamed into place), so a running
 *   browser cannot see it change; builds of other sources are removed after a day.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const EXTENSION_OUTPUT_DIR = join(REPO_ROOT, '.output', 'chrome-mv3');

export type ExtensionBrowser = 'chrome' | 'firefox';

/** Where the Firefox builds are kept, one folder per hash of their inputs. */
const FIREFOX_CACHE = join(tmpdir(), 'arkbridge-e2e-firefox-builds');
/** What the build reads besides node_modules (package-lock.json stands for it). */
const BUILD_INPUTS = ['extension', 'shared', 'wxt.config.ts', 'tsconfig.json', 'package.json', 'package-lock.json'];
const DAY_MS = 24 * 60 * 60 * 1000;

const builds = new Map<string, Promise<string>>();

export function buildExtension(env: Record<string, string> = {}, { browser = 'chrome' }: { browser?: ExtensionBrowser } = {}): Promise<string> {
  if (browser === 'chrome' && process.env.E2E_SKIP_BUILD === '1' && existsSync(join(EXTENSION_OUTPUT_DIR, 'manifest.json'))) {
    return Promise.resolve(EXTENSION_OUTPUT_DIR);
  }
  const key = JSON.stringify([browser, ...Object.entries(env).sort(([a], [b]) => a.localeCompare(b))]);
  let build = builds.get(key);
  if (!build) {
    build = browser === 'firefox' ? cachedFirefoxBuild(env, key) : runWxtBuild('chrome', env).then(({ extensionDir }) => extensionDir);
    builds.set(key, build);
    // A failed build is not cached, so a later call can try again.
    build.catch(() => builds.delete(key));
  }
  return build;
}

/** The test runner's environment without NODE_ENV=test, which would make Vite build the development bundle (e.g. preact/debug). */
function productionEnv(): NodeJS.ProcessEnv {
  const { NODE_ENV: _testMode, ...rest } = process.env;
  return rest;
}

function runWxtBuild(browser: ExtensionBrowser, env: Record<string, string>, outDir = mkdtempSync(join(tmpdir(), 'arkbridge-ext-'))): Promise<{ outDir: string; extensionDir: string }> {
  const extensionDir = join(outDir, `${browser}-mv3`);
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['wxt', 'build', '--browser', browser, '--mv3'], {
      cwd: REPO_ROOT,
      env: { ...productionEnv(), ...env, ARKBRIDGE_OUT_DIR: outDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0 && existsSync(join(extensionDir, 'manifest.json'))) resolve({ outDir, extensionDir });
      else reject(new Error(`wxt build -b ${browser} failed (${signal ?? `exit ${code}`}):\n${output}`));
    });
  });
}

/** The files under `path` (relative to the repository), sorted. */
function filesUnder(path: string): string[] {
  const full = join(REPO_ROOT, path);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(REPO_ROOT, join(entry.parentPath, entry.name)))
    .sort();
}

/** A hash of every input of the build (names and bytes) and of its key (browser and env). */
function inputsHash(key: string): string {
  const hash = createHash('sha256').update(key);
  for (const file of BUILD_INPUTS.flatMap(filesUnder)) hash.update(`\0${file}\0`).update(readFileSync(join(REPO_ROOT, file)));
  return hash.digest('hex').slice(0, 24);
}

async function cachedFirefoxBuild(env: Record<string, string>, key: string): Promise<string> {
  const hash = inputsHash(key);
  const final = join(FIREFOX_CACHE, hash);
  const extensionDir = join(final, 'firefox-mv3');
  if (existsSync(join(extensionDir, 'manifest.json'))) return extensionDir;
  mkdirSync(FIREFOX_CACHE, { recursive: true });
  pruneOldBuilds(hash);
  const { outDir } = await runWxtBuild('firefox', env, mkdtempSync(join(FIREFOX_CACHE, `.building-${hash}-`)));
  try {
    renameSync(outDir, final);
  } catch (error) {
    // Another process finished the same build first: use that one.
    rmSync(outDir, { recursive: true, force: true });
    if (!existsSync(join(extensionDir, 'manifest.json'))) throw error;
  }
  return extensionDir;
}

/** Removes cached builds (and abandoned partial ones) of other inputs, once they are a day old. */
function pruneOldBuilds(keep: string): void {
  for (const name of readdirSync(FIREFOX_CACHE)) {
    const path = join(FIREFOX_CACHE, name);
    if (name !== keep && Date.now() - statSync(path).mtimeMs > DAY_MS) rmSync(path, { recursive: true, force: true });
  }
}
