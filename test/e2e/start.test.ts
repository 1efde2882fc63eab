/**
 * `npm start` as a newcomer runs it: on free ports, with fresh state and no .dev.vars, it must
 * print a proxy URL and a dev member token with which a plain HTTP call creates a group.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { freePort, ROOT } from '../../scripts/lib/wrangler-dev';

let child: ChildProcess | undefined;
let dir: string | undefined;

afterAll(async () => {
  if (child?.pid) {
    try {
      process.kill(-child.pid, 'SIGINT');
    } catch {
      /* gone */
    }
    await new Promise((r) => (child!.exitCode !== null ? r(null) : child!.once('exit', r)));
  }
  if (dir) await rm(dir, { recursive: true, force: true });
});

test('npm start prints a working proxy URL and dev member token', async () => {
  dir = await mkdtemp(join(tmpdir(), 'arkbridge-start-'));
  const [sandboxPort, proxyPort] = [await freePort(), await freePort()];
  const devVars = join(dir, '.dev.vars');
  child = spawn('npm', ['start'], {
    cwd: ROOT,
    detached: true,
    env: { ...process.env, SANDBOX_PORT: String(sandboxPort), PROXY_PORT: String(proxyPort), ARKBRIDGE_STATE_DIR: join(dir, 'state'), ARKBRIDGE_DEV_VARS: devVars },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const until = Date.now() + 120_000;
  while (!/Dev member token\s+(\S+)/.test(output)) {
    if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output}`);
    if (Date.now() > until) throw new Error(`npm start printed no token in time:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const proxyUrl = /Proxy URL\s+(\S+)/.exec(output)![1]!;
  const token = /Dev member token\s+(\S+)/.exec(output)![1]!;
  expect(proxyUrl).toBe(`http://127.0.0.1:${proxyPort}`);
  expect(token).toMatch(/^abk_m[0-9a-f]{16}_/);
  expect(output).toContain(join(ROOT, '.output', 'chrome-mv3'));

  // .dev.vars was created for local use, private to the user, with a fresh admin token.
  expect(existsSync(devVars)).toBe(true);
  expect(statSync(devVars).mode & 0o077).toBe(0);
  const vars = await readFile(devVars, 'utf8');
  expect(vars).toMatch(/^ADMIN_TOKEN=\S{20,}$/m);
  // ... and a media signing secret of its own.
  const mediaSecret = /^MEDIA_URL_SECRET=(\S{32,})$/m.exec(vars)?.[1];
  expect(mediaSecret).toBeDefined();

  const response = await fetch(`${proxyUrl}/api/v3?Action=CreateAssetGroup&Version=2024-01-01`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ Name: 'My first group' }),
  });
  const envelope = (await response.json()) as { Result?: { Id: string }; ResponseMetadata: { Error?: unknown } };
  expect(response.status).toBe(200);
  expect(envelope.ResponseMetadata.Error).toBeUndefined();
  expect(envelope.Result?.Id).toMatch(/^group-/);

  // The media store works in the local stack (local R2, the generated secret): an upload comes back.
  const png = await readFile(join(ROOT, 'test/fixtures/media/sample.png'));
  const uploaded = await fetch(`${proxyUrl}/proxy/uploads`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'image/png' }, body: png });
  expect(uploaded.status).toBe(201);
  const { url } = (await uploaded.json()) as { url: string };
  expect(Buffer.from(await (await fetch(url)).arrayBuffer()).equals(png)).toBe(true);

  // The extension was built with the local proxy preset, and without any token in it.
  const built = join(ROOT, '.output', 'chrome-mv3');
  const scripts = (await readdir(built, { recursive: true })).filter((f) => f.endsWith('.js'));
  const bundle = (await Promise.all(scripts.map((f) => readFile(join(built, f), 'utf8')))).join('\n');
  expect(bundle).toContain(proxyUrl);
  expect(bundle).not.toContain(token);
  for (const secret of [mediaSecret!, /^ADMIN_TOKEN=(\S+)$/m.exec(vars)![1]!]) expect(bundle).not.toContain(secret);
  expect(bundle).not.toMatch(/abk_m[0-9a-f]{16}_/);
});
