/**
 * The local stack's scripts leave nothing behind: a signal to the `npm` process (SIGTERM, SIGINT,
 * SIGHUP) or to the script under it frees every port within seconds and no process of the run
 * (node, wrangler, workerd, the extension build) survives. A taken port ends the command at once
 * with a message naming the port and its setting. Linux only (reads /proc).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { AdminClient } from '../../scripts/lib/admin-client';
import { procStat } from '../../scripts/lib/processes';
import { freePort, ROOT, wranglerDev } from '../../scripts/lib/wrangler-dev';
import { TEST_PROXY_SECRETS } from '../support/sandbox';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** How long a stop may take at most: a generous bound, not a timing requirement. */
const STOP_BOUND_MS = 10_000;

interface Run {
  npm: ChildProcess;
  output: () => string;
  /** The processes under npm once it was up, recorded before any signal. */
  recorded?: number[];
}
const runs: Run[] = [];
const cleanups: (() => unknown)[] = [];

afterEach(async () => {
  // Whatever a failed test left: the npm group, the processes recorded, temp folders, holders.
  for (const run of runs.splice(0)) {
    for (const pid of [run.npm.pid!, ...(run.recorded ?? []).filter(alive)]) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
  }
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Runs `npm <args>` as npm's own process group, as a terminal would; signals go to npm alone. */
function npm(args: string[], env: Record<string, string>): Run {
  const child = spawn('npm', args, { cwd: ROOT, detached: true, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout!.on('data', (c: Buffer) => (text += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (text += c.toString()));
  const run = { npm: child, output: () => text };
  runs.push(run);
  return run;
}

const exitOf = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise<number | null>((r) => child.once('exit', (code) => r(code)));

async function tempDir(label: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `arkbridge-${label}-`));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Every live (not zombie) descendant of `root`, by parent pid, from /proc. */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(Number(entry));
    if (!stat || stat.state === 'Z') continue;
    children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), Number(entry)]);
  }
  const out: number[] = [];
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      out.push(child);
      walk(child);
    }
  };
  walk(root);
  return out;
}

const alive = (pid: number) => {
  const stat = procStat(pid);
  return stat !== undefined && stat.state !== 'Z';
};
const command = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return '(gone)';
  }
};

/** Whether something accepts connections on 127.0.0.1:`port`. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

async function until(what: string, check: () => boolean | Promise<boolean>, ms: number, run?: Run): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms${run ? `\n--- output ---\n${run.output()}` : ''}`);
    await sleep(100);
  }
}

/** Waits until `url` answers 200 (the run must not exit meanwhile). */
async function answers(run: Run, url: string, ms = 90_000): Promise<void> {
  await until(
    `${url} answering`,
    async () => {
      if (run.npm.exitCode !== null) throw new Error(`npm exited early (${run.npm.exitCode}):\n${run.output()}`);
      return fetch(url, { signal: AbortSignal.timeout(2_000) }).then((r) => r.ok, () => false);
    },
    ms,
    run,
  );
}

/**
 * Sends `signal` to `target` and asserts that, within the bound, the ports are free, npm has
 * exited and none of the processes that ran under npm survives.
 */
async function expectAllStopped(run: Run, signal: NodeJS.Signals, ports: number[], target = run.npm.pid!): Promise<void> {
  const before = (run.recorded = descendants(run.npm.pid!));
  // Not vacuous: the run's workerd processes are among those recorded.
  expect(before.map(command).filter((c) => c.includes('workerd')).length, before.map(command).join('\n')).toBeGreaterThan(0);
  const npmExit = exitOf(run.npm);
  process.kill(target, signal);
  for (const port of ports) await until(`port ${port} free after ${signal}`, async () => !(await listening(port)), STOP_BOUND_MS, run);
  await until(`npm exited after ${signal}`, () => run.npm.exitCode !== null || run.npm.signalCode !== null, STOP_BOUND_MS, run);
  await npmExit;
  await until(
    `every process of the run gone after ${signal}`,
    () => before.every((pid) => !alive(pid)),
    STOP_BOUND_MS,
    { ...run, output: () => `${run.output()}\n--- still alive ---\n${before.filter(alive).map((p) => `${p} ${command(p)}`).join('\n')}` },
  );
}

/** Holds 127.0.0.1:`port` with a server that answers HTTP, as a forgotten dev server would. */
async function holdPort(port: number): Promise<Server> {
  const server = createServer((socket) => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok'));
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((r) => server.close(r)));
  return server;
}

describe('signals stop every process', () => {
  test('npm start: SIGTERM to npm frees both ports and leaves no process behind', async () => {
    const dir = await tempDir('start-sig');
    const [sandboxPort, proxyPort] = [await freePort(), await freePort()];
    const run = npm(['start'], {
      SANDBOX_PORT: String(sandboxPort),
      PROXY_PORT: String(proxyPort),
      ARKBRIDGE_STATE_DIR: join(dir, 'state'),
      ARKBRIDGE_DEV_VARS: join(dir, '.dev.vars'),
      // Its own build folder: start.test.ts, running beside this file, builds into .output.
      ARKBRIDGE_OUT_DIR: join(dir, 'output'),
    });
    await answers(run, `http://127.0.0.1:${proxyPort}/healthz`);
    // Usually the extension build is still running now: it must go too.
    await expectAllStopped(run, 'SIGTERM', [sandboxPort, proxyPort]);
  });

  for (const signal of ['SIGHUP', 'SIGINT'] as const) {
    test(`npm run sandbox: ${signal} to npm frees the port and leaves no process behind`, async () => {
      const port = await freePort();
      const run = npm(['run', 'sandbox'], { SANDBOX_PORT: String(port) });
      await answers(run, `http://127.0.0.1:${port}/`);
      await expectAllStopped(run, signal, [port]);
    });
  }

  test('npm run proxy: SIGTERM to the script under npm (npm\'s own child) stops it all the same', async () => {
    const port = await freePort();
    const run = npm(['run', 'proxy'], { PROXY_PORT: String(port), ASSET_API_BASE: 'http://127.0.0.1:9', VIDEO_API_BASE: 'http://127.0.0.1:9', ...TEST_PROXY_SECRETS });
    await answers(run, `http://127.0.0.1:${port}/healthz`);
    const script = descendants(run.npm.pid!).find((pid) => procStat(pid)?.ppid === run.npm.pid)!;
    expect(command(script)).toContain('scripts/proxy.ts');
    await expectAllStopped(run, 'SIGTERM', [port], script);
  });
});

describe('optional settings', () => {
  test('npm run proxy without MEDIA_URL_SECRET starts, says the media store is off, and uploads answer 503', async () => {
    const dir = await tempDir('no-media');
    const port = await freePort();
    const { MEDIA_URL_SECRET: _unset, ...secrets } = TEST_PROXY_SECRETS;
    const run = npm(['run', 'proxy'], {
      PROXY_PORT: String(port),
      ASSET_API_BASE: 'http://127.0.0.1:9',
      VIDEO_API_BASE: 'http://127.0.0.1:9',
      ARKBRIDGE_DEV_VARS: join(dir, '.dev.vars'),
      ...secrets,
    });
    await answers(run, `http://127.0.0.1:${port}/healthz`);
    await until('the media store note', () => run.output().includes('The media store is off: MEDIA_URL_SECRET is not set'), 10_000, run);
    const member = await new AdminClient(`http://127.0.0.1:${port}`, secrets.ADMIN_TOKEN).add('no-media');
    const upload = await fetch(`http://127.0.0.1:${port}/proxy/uploads?name=a.png`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${member.token}`, 'Content-Type': 'image/png' },
      body: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    });
    expect(upload.status).toBe(503);
    expect(((await upload.json()) as { error: { code: string } }).error.code).toBe('media_store_not_configured');
    await expectAllStopped(run, 'SIGTERM', [port]);
  });
});

describe('a taken port', () => {
  const cases = [
    { args: ['run', 'sandbox'], setting: 'SANDBOX_PORT', env: {} },
    { args: ['run', 'proxy'], setting: 'PROXY_PORT', env: { ASSET_API_BASE: 'http://127.0.0.1:9', VIDEO_API_BASE: 'http://127.0.0.1:9', ...TEST_PROXY_SECRETS } },
    { args: ['start'], setting: 'PROXY_PORT', env: {} },
  ];
  for (const { args, setting, env } of cases) {
    test(`npm ${args.join(' ')} exits non-zero naming the port and ${setting}, having started nothing`, async () => {
      const dir = await tempDir('taken');
      const taken = await freePort();
      await holdPort(taken);
      const ports = { SANDBOX_PORT: String(await freePort()), PROXY_PORT: String(await freePort()), [setting]: String(taken) };
      const run = npm(args, { ...ports, ...env, ARKBRIDGE_STATE_DIR: join(dir, 'state'), ARKBRIDGE_DEV_VARS: join(dir, '.dev.vars'), ARKBRIDGE_OUT_DIR: join(dir, 'output') });
      const code = await Promise.race([exitOf(run.npm), sleep(20_000).then(() => 'still running')]);
      expect(code, run.output()).not.toBe(0);
      expect(code, run.output()).not.toBe('still running');
      expect(run.output()).toMatch(new RegExp(`Port ${taken} .*already in use.*${setting}`));
      expect(run.output()).not.toContain('wrangler');
      expect(existsSync(join(dir, '.dev.vars'))).toBe(false);
    });
  }

  test('wrangler failing to bind is reported with the port, even while another server answers there', async () => {
    const dir = await tempDir('bind');
    const port = await freePort();
    await holdPort(port); // taken after any check: wrangler itself finds it taken
    const worker = wranglerDev({ config: 'worker/sandbox/wrangler.jsonc', port, portSetting: 'SANDBOX_PORT', persistTo: dir, label: 'sandbox', echo: false });
    cleanups.push(() => worker.stop());
    await expect(worker.ready).rejects.toThrow(new RegExp(`Port ${port} .*already in use.*SANDBOX_PORT`));
    await worker.stop();
    expect(existsSync(`/proc/${worker.pid}`) && alive(worker.pid)).toBe(false);
  });

  test('a debugger port taken after it was chosen: wrangler starts again on another one, and the Worker answers', async () => {
    const dir = await tempDir('debugger');
    const [port, debuggerPort] = [await freePort(), await freePort()];
    await holdPort(debuggerPort); // taken between choosing it and wrangler listening on it
    const worker = wranglerDev({ config: 'worker/sandbox/wrangler.jsonc', port, inspectorPort: debuggerPort, persistTo: dir, label: 'sandbox', echo: false });
    cleanups.push(() => worker.stop());
    const first = worker.pid;
    await worker.ready;
    expect(worker.pid).not.toBe(first);
    expect(alive(first)).toBe(false);
    expect((await fetch(`${worker.url}/sandbox/stats`)).status).toBe(200);
    await worker.stop();
    expect(alive(worker.pid)).toBe(false);
    expect(await worker.exited).not.toBe(undefined);
  });
});

describe('an extension build beside a running Worker', () => {
  /** How long esbuild's watcher is given to notice a change (it polls; a change it watches is seen in 1 to 4 s here). */
  const NOTICE_MS = 8_000;

  test('rewriting .wxt/tsconfig.json (as every wxt build does) does not reload the Worker and drop its requests', async () => {
    const dir = await tempDir('wxt-rewrite');
    const worker = wranglerDev({ config: 'worker/sandbox/wrangler.jsonc', port: await freePort(), persistTo: dir, label: 'sandbox', echo: false });
    cleanups.push(() => worker.stop());
    await worker.ready;
    const generated = join(ROOT, '.wxt', 'tsconfig.json');
    // The same content, as a build writes it: any write is a change to esbuild's watcher.
    writeFileSync(generated, readFileSync(generated));
    // A bounded look, not a deadline: a reload would show in it; none can appear without one.
    await sleep(NOTICE_MS);
    expect(worker.reloads, 'the Worker reloaded after .wxt/tsconfig.json was written').toBe(0);
    expect((await fetch(`${worker.url}/sandbox/stats`)).status).toBe(200);
  });
});
