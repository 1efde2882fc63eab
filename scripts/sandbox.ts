/** `npm run sandbox`: only the sandbox service, on SANDBOX_PORT (default 8788). */
import { portFrom, sandboxVars, wranglerDev } from './lib/wrangler-dev';

const sandbox = wranglerDev('worker/sandbox/wrangler.jsonc', portFrom('SANDBOX_PORT', 8788), sandboxVars(), 'sandbox');
await sandbox.ready;
console.log(`\nSandbox service ready at ${sandbox.url}
  /api/v3 (signed)  accounts: dev (AKSANDBOXDEV / sandbox-dev-secret-key), other (AKSANDBOXOTHER / sandbox-other-secret-key)
  /v1 (bearer)      keys: sk-sandbox-dev, sk-sandbox-other
Press Ctrl-C to stop.`);
process.on('SIGINT', () => sandbox.stop());
sandbox.process.on('exit', (code) => process.exit(code ?? 0));
