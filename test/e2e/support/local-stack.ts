/**
 * The local stack an end-to-end test of the extension drives: the media fixture server (test
 * pages and media), the sandbox, a proxy in front of it, one member, and the built extension in
 * Chromium (not connected yet: tests connect through the options page, as a member does).
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminClient } from '../../../scripts/lib/admin-client';
import { type MediaServer, startMediaServer } from '../../support/media-server';
import { startProxy, startSandbox, TEST_PROXY_SECRETS, type Server } from '../../support/sandbox';
import { buildExtension } from './build-extension';
import { launchExtension, type LaunchedExtension } from './chromium';

export interface LocalStack {
  media: MediaServer;
  sandbox: Server;
  proxy: Server;
  browser: LaunchedExtension;
  memberToken: string;
  /** A call to the proxy as the member: GET without a body, else a JSON POST; a status other than 2xx throws, naming it. */
  asMember<T>(path: string, body?: unknown): Promise<T>;
  /** The built extension's manifest, as shipped (before any test-only change). */
  manifest: Record<string, any>;
  /** Stops everything, each step on its own: one failing stop must not leave the others running. */
  stop(): Promise<void>;
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
}

export async function startLocalStack(options: StackOptions): Promise<LocalStack> {
  const stops: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    for (const step of stops.reverse()) await step().catch(() => {});
  };
  try {
    const media = await startMediaServer();
    stops.push(() => media.close());
    const sandbox = await startSandbox({ SANDBOX_ASSET_SECONDS: '1', ...options.sandbox });
    stops.push(() => sandbox.stop());
    const proxy = await startProxy(sandbox.url);
    stops.push(() => proxy.stop());
    const { token: memberToken } = await new AdminClient(proxy.url, TEST_PROXY_SECRETS.ADMIN_TOKEN).add(options.member);
    let dir = await buildExtension({ WXT_DEFAULT_PROXY_URL: proxy.url });
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as Record<string, any>;
    if (options.pageAccess) {
      const copy = await mkdtemp(join(tmpdir(), 'arkbridge-access-'));
      stops.push(() => rm(copy, { recursive: true, force: true }));
      await cp(dir, copy, { recursive: true });
      await writeFile(join(copy, 'manifest.json'), JSON.stringify({ ...manifest, host_permissions: [`${new URL(media.url).origin}/*`] }));
      dir = copy;
    }
    const browser = await launchExtension(dir, { args: options.chromiumArgs ?? [] });
    stops.push(() => browser.close());
    const asMember = async <T>(path: string, body?: unknown): Promise<T> => {
      const res = await fetch(`${proxy.url}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { Authorization: `Bearer ${memberToken}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
      return (await res.json()) as T;
    };
    return { media, sandbox, proxy, browser, memberToken, asMember, manifest, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
