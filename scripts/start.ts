/**
 * `npm start`: the local stack (README.md, "Commands"). The sandbox on SANDBOX_PORT, the proxy on
 * PROXY_PORT wired to it, a dev member created if missing, and the extension built to
 * .output/chrome-mv3 with the local proxy URL preset. Runs until Ctrl-C, SIGTERM or SIGHUP (or npm
 * going away), which stop every process it started (wrangler, workerd, the build) before it exits;
 * a taken port exits 1 with a message naming it, before anything starts (scripts/lib/processes.ts).
 * State stays in .wrangler/.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve as resolvePath } from 'node:path';
import { AdminClient } from './lib/admin-client';
import { DEV_VARS, ensureDevVars, proxyConfig } from './lib/dev-vars';
import { onShutdown, portProblem, stopChild } from './lib/processes';
import { debuggerPort, portFrom, ROOT, sandboxVars, wranglerDev } from './lib/wrangler-dev';

const sandboxPort = portFrom('SANDBOX_PORT', 8788);
const proxyPort = portFrom('PROXY_PORT', 8787);
const problem = await portProblem([{ port: sandboxPort, setting: 'SANDBOX_PORT' }, { port: proxyPort, setting: 'PROXY_PORT' }]);
if (problem) {
  console.error(problem);
  process.exit(1);
}
const [sandboxInspector, proxyInspector] = [await debuggerPort(sandboxPort), await debuggerPort(proxyPort)];
// Where the stack keeps its state (ARKBRIDGE_STATE_DIR moves it, e.g. for tests).
const stateDir = process.env.ARKBRIDGE_STATE_DIR ?? join(ROOT, '.wrangler');
const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
const wrote = ensureDevVars(sandboxUrl);
if (wrote?.created) console.log(`Created ${DEV_VARS} for local use (sandbox dev account, fresh admin token and media signing secret).`);
else if (wrote) console.log(`Added ${wrote.added.join(', ')} to ${DEV_VARS} (generated).`);

// The proxy always talks to this stack's sandbox; the rest of its configuration comes from .dev.vars.
const config: Record<string, string> = { ...proxyConfig(), ASSET_API_BASE: sandboxUrl, VIDEO_API_BASE: sandboxUrl, ALLOW_HTTP_MEDIA: 'on' };
// One state folder per Worker: two workerd processes on one folder can lock each other's SQLite files.
const persistTo = (label: string) => join(stateDir, 'state', label);
const sandbox = wranglerDev({ config: 'worker/sandbox/wrangler.jsonc', port: sandboxPort, portSetting: 'SANDBOX_PORT', inspectorPort: sandboxInspector, vars: { SANDBOX_ALLOW_HTTP: 'on', ...sandboxVars() }, label: 'sandbox', persistTo: persistTo('sandbox') });
const proxy = wranglerDev({ config: 'worker/proxy/wrangler.jsonc', port: proxyPort, portSetting: 'PROXY_PORT', inspectorPort: proxyInspector, vars: config, label: 'proxy', persistTo: persistTo('proxy') });
let build: ChildProcess | undefined;
const shutdown = onShutdown(() => Promise.all([sandbox.stop(), proxy.stop(), build && stopChild(build)]));
for (const worker of [sandbox, proxy]) void worker.failed.then((error) => shutdown.stop(1, error.message));

console.log('Building the extension...');
// Its own process group too (detached), so that a stop takes the build down with the rest.
build = spawn('npx', ['wxt', 'build', '-b', 'chrome'], { cwd: ROOT, detached: true, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, WXT_DEFAULT_PROXY_URL: proxy.url } });
const built = new Promise<number | null>((resolve) => build!.once('exit', resolve));
try {
  await Promise.all([sandbox.ready, proxy.ready]);
} catch (error) {
  await shutdown.stop(1, (error as Error).message);
}
if ((await built) !== 0) await shutdown.stop(1, 'The extension build failed (see above).');

/** The dev member's token, kept in .wrangler/ next to the state it belongs to. */
async function devMember(): Promise<{ id: string; token: string }> {
  const file = join(stateDir, 'dev-member.json');
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { id: string; token: string };
    const me = await fetch(`${proxy.url}/proxy/me`, { headers: { Authorization: `Bearer ${saved.token}` } });
    if (me.ok) return saved;
  }
  const created = await new AdminClient(proxy.url, config.ADMIN_TOKEN!).add('dev');
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(file, JSON.stringify({ id: created.id, token: created.token }), { mode: 0o600 });
  return created;
}
const member = await devMember().catch((error: Error) => shutdown.stop(1, `Could not create the dev member: ${error.message}`));

console.log(`
Arkbridge local stack is running.
  Proxy URL          ${proxy.url}
  Dev member token   ${member.token}
  Extension folder   ${join(resolvePath(ROOT, process.env.ARKBRIDGE_OUT_DIR ?? '.output'), 'chrome-mv3')}
                     (chrome://extensions -> Developer mode -> Load unpacked; then paste the token in its options)
  Sandbox service    ${sandbox.url}   (its accounts and test helpers: README.md)
Try it:  curl -X POST '${proxy.url}/api/v3?Action=CreateAssetGroup&Version=2024-01-01' \\
           -H 'Authorization: Bearer ${member.token}' -H 'Content-Type: application/json' -d '{"Name":"My first group"}'
Press Ctrl-C to stop.`);
