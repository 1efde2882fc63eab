/**
 * `npm run proxy`: only the proxy, on PROXY_PORT (default 8787). Configuration comes from
 * environment variables of the same names when set, else from .dev.vars (contract section 2).
 */
import { proxyConfig } from './lib/dev-vars';
import { portFrom, wranglerDev } from './lib/wrangler-dev';

const config = proxyConfig();
const missing = ['ASSET_API_BASE', 'VIDEO_API_BASE', 'ACCESS_KEY_ID', 'SECRET_ACCESS_KEY', 'VIDEO_API_KEY', 'ADMIN_TOKEN'].filter((n) => !config[n]);
if (missing.length) {
  console.error(`Missing configuration: ${missing.join(', ')}. Set them in the environment or in .dev.vars (npm start creates one).`);
  process.exit(1);
}
const proxy = wranglerDev({ config: 'worker/proxy/wrangler.jsonc', port: portFrom('PROXY_PORT', 8787), vars: config, label: 'proxy' });
process.on('SIGINT', () => void proxy.stop());
process.on('SIGTERM', () => void proxy.stop());
await proxy.ready;
console.log(`\nProxy ready at ${proxy.url} (upstream ${config.ASSET_API_BASE}). Press Ctrl-C to stop.`);
process.exitCode = (await proxy.exited) ?? 0;
