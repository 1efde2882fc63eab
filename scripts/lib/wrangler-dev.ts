import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface DevWorkerOptions {
  /** `wrangler.jsonc` path relative to the project root. */
  config: string;
  port: number;
  /** Configuration and secrets, passed in a private env file (not on the command line, where `ps` shows them). */
  vars?: Record<string, string>;
  /** State directory (default `.wrangler/state/<label>`, kept between runs; one per Worker). */
  persistTo?: string;
  inspectorPort?: number;
  /** Prefix for echoed output lines. */
  label: string;
  /** Echo wrangler's output (default true); otherwise only the last lines are kept for errors. */
  echo?: boolean;
  readyTimeoutMs?: number;
}

export interface DevWorker {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Resolves when the Worker answers HTTP; rejects with wrangler's last output if it never does. */
  ready: Promise<void>;
  /** Resolves when wrangler has exited. */
  exited: Promise<number | null>;
  /** Stops wrangler and workerd (the whole process group) and waits until they are gone. */
  stop(): Promise<void>;
}

const NOISE = /Request\.cf|ENOTFOUND|GetAddrInfoReqWrap|onlookupall|callbackTrampoline|nodedir|update available|^\s*$/;

/**
 * Runs `wrangler dev` for one of our Workers on 127.0.0.1, as the leader of its own process
 * group so that stopping it never leaves workerd behind.
 */
export function wranglerDev(o: DevWorkerOptions): DevWorker {
  const args = ['wrangler', 'dev', '-c', o.config, '--port', String(o.port), '--ip', '127.0.0.1',
    '--persist-to', o.persistTo ?? join('.wrangler', 'state', o.label), '--inspector-port', String(o.inspectorPort ?? inspectorPortFor(o.port)),
    '--show-interactive-dev-session=false'];
  const varsDir = mkdtempSync(join(tmpdir(), 'arkbridge-vars-'));
  const envFile = join(varsDir, '.env');
  writeFileSync(envFile, Object.entries(o.vars ?? {}).map(([k, v]) => `${k}=${dotenvQuote(v)}`).join('\n'), { mode: 0o600 });
  args.push('--env-file', envFile);
  const child = spawn('npx', args, { cwd: ROOT, detached: true, env: { ...process.env, WRANGLER_SEND_METRICS: 'false' }, stdio: ['ignore', 'pipe', 'pipe'] });
  const pid = child.pid!;
  const tail: string[] = [];
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) {
      if (NOISE.test(line)) continue;
      tail.push(line);
      if (tail.length > 40) tail.shift();
      if (o.echo ?? true) process.stdout.write(`[${o.label}] ${line}\n`);
    }
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      rmSync(varsDir, { recursive: true, force: true });
      resolve(code);
    }),
  );
  const kill = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pid, signal);
    } catch {
      /* already gone */
    }
  };
  const onExit = () => kill('SIGKILL');
  process.once('exit', onExit);

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      process.off('exit', onExit);
      kill('SIGTERM');
      const timer = setTimeout(() => kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
      kill('SIGKILL'); // workerd, should it outlive wrangler
    })());

  const url = `http://127.0.0.1:${o.port}`;
  const ready = (async () => {
    const until = Date.now() + (o.readyTimeoutMs ?? 90_000);
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`wrangler dev (${o.label}) exited before ${url} answered:\n${tail.join('\n')}`);
      }
      if (await fetch(url, { signal: AbortSignal.timeout(5_000) }).then(() => true, () => false)) return;
      if (Date.now() > until) {
        await stop();
        throw new Error(`${o.label} did not answer at ${url} in time:\n${tail.join('\n')}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  return { url, ready, exited, stop };
}

/** A default debugger port beside the Worker's own (wrangler's default 9229 clashes between Workers). */
const inspectorPortFor = (port: number) => (port + 10_000 <= 65_535 ? port + 10_000 : port - 20_000);

/** Quotes a value for a dotenv file literally (single quotes, or backticks when it holds one). */
function dotenvQuote(value: string): string {
  if (/[\r\n]/.test(value)) throw new Error('configuration values must be single-line');
  if (!value.includes("'")) return `'${value}'`;
  if (!value.includes('`')) return `\`${value}\``;
  throw new Error('a configuration value holds both \' and `, which a dotenv file cannot carry literally');
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no free port'))));
    });
  });
}

/** A port from the environment, or the default. */
export function portFrom(name: string, fallback: number): number {
  const raw = process.env[name];
  if (!raw) return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`${name} must be a port number (1-65535), got "${raw}"`);
  return port;
}

/** Environment variables among `names` that are set. */
export const fromEnv = (names: readonly string[]): Record<string, string> =>
  Object.fromEntries(names.flatMap((n) => (process.env[n] !== undefined ? [[n, process.env[n]!]] : [])));

/** The sandbox's settings that the environment may override (contract section 8). */
export const sandboxVars = () =>
  fromEnv(['SANDBOX_ACCOUNTS', 'SANDBOX_ASSET_SECONDS', 'SANDBOX_VIDEO_SECONDS', 'SANDBOX_PORTRAIT_SECONDS', 'SANDBOX_ALLOW_HTTP']);
