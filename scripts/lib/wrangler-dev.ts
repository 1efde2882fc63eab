import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { portInUseMessage, portFree, signalGroup, stopChild } from './processes';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface DevWorkerOptions {
  /** `wrangler.jsonc` path relative to the project root. */
  config: string;
  port: number;
  /** The setting that chose `port` (e.g. SANDBOX_PORT), named when the port is taken. */
  portSetting?: string;
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
  /** wrangler's pid, which is also its process group's id (workerd is in that group). */
  pid: number;
  /** Resolves when the Worker answers HTTP; rejects with a readable error (a taken port, wrangler's last output) if it never does. */
  ready: Promise<void>;
  /** Resolves when wrangler has exited. */
  exited: Promise<number | null>;
  /** Resolves, with a readable error, if wrangler exits or fails to bind without `stop()` having been called; else never. */
  failed: Promise<Error>;
  /** Stops wrangler and workerd (the whole process group: SIGTERM, SIGKILL after 5 s) and waits until they are gone. */
  stop(): Promise<void>;
  /** How many times wrangler has reloaded the Worker since it started (each drops the requests in flight). */
  readonly reloads: number;
}

const NOISE = /Request\.cf|ENOTFOUND|GetAddrInfoReqWrap|onlookupall|callbackTrampoline|nodedir|update available|^\s*$/;
/** workerd's and wrangler's words for a port it could not listen on. */
const BIND_FAILURE = /Address already in use\D*?(?:127\.0\.0\.1|localhost|0\.0\.0\.0|\[?::1?\]?):(\d+)/;
/** wrangler's words when it restarts the Worker (after a file it bundles changed). */
const RELOAD = /Reloading local server/;
const WRANGLER = join(ROOT, 'node_modules', 'wrangler', 'bin', 'wrangler.js');
/**
 * The Workers' tsconfig for every file the bundle takes, shared/ too. Left to itself, esbuild reads
 * the nearest one, which for shared/ is the extension's: it extends .wxt/tsconfig.json, which wxt
 * rewrites on every build and esbuild watches, so each extension build restarted every running
 * wrangler dev and dropped its requests in flight. Absolute: esbuild resolves it from the Worker's
 * folder, wrangler from the working directory.
 */
export const WORKERS_TSCONFIG = join(ROOT, 'worker', 'tsconfig.json');

/**
 * Runs `wrangler dev` for one of our Workers on 127.0.0.1, as the leader of its own process
 * group so that stopping it never leaves workerd behind. wrangler runs under this node directly
 * (no npx, no shell in between). A debugger port is only free until someone takes it: when
 * wrangler cannot listen on it, wrangler starts again on another one (the Worker's own port, which
 * the user chose, is never changed).
 */
export function wranglerDev(o: DevWorkerOptions): DevWorker {
  const url = `http://127.0.0.1:${o.port}`;
  let run = launch(o, o.inspectorPort ?? inspectorPortFor(o.port));
  let stopping: Promise<void> | undefined;
  // Last resort should this process exit without stop(): nothing of the group may outlive it.
  const onExit = () => signalGroup(run.pid, 'SIGKILL');
  process.once('exit', onExit);
  const stop = () =>
    (stopping ??= (async () => {
      await run.stop();
      process.off('exit', onExit);
    })());

  let settled: (error?: Error) => void = () => {};
  const failed = new Promise<Error>((resolve) => (settled = (error) => error && resolve(error)));
  // Only the current launch's end counts: a launch given up for its debugger port exits too.
  const watch = (current: Launch) =>
    void current.exited.then((code) => {
      if (current === run && !stopping && !current.replaced) settled(current.failure(`wrangler dev (${o.label}) exited (code ${code})`));
    });
  watch(run);

  // A quiet WRANGLER_LOG hides "Ready on"; then an answer at the port has to do.
  const quiet = /^(none|error|warn)$/i.test(process.env.WRANGLER_LOG ?? '');
  const ready = (async () => {
    const until = Date.now() + (o.readyTimeoutMs ?? 90_000);
    let relaunches = 0;
    for (;;) {
      if (run.bindFailure) {
        if (run.bindFailure.port === run.inspectorPort && relaunches < DEBUGGER_RELAUNCHES && !stopping) {
          relaunches += 1;
          const given = run;
          given.replaced = true;
          await given.stop();
          const port = await freePort();
          if (stopping) throw given.failure('');
          run = launch(o, port);
          watch(run);
          continue;
        }
        await stop();
        throw run.failure('');
      }
      if (run.child.exitCode !== null || run.child.signalCode !== null) throw run.failure(`wrangler dev (${o.label}) exited before ${url} answered`);
      // Something answering at the port is not enough: until wrangler says so, it may be another program.
      if ((run.announced || quiet) && (await fetch(url, { signal: AbortSignal.timeout(5_000) }).then(() => true, () => false))) return;
      if (Date.now() > until) {
        await stop();
        throw new Error(`${o.label} did not answer at ${url} in time:\n${run.tail.join('\n')}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  ready.catch(() => {}); // callers that only await `failed` or `exited` must not crash on it
  const exited = (async (): Promise<number | null> => {
    for (;;) {
      const current = run;
      const code = await current.exited;
      if (current === run && !current.replaced) return code;
      await new Promise((r) => setTimeout(r, 50)); // the next launch is being started
    }
  })();
  return {
    url,
    get pid() {
      return run.pid;
    },
    ready,
    exited,
    failed,
    stop,
    get reloads() {
      return run.reloads;
    },
  };
}

/** How many times a Worker starts again because its debugger port was taken meanwhile. */
const DEBUGGER_RELAUNCHES = 3;

interface Launch {
  child: ChildProcess;
  pid: number;
  inspectorPort: number;
  exited: Promise<number | null>;
  /** The last lines of output, for errors. */
  tail: string[];
  /** wrangler printed "Ready on <url>": the answer at the port is ours. */
  announced: boolean;
  bindFailure?: { port: number; message: string };
  /** Given up for a taken debugger port; another launch took its place. */
  replaced: boolean;
  reloads: number;
  failure(what: string): Error;
  stop(): Promise<void>;
}

/** One wrangler process and what it has said. */
function launch(o: DevWorkerOptions, inspectorPort: number): Launch {
  const args = [WRANGLER, 'dev', '-c', o.config, '--port', String(o.port), '--ip', '127.0.0.1',
    '--persist-to', o.persistTo ?? join('.wrangler', 'state', o.label), '--inspector-port', String(inspectorPort),
    '--show-interactive-dev-session=false', '--tsconfig', WORKERS_TSCONFIG];
  const varsDir = mkdtempSync(join(tmpdir(), 'arkbridge-vars-'));
  const envFile = join(varsDir, '.env');
  writeFileSync(envFile, Object.entries(o.vars ?? {}).map(([k, v]) => `${k}=${dotenvQuote(v)}`).join('\n'), { mode: 0o600 });
  args.push('--env-file', envFile);
  const child = spawn(process.execPath, args, { cwd: ROOT, detached: true, env: { ...process.env, WRANGLER_SEND_METRICS: 'false' }, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = `http://127.0.0.1:${o.port}`;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      rmSync(varsDir, { recursive: true, force: true });
      resolve(code);
    }),
  );
  let stopping: Promise<void> | undefined;
  const self: Launch = {
    child,
    pid: child.pid!,
    inspectorPort,
    exited,
    tail: [],
    announced: false,
    replaced: false,
    reloads: 0,
    failure: (what) => new Error(self.bindFailure?.message ?? `${what}:\n${self.tail.join('\n')}`),
    stop: () => (stopping ??= stopChild(child)),
  };
  const collect = (line: string) => {
    const plain = line.replace(/\x1b\[[0-9;]*m/g, '');
    if (plain.includes(`Ready on ${url}`)) self.announced = true;
    const bind = BIND_FAILURE.exec(plain);
    if (bind && !self.bindFailure) {
      const port = Number(bind[1]);
      self.bindFailure = {
        port,
        message: port === o.port && o.portSetting
          ? portInUseMessage(port, o.portSetting)
          : `Port ${port} on 127.0.0.1${port === inspectorPort ? ` (the ${o.label}'s debugger port)` : ''} is already in use: wrangler dev of the ${o.label} could not listen on it.`,
      };
    }
    // A reload drops requests in flight (wrangler answers a non-GET one 503): always worth a line,
    // even when the output is not echoed, so a test that met one says why.
    if (RELOAD.test(plain)) self.reloads++;
    if (!(o.echo ?? true) && RELOAD.test(plain)) process.stderr.write(`[${o.label}] wrangler reloaded the Worker (a source file changed?): requests in flight were dropped\n`);
    if (NOISE.test(line) || plain.startsWith('stack: ')) return;
    self.tail.push(line);
    if (self.tail.length > 40) self.tail.shift();
    if ((o.echo ?? true) && !self.replaced) process.stdout.write(`[${o.label}] ${line}\n`);
  };
  // Whole lines only: "Ready on" or a bind failure may arrive split over two chunks.
  for (const stream of [child.stdout!, child.stderr!]) {
    let rest = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop()!;
      lines.forEach(collect);
    });
    stream.on('end', () => rest && collect(rest));
  }
  return self;
}

/**
 * The debugger port for a Worker on `port`: the one beside it when free, else any free port
 * (it is only for attaching a debugger, so a taken one is no reason to stop).
 */
export async function debuggerPort(port: number): Promise<number> {
  const beside = inspectorPortFor(port);
  return (await portFree(beside).catch(() => false)) ? beside : freePort();
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
/**
 * Ports chosen for servers started later: below the kernels' ephemeral ranges (Linux 32768-60999,
 * macOS and Windows from 49152). A port the kernel handed out for `listen(0)` is an ephemeral one,
 * and between choosing it and the server listening on it (seconds: `npm start` builds the extension
 * first) the kernel may give it to any outgoing connection's local end, of which a test run makes
 * thousands; a fresh-clone run once lost npm start's proxy port so.
 */
const CHOSEN_PORTS = { from: 20_000, to: 32_000 } as const;

/** Whether 127.0.0.1:`port` can be listened on now. */
const canListen = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/** A port free now, chosen at random below the ephemeral range (see CHOSEN_PORTS). */
export async function freePort(random: () => number = Math.random): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = CHOSEN_PORTS.from + Math.floor(random() * (CHOSEN_PORTS.to - CHOSEN_PORTS.from));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port between ${CHOSEN_PORTS.from} and ${CHOSEN_PORTS.to} in 50 tries`);
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

/** The sandbox's settings that the environment may override (docs/sandbox.md). */
export const sandboxVars = () =>
  fromEnv(['SANDBOX_ACCOUNTS', 'SANDBOX_ASSET_SECONDS', 'SANDBOX_VIDEO_SECONDS', 'SANDBOX_PORTRAIT_SECONDS', 'SANDBOX_ALLOW_HTTP']);
