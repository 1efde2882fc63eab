/**
 * Local servers for tests: the sandbox (and the proxy in front of it) under `wrangler dev` on free
 * ports with throw-away state, so tests never see or leave state in .wrangler/state.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, wranglerDev } from '../../scripts/lib/wrangler-dev';

export { freePort };

export interface Server {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Stops the Worker (the whole process group) and deletes its state directory. */
  stop(): Promise<void>;
}
export type Sandbox = Server;

/** Fast timings and http:// media for tests; `vars` override them. */
export const TEST_VARS: Readonly<Record<string, string>> = { SANDBOX_ALLOW_HTTP: 'on', SANDBOX_ASSET_SECONDS: '1', SANDBOX_VIDEO_SECONDS: '4' };

/** Tries with other ports when one was taken between choosing it and wrangler listening on it. */
const PORT_ATTEMPTS = 3;

async function start(config: string, vars: Record<string, string>, label: string): Promise<Server> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(config, vars, label);
    } catch (error) {
      // A free port is only free until someone takes it: with test files side by side, another
      // file's server or an outgoing connection can take it first. Any other failure is real.
      if (attempt >= PORT_ATTEMPTS || !/already in use/.test(String(error))) throw error;
    }
  }
}

async function startOnce(config: string, vars: Record<string, string>, label: string): Promise<Server> {
  const persistTo = await mkdtemp(join(tmpdir(), `arkbridge-${label}-`));
  const worker = wranglerDev({ config, port: await freePort(), inspectorPort: await freePort(), persistTo, vars, label, echo: Boolean(process.env.E2E_VERBOSE) });
  const stop = async () => {
    await worker.stop();
    await rm(persistTo, { recursive: true, force: true });
  };
  try {
    await worker.ready;
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: worker.url, stop };
}

export function startSandbox(vars: Record<string, string> = {}, { label = 'sandbox' } = {}): Promise<Sandbox> {
  return start('worker/sandbox/wrangler.jsonc', { ...TEST_VARS, ...vars }, label);
}

/** The proxy's configuration in tests: the sandbox's `dev` account and a test admin token. */
export const TEST_PROXY_SECRETS = {
  ACCESS_KEY_ID: 'AKSANDBOXDEV',
  SECRET_ACCESS_KEY: 'sandbox-dev-secret-key',
  VIDEO_API_KEY: 'sk-sandbox-dev',
  ADMIN_TOKEN: 'test-admin-token-0123456789',
  MEDIA_URL_SECRET: 'test-media-url-secret-0123456789abcdef',
  ACCESS_KEY_SECRET: 'test-access-key-secret-0123456789abcdef',
} as const;

/** A proxy in front of `sandboxUrl`, configured as `npm start` configures it. */
export function startProxy(sandboxUrl: string, vars: Record<string, string> = {}): Promise<Server> {
  // Tasks are followed every second in tests (15 s by default), so that a watched task ends promptly.
  return start('worker/proxy/wrangler.jsonc', { ASSET_API_BASE: sandboxUrl, VIDEO_API_BASE: sandboxUrl, ALLOW_HTTP_MEDIA: 'on', TRACK_INTERVAL_SECONDS: '1', ...TEST_PROXY_SECRETS, ...vars }, 'proxy');
}
