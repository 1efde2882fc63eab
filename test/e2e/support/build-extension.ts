/**
 * Builds the extension for the e2e tests (`wxt build -b chrome --mv3`) into a private folder per
 * build, so that no other build (another test file, `npm start`) can change it under a running
 * browser. Cached per test process and env. E2E_SKIP_BUILD=1 reuses `.output/chrome-mv3` if present.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const EXTENSION_OUTPUT_DIR = join(REPO_ROOT, '.output', 'chrome-mv3');

const builds = new Map<string, Promise<string>>();

export function buildExtension(env: Record<string, string> = {}): Promise<string> {
  if (process.env.E2E_SKIP_BUILD === '1' && existsSync(join(EXTENSION_OUTPUT_DIR, 'manifest.json'))) {
    return Promise.resolve(EXTENSION_OUTPUT_DIR);
  }
  const key = JSON.stringify(Object.entries(env).sort(([a], [b]) => a.localeCompare(b)));
  let build = builds.get(key);
  if (!build) {
    build = runWxtBuild(env);
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

function runWxtBuild(env: Record<string, string>): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'arkbridge-ext-'));
  const extensionDir = join(outDir, 'chrome-mv3');
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['wxt', 'build', '--browser', 'chrome', '--mv3'], {
      cwd: REPO_ROOT,
      env: { ...productionEnv(), ...env, ARKBRIDGE_OUT_DIR: outDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0 && existsSync(join(extensionDir, 'manifest.json'))) resolve(extensionDir);
      else reject(new Error(`wxt build failed (${signal ?? `exit ${code}`}):\n${output}`));
    });
  });
}
