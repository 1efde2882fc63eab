/**
 * Process hygiene for the local stack's scripts (`npm start`, `npm run sandbox`, `npm run proxy`,
 * `npm run load`): every child runs as the leader of its own process group and is stopped as a
 * group, ports are checked before anything starts, and a script stops all it started on SIGINT,
 * SIGTERM, SIGHUP or when its parent goes away.
 *
 * Why package.json runs these scripts as `exec node --import tsx scripts/X.ts` rather than
 * `tsx scripts/X.ts`: npm runs a script through `sh -c`, and Debian's sh (dash) does not exec the
 * last command, so npm's SIGTERM/SIGINT reach only that shell, which dies (SIGTERM) or ignores it
 * (SIGINT) without passing it on; the tsx CLI would add one more process in between, and neither
 * npm nor tsx passes SIGHUP on at all. With `exec` and tsx as a loader, npm's own child is this
 * node process: npm forwards SIGINT and SIGTERM to it, and when npm itself goes (SIGHUP, SIGKILL)
 * our parent changes, which `onShutdown` notices.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends `signal` to every process of the group led by `pgid`; false when none is left. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A process's state letter and group from /proc (Linux); undefined when it is gone or unreadable. */
export function procStat(pid: number): { state: string; ppid: number; pgid: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid, pgid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: state!, ppid: Number(ppid), pgid: Number(pgid) };
  } catch {
    return undefined;
  }
}

/**
 * Whether any process of the group led by `pgid` is still running. On Linux, zombies (exited but
 * not yet reaped: a container's PID 1 may never reap them) do not count; they hold no port.
 */
export function groupAlive(pgid: number): boolean {
  if (!signalGroup(pgid, 0)) return false;
  if (!existsSync('/proc/self/stat')) return true;
  return readdirSync('/proc').some((entry) => {
    if (!/^\d+$/.test(entry)) return false;
    const stat = procStat(Number(entry));
    return stat !== undefined && stat.pgid === pgid && stat.state !== 'Z';
  });
}

async function waitGone(pgid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (groupAlive(pgid)) {
    if (Date.now() > until) return false;
    await sleep(100);
  }
  return true;
}

/**
 * Stops a whole process group (e.g. npx, wrangler and workerd): SIGTERM, then SIGKILL if any of
 * it is still alive after `graceMs`. Resolves once the group is gone (the wait is bounded).
 */
export async function stopGroup(pgid: number, graceMs = 5_000): Promise<void> {
  if (!signalGroup(pgid, 'SIGTERM')) return;
  if (await waitGone(pgid, graceMs)) return;
  signalGroup(pgid, 'SIGKILL');
  await waitGone(pgid, 3_000);
}

/** Stops a child spawned with `detached: true` (so leading its own group), and its group. */
export async function stopChild(child: ChildProcess, graceMs?: number): Promise<void> {
  if (child.pid === undefined) return;
  const exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((r) => child.once('exit', () => r()));
  await stopGroup(child.pid, graceMs);
  await Promise.race([exited, sleep(1_000)]);
}

export interface Shutdown {
  /** Stops what the script started (once), prints `message` to stderr if any, and exits with `code`. */
  stop(code: number, message?: string): Promise<never>;
  readonly stopping: boolean;
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Runs `cleanup` and exits when the script is asked to stop: SIGINT (Ctrl-C), SIGTERM, SIGHUP
 * (terminal closed), or its parent process gone (npm does not forward SIGHUP, and cannot forward
 * anything when it is killed). A signal stop exits 0. `stop` also serves the script's own
 * failures.
 */
export function onShutdown(cleanup: () => Promise<unknown>): Shutdown {
  let stopping: Promise<never> | undefined;
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid !== parent) void stop(0);
  }, 250);
  watch.unref();
  const stop = (code: number, message?: string): Promise<never> =>
    (stopping ??= (async () => {
      clearInterval(watch);
      if (message) console.error(message);
      try {
        await cleanup();
      } catch (error) {
        console.error(error);
      }
      process.exit(code);
    })());
  for (const signal of SIGNALS) process.on(signal, () => void stop(0));
  return {
    stop,
    get stopping() {
      return stopping !== undefined;
    },
  };
}

/** The npm command the user ran, for messages (`npm start`, `npm run sandbox`, ...), if one of ours. */
export function commandName(): string | undefined {
  const event = process.env.npm_lifecycle_event;
  return event === 'start' ? 'npm start' : event && ['sandbox', 'proxy', 'load'].includes(event) ? `npm run ${event}` : undefined;
}

/** A readable message for a port that something else holds, naming the setting that moves it. */
export function portInUseMessage(port: number, setting: string): string {
  const command = commandName();
  const other = port < 65_535 ? port + 1 : port - 1;
  return `Port ${port} on 127.0.0.1 is already in use (by another program, or an earlier ${command ?? 'run'} still running). ` +
    `Stop what holds it, or set ${setting} to a free port${command ? `: ${setting}=${other} ${command}` : ''}.`;
}

/** Whether nothing listens on 127.0.0.1:`port` (tried by listening on it and closing at once). */
export function portFree(port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve(false) : reject(error)));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/**
 * Checks that each port is free before anything starts; answers a readable message naming the
 * port and its setting for the first that is not, else undefined.
 */
export async function portProblem(ports: readonly { port: number; setting: string }[]): Promise<string | undefined> {
  for (const [i, { port, setting }] of ports.entries()) {
    const same = ports.slice(0, i).find((p) => p.port === port);
    if (same) return `${same.setting} and ${setting} are both ${port}: give each its own port.`;
    try {
      if (!(await portFree(port))) return portInUseMessage(port, setting);
    } catch (error) {
      return `Cannot listen on 127.0.0.1:${port} (${setting}): ${(error as Error).message}. Set ${setting} to another port.`;
    }
  }
  return undefined;
}
