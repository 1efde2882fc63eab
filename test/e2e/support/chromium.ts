/**
 * Launches Debian Chromium (or CHROMIUM_PATH) with an unpacked extension loaded, via playwright-core,
 * and waits for the extension's MV3 service worker.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Worker } from 'playwright-core';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/snap/bin/chromium'];

/** The Chromium binary to drive: $CHROMIUM_PATH, else the first Debian/Ubuntu location that exists. */
export function findChromium(): string {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH=${fromEnv} does not exist`);
    return fromEnv;
  }
  const found = CANDIDATES.find((path) => existsSync(path));
  if (!found) {
    throw new Error(
      `Chromium not found (looked in ${CANDIDATES.join(', ')}). ` +
        'Install it (apt-get install -y chromium) or set CHROMIUM_PATH.',
    );
  }
  return found;
}

export interface LaunchedExtension {
  context: BrowserContext;
  extensionId: string;
  serviceWorker: Worker;
  /** Closes the browser and deletes its temporary profile. */
  close(): Promise<void>;
}

/**
 * `locale` sets the browser's language (navigator.language), e.g. `zh-CN`; `args` adds command-line
 * switches (e.g. `--enable-unsafe-extension-debugging`, for the CDP Extensions domain).
 */
export async function launchExtension(extensionDir: string, { locale, args = [] }: { locale?: string; args?: string[] } = {}): Promise<LaunchedExtension> {
  const dir = resolve(extensionDir);
  const userDataDir = await mkdtemp(join(tmpdir(), 'arkbridge-e2e-'));
  let context: BrowserContext | undefined;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: findChromium(),
      // Chromium ≥ 132 only has the "new" headless mode, which loads extensions.
      headless: true,
      ...(locale ? { locale } : {}),
      args: [
        ...(locale ? [`--lang=${locale}`] : []),
        '--no-sandbox',
        `--disable-extensions-except=${dir}`,
        `--load-extension=${dir}`,
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-gpu',
        ...args,
      ],
    });

    const isOurs = (worker: Worker) => worker.url().startsWith('chrome-extension://');
    const serviceWorker =
      context.serviceWorkers().find(isOurs) ??
      (await context.waitForEvent('serviceworker', { predicate: isOurs, timeout: 30_000 }));
    const extensionId = new URL(serviceWorker.url()).host;

    const ctx = context;
    return {
      context: ctx,
      extensionId,
      serviceWorker,
      close: async () => {
        await ctx.close().catch(() => {});
        await rm(userDataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await context?.close().catch(() => {});
    await rm(userDataDir, { recursive: true, force: true });
    throw err;
  }
}
