/**
 * `npm start`: the local stack. The sandbox service on SANDBOX_PORT and the extension built to
 * .output/chrome-mv3. Runs until Ctrl-C; state persists under .wrangler/.
 */
import { spawnSync } from 'node:child_process';
import { portFrom, ROOT, sandboxVars, wranglerDev } from './lib/wrangler-dev';

const sandbox = wranglerDev('worker/sandbox/wrangler.jsonc', portFrom('SANDBOX_PORT', 8788), { SANDBOX_ALLOW_HTTP: 'on', ...sandboxVars() }, 'sandbox');
process.on('SIGINT', () => sandbox.stop());
sandbox.process.on('exit', (code) => process.exit(code ?? 0));

const build = spawnSync('npx', ['wxt', 'build', '-b', 'chrome'], { cwd: ROOT, stdio: 'inherit' });
if (build.status !== 0) {
  sandbox.stop();
  throw new Error('The extension build failed (see above).');
}
await sandbox.ready;
console.log(`
Arkbridge local stack
  sandbox service   ${sandbox.url}   (accounts in README.md)
  extension         ${ROOT}.output/chrome-mv3   (chrome://extensions -> Developer mode -> Load unpacked)
Press Ctrl-C to stop.`);
