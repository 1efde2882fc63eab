import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface DevWorker {
  /** `http://127.0.0.1:<port>` */
  url: string;
  process: ChildProcess;
  /** Resolves when the Worker answers HTTP. */
  ready: Promise<void>;
  stop(): void;
}

/**
 * Runs `wrangler dev` for one of our Workers on loopback, with state persisted under
 * `.wrangler/state` so it survives restarts, and `vars` passed as `--var` overrides.
 */
export function wranglerDev(config: string, port: number, vars: Record<string, string>, label: string): DevWorker {
  const args = ['wrangler', 'dev', '-c', config, '--port', String(port), '--ip', '127.0.0.1', '--persist-to', '.wrangler/state', '--show-interactive-dev-session=false', '--inspector-port', String(port + 10000)];
  for (const [key, value] of Object.entries(vars)) args.push('--var', `${key}:${value}`);
  const child = spawn('npx', args, {
    cwd: ROOT,
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefix = (chunk: Buffer) =>
    chunk
      .toString()
      .split('\n')
      .filter((line) => line.trim() && !/Request\.cf|ENOTFOUND|GetAddrInfoReqWrap|nodedir|update available/.test(line))
      .map((line) => `[${label}] ${line}\n`)
      .join('');
  child.stdout.on('data', (c: Buffer) => process.stdout.write(prefix(c)));
  child.stderr.on('data', (c: Buffer) => process.stderr.write(prefix(c)));
  const url = `http://127.0.0.1:${port}`;
  return { url, process: child, ready: waitForHttp(url, child), stop: () => child.kill('SIGINT') };
}

async function waitForHttp(url: string, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`wrangler exited with code ${child.exitCode} before ${url} answered`);
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

/** A port from the environment, or the default. */
export function portFrom(name: string, fallback: number): number {
  const raw = process.env[name];
  if (!raw) return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`${name} must be a port number (1-65535), got "${raw}"`);
  return port;
}

/** The sandbox's settings that the environment may override (contract section 8). */
export function sandboxVars(): Record<string, string> {
  const names = ['SANDBOX_ACCOUNTS', 'SANDBOX_ASSET_SECONDS', 'SANDBOX_VIDEO_SECONDS', 'SANDBOX_PORTRAIT_SECONDS', 'SANDBOX_ALLOW_HTTP'];
  return Object.fromEntries(names.flatMap((n) => (process.env[n] !== undefined ? [[n, process.env[n]!]] : [])));
}
