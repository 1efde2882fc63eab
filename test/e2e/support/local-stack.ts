/**
 * The local stack an end-to-end test of the extension drives: the media fixture server (test
 * pages and media), the sandbox, a proxy in front of it, one member, and the built extension in
 * Chromium, or in Firefox ESR (not connected yet: tests connect through the options page, as a
 * member does). A test file calls `useLocalStack(options)` once, at its top level: it starts the
 * stack before the file's tests and stops it after them.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { AdminClient } from '../../../scripts/lib/admin-client';
import { type MediaServer, startMediaServer } from '../../support/media-server';
import { startProxy, startSandbox, TEST_PROXY_SECRETS, type Server } from '../../support/sandbox';
import { buildExtension } from './build-extension';
import { launchExtension, type LaunchedExtension } from './chromium';
import { launchFirefox, type LaunchedFirefox } from './firefox';

/** The servers and the member, whichever browser drives the extension. */
export interface LocalServers {
  media: MediaServer;
  sandbox: Server;
  proxy: Server;
  memberToken: string;
  /** A call to the proxy as the member: GET without a body, else a JSON POST; a status other than 2xx throws, naming it. */
  asMember<T>(path: string, body?: unknown): Promise<T>;
  /** The built extension's manifest, as shipped (before any test-only change). */
  manifest: Record<string, any>;
  /** Stops everything, each step on its own: one failing stop must not leave the others running. */
  stop(): Promise<void>;
}

/** The stack with the extension in Chromium. */
export interface LocalStack extends LocalServers {
  browser: LaunchedExtension;
}

/** The stack with the extension's Firefox MV3 build in Firefox ESR. */
export interface FirefoxStack extends LocalServers {
  firefox: LaunchedFirefox;
  /**
   * The media server under the name `localhost` (`media.url` is `127.0.0.1`): with `pageAccess`, the
   * pages the tests open there are the ones the extension may read, while the proxy, on `127.0.0.1`,
   * stays outside its host access (Firefox's match patterns take no port).
   */
  pagesUrl: string;
}

export interface StackOptions {
  /** The member's name. */
  member: string;
  /** The sandbox's variables (assets turn Active after a second unless said otherwise). */
  sandbox?: Record<string, string>;
  /**
   * Host access to the test pages' origin, in a copy of the build: it stands in for the activeTab
   * grant that a real menu click or key press gives and a headless test cannot make. The shipped
   * manifest (`manifest`) is unchanged and declares no host access.
   */
  pageAccess?: boolean;
  /** Extra Chromium switches (e.g. `--enable-unsafe-extension-debugging` for the CDP Extensions domain). */
  chromiumArgs?: string[];
  /** The proxy's variables beyond the tests' defaults, given the media server (e.g. Cloudflare Access with it as the team domain). */
  proxyVars?: (media: MediaServer) => Record<string, string>;
}

export interface FirefoxStackOptions extends Omit<StackOptions, 'chromiumArgs'> {
  /**
   * The Firefox MV3 build (build-extension.ts's, shared with firefox-lint.test.ts: no proxy URL
   * preset, the test types it in the options page) in Firefox ESR. With `pageAccess`, the copy
   * declares `http://localhost/*` (`pagesUrl`), which Firefox grants at install.
   */
  browser: 'firefox';
}

/**
 * Starts the stack before the file's tests (`beforeAll`) and stops it after them (`afterAll`);
 * answers the running stack, for use inside tests and hooks (it throws before the start, or when
 * the start failed, naming why).
 */
export function useLocalStack(options: StackOptions & { browser?: 'chromium' }): () => LocalStack;
export function useLocalStack(options: FirefoxStackOptions): () => FirefoxStack;
export function useLocalStack(options: (StackOptions & { browser?: 'chromium' }) | FirefoxStackOptions): () => LocalStack | FirefoxStack {
  let stack: LocalStack | FirefoxStack | undefined;
  let failure: unknown;
  beforeAll(async () => {
    try {
      stack = options.browser === 'firefox' ? await startFirefoxStack(options) : await startLocalStack(options);
    } catch (error) {
      failure = error;
      throw error;
    }
  });
  afterAll(() => stack?.stop());
  return () => {
    if (stack) return stack;
    throw new Error(failure ? `the local stack did not start: ${failure instanceof Error ? failure.message : String(failure)}` : 'the local stack is not started yet (use it in tests and hooks)');
  };
}

/** A copy of a build whose manifest also grants host access to `pattern` (in place of the activeTab grant a headless test cannot make). */
async function withPageAccess(dir: string, manifest: Record<string, any>, pattern: string, stops: (() => Promise<unknown>)[]): Promise<string> {
  const copy = await mkdtemp(join(tmpdir(), 'arkbridge-access-'));
  stops.push(() => rm(copy, { recursive: true, force: true }));
  await cp(dir, copy, { recursive: true });
  await writeFile(join(copy, 'manifest.json'), JSON.stringify({ ...manifest, host_permissions: [pattern] }));
  return copy;
}

/** The media server, the sandbox, the proxy and the member; `stops` gets each one's stop. */
async function startServers(options: StackOptions, stops: (() => Promise<unknown>)[]): Promise<Omit<LocalServers, 'manifest' | 'stop'>> {
  const media = await startMediaServer();
  stops.push(() => media.close());
  const sandbox = await startSandbox({ SANDBOX_ASSET_SECONDS: '1', ...options.sandbox });
  stops.push(() => sandbox.stop());
  const proxy = await startProxy(sandbox.url, options.proxyVars?.(media));
  stops.push(() => proxy.stop());
  const { token: memberToken } = await new AdminClient(proxy.url, TEST_PROXY_SECRETS.ADMIN_TOKEN).add(options.member);
  const asMember = async <T>(path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${proxy.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { Authorization: `Bearer ${memberToken}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
    return (await res.json()) as T;
  };
  return { media, sandbox, proxy, memberToken, asMember };
}

/** Each stop on its own, last started first. */
function stopAll(stops: (() => Promise<unknown>)[]): () => Promise<void> {
  return async () => {
    for (const step of stops.reverse()) await step().catch(() => {});
  };
}

export async function startFirefoxStack(options: FirefoxStackOptions): Promise<FirefoxStack> {
  const stops: (() => Promise<unknown>)[] = [];
  const stop = stopAll(stops);
  try {
    const servers = await startServers(options, stops);
    let dir = await buildExtension({}, { browser: 'firefox' });
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as Record<string, any>;
    const pages = new URL(servers.media.url);
    pages.hostname = 'localhost';
    if (options.pageAccess) dir = await withPageAccess(dir, manifest, 'http://localhost/*', stops);
    const firefox = await launchFirefox(dir);
    stops.push(() => firefox.close());
    return { ...servers, firefox, pagesUrl: pages.origin, manifest, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

export async function startLocalStack(options: StackOptions): Promise<LocalStack> {
  const stops: (() => Promise<unknown>)[] = [];
  const stop = stopAll(stops);
  try {
    const servers = await startServers(options, stops);
    let dir = await buildExtension({ WXT_DEFAULT_PROXY_URL: servers.proxy.url });
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as Record<string, any>;
    if (options.pageAccess) dir = await withPageAccess(dir, manifest, `${new URL(servers.media.url).origin}/*`, stops);
    const browser = await launchExtension(dir, { args: options.chromiumArgs ?? [] });
    stops.push(() => browser.close());
    return { ...servers, browser, manifest, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
