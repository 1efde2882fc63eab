/**
 * Builds the extension for the e2e tests (`wxt build -b <browser> --mv3`), once for the whole run:
 * each test file runs in its own process, and a build takes half a minute, so builds are kept on
 * disk under a hash of everything the build reads (the extension's and the shared sources,
 * wxt.config.ts, tsconfig.json, package-lock.json) and the env: the first file to ask builds it, the
 * next ones find it. A finished build is never written again (built beside it, then renamed into
 * place), so a running browser cannot see it change; builds of other sources are removed after a day.
 *
 * Each Chrome test file presets its own proxy URL (WXT_DEFAULT_PROXY_URL, the options page's first
 * value, on a port of its own). Rather than a build per file, one build carries a placeholder and
 * each file gets a private copy with the placeholder replaced by its URL: the value is a string
 * constant the options page shows, nothing else is derived from it at build time.
 * E2E_SKIP_BUILD=1 reuses `.output/chrome-mv3` if present.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const EXTENSION_OUTPUT_DIR = join(REPO_ROOT, '.output', 'chrome-mv3');

export type ExtensionBrowser = 'chrome' | 'firefox';

/** Where the builds are kept, one folder per hash of their inputs. */
const BUILD_CACHE = join(tmpdir(), 'arkbridge-e2e-builds');
/** Stands for the proxy URL in the shared Chrome build (see above). */
const PROXY_URL_PLACEHOLDER = 'http://arkbridge-e2e-proxy-url.invalid';
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
    const { WXT_DEFAULT_PROXY_URL: proxyUrl, ...rest } = env;
    build =
      browser === 'chrome' && proxyUrl && proxyUrl !== PROXY_URL_PLACEHOLDER
        ? buildExtension({ ...rest, WXT_DEFAULT_PROXY_URL: PROXY_URL_PLACEHOLDER }).then((shared) => withProxyUrl(shared, proxyUrl))
        : cachedBuild(browser, env, key);
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

async function cachedBuild(browser: ExtensionBrowser, env: Record<string, string>, key: string): Promise<string> {
  const hash = inputsHash(key);
  const final = join(BUILD_CACHE, hash);
  const extensionDir = join(final, `${browser}-mv3`);
  if (existsSync(join(extensionDir, 'manifest.json'))) return extensionDir;
  mkdirSync(BUILD_CACHE, { recursive: true });
  pruneOldBuilds(hash);
  // Test files run side by side: the first to ask builds, the others wait for its build rather
  // than each running the same half-minute build on the same two cores.
  const release = await buildLock(join(BUILD_CACHE, `.lock-${hash}`), () => existsSync(join(extensionDir, 'manifest.json')));
  if (!release) return extensionDir;
  try {
    const { outDir } = await runWxtBuild(browser, env, mkdtempSync(join(BUILD_CACHE, `.building-${hash}-`)));
    try {
      renameSync(outDir, final);
    } catch (error) {
      // Another process finished the same build first: use that one.
      rmSync(outDir, { recursive: true, force: true });
      if (!existsSync(join(extensionDir, 'manifest.json'))) throw error;
    }
  } finally {
    release();
  }
  return extensionDir;
}

/**
 * Takes the lock at `path` (a directory holding the owner's pid), waiting while another live
 * process holds it. Answers how to release it, or undefined when `done()` turned true while
 * waiting (the other process built it). A lock whose owner is gone is taken over.
 */
async function buildLock(path: string, done: () => boolean): Promise<(() => void) | undefined> {
  for (;;) {
    try {
      mkdirSync(path);
      writeFileSync(join(path, 'pid'), String(process.pid));
      return () => rmSync(path, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (done()) return undefined;
    if (!ownerAlive(path)) {
      rmSync(path, { recursive: true, force: true });
      continue;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function ownerAlive(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
  } catch {
    // Taken a moment ago, pid not written yet: alive unless the lock is old.
    try {
      return Date.now() - statSync(lock).mtimeMs < 10_000;
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A private copy of the shared Chrome build (so that no other file's browser sees it change) with
 * the placeholder replaced by `proxyUrl` in its scripts and pages; removed when the process exits.
 */
function withProxyUrl(shared: string, proxyUrl: string): string {
  const outDir = mkdtempSync(join(tmpdir(), 'arkbridge-ext-'));
  const extensionDir = join(outDir, 'chrome-mv3');
  cpSync(shared, extensionDir, { recursive: true });
  let replaced = 0;
  for (const entry of readdirSync(extensionDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(js|html)$/.test(entry.name)) continue;
    const path = join(entry.parentPath, entry.name);
    const text = readFileSync(path, 'utf8');
    if (!text.includes(PROXY_URL_PLACEHOLDER)) continue;
    writeFileSync(path, text.replaceAll(PROXY_URL_PLACEHOLDER, proxyUrl));
    replaced++;
  }
  if (!replaced) throw new Error(`the shared build carries no ${PROXY_URL_PLACEHOLDER}: WXT_DEFAULT_PROXY_URL is no longer a string constant of the build`);
  process.once('exit', () => rmSync(outDir, { recursive: true, force: true }));
  return extensionDir;
}

/** Removes cached builds (and abandoned partial ones) of other inputs, once they are a day old. */
function pruneOldBuilds(keep: string): void {
  for (const name of readdirSync(BUILD_CACHE)) {
    const path = join(BUILD_CACHE, name);
    if (name !== keep && Date.now() - statSync(path).mtimeMs > DAY_MS) rmSync(path, { recursive: true, force: true });
  }
}
