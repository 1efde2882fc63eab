/** `npm run sandbox`: only the sandbox service, on SANDBOX_PORT (default 8788). */
import { portFrom, sandboxVars, wranglerDev } from './lib/wrangler-dev';

const sandbox = wranglerDev({ config: 'worker/sandbox/wrangler.jsonc', port: portFrom('SANDBOX_PORT', 8788), vars: sandboxVars(), label: 'sandbox' });
process.on('SIGINT', () => void sandbox.stop());
process.on('SIGTERM', () => void sandbox.stop());
await sandbox.ready;
console.log(`
Sandbox service ready at ${sandbox.url}
  /api/v3 (signed)  dev: AKSANDBOXDEV / sandbox-dev-secret-key    other: AKSANDBOXOTHER / sandbox-other-secret-key
  /v1 (bearer)      dev: sk-sandbox-dev                            other: sk-sandbox-other
Press Ctrl-C to stop.`);
process.exitCode = (await sandbox.exited) ?? 0;
