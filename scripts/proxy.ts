/**
 * `npm run proxy`: only the proxy, on PROXY_PORT (default 8787). Each configuration name of
 * PROXY_CONFIG (scripts/lib/dev-vars.ts) comes from the environment variable of the same name
 * when set, else from .dev.vars (docs/operating.md, "Configuration"). Ctrl-C, SIGTERM, SIGHUP (or npm going away)
 * stop wrangler and workerd before it exits; a taken port exits 1 with a message naming it.
 */
import { featuresOff, PROXY_REQUIRED, proxyConfig } from './lib/dev-vars';
import { onShutdown, portProblem } from './lib/processes';
import { debuggerPort, portFrom, wranglerDev } from './lib/wrangler-dev';

const config = proxyConfig();
const missing = PROXY_REQUIRED.filter((n) => !config[n]);
if (missing.length) {
  console.error(`Missing configuration: ${missing.join(', ')}. Set them in the environment or in .dev.vars (npm start creates one).`);
  process.exit(1);
}
const port = portFrom('PROXY_PORT', 8787);
const problem = await portProblem([{ port, setting: 'PROXY_PORT' }]);
if (problem) {
  console.error(problem);
  process.exit(1);
}
const proxy = wranglerDev({ config: 'worker/proxy/wrangler.jsonc', port, portSetting: 'PROXY_PORT', inspectorPort: await debuggerPort(port), vars: config, label: 'proxy' });
const shutdown = onShutdown(() => proxy.stop());
void proxy.failed.then((error) => shutdown.stop(1, error.message));
await proxy.ready.catch((error: Error) => shutdown.stop(1, error.message));
console.log(`\nProxy ready at ${proxy.url} (upstream ${config.ASSET_API_BASE}). Press Ctrl-C to stop.`);
for (const note of featuresOff(config)) console.log(note);
