/**
 * `npm run sandbox`: only the sandbox service, on SANDBOX_PORT (default 8788). Ctrl-C, SIGTERM,
 * SIGHUP (or npm going away) stop wrangler and workerd before it exits; a taken port exits 1 with
 * a message naming it (scripts/lib/processes.ts).
 */
import { onShutdown, portProblem } from './lib/processes';
import { debuggerPort, portFrom, sandboxVars, wranglerDev } from './lib/wrangler-dev';

const port = portFrom('SANDBOX_PORT', 8788);
const problem = await portProblem([{ port, setting: 'SANDBOX_PORT' }]);
if (problem) {
  console.error(problem);
  process.exit(1);
}
const sandbox = wranglerDev({ config: 'worker/sandbox/wrangler.jsonc', port, portSetting: 'SANDBOX_PORT', inspectorPort: await debuggerPort(port), vars: sandboxVars(), label: 'sandbox' });
const shutdown = onShutdown(() => sandbox.stop());
void sandbox.failed.then((error) => shutdown.stop(1, error.message));
await sandbox.ready.catch((error: Error) => shutdown.stop(1, error.message));
console.log(`
Sandbox service ready at ${sandbox.url}
  /api/v3 (signed)  dev: AKSANDBOXDEV / sandbox-dev-secret-key    other: AKSANDBOXOTHER / sandbox-other-secret-key
  /v1 (bearer)      dev: sk-sandbox-dev                            other: sk-sandbox-other
Press Ctrl-C to stop.`);
