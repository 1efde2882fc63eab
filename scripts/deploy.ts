/**
 * `npm run deploy`: `wrangler deploy` of the proxy. The service origins come from the environment
 * (ASSET_API_BASE, VIDEO_API_BASE; optional ALLOWED_ORIGINS), never the local defaults in
 * wrangler.jsonc. Secrets are set once beforehand with `wrangler secret put` (README).
 */
import { spawnSync } from 'node:child_process';
import { ROOT, WORKERS_TSCONFIG } from './lib/wrangler-dev';

const required = ['ASSET_API_BASE', 'VIDEO_API_BASE'] as const;
const missing = required.filter((name) => !process.env[name]);
if (missing.length) {
  console.error(`Set ${missing.join(' and ')} to the service's origins, e.g.
  ASSET_API_BASE=https://<asset library host> VIDEO_API_BASE=https://<video host> npm run deploy
Before the first deploy, set the secrets (each prompts for its value):
  npx wrangler secret put ACCESS_KEY_ID -c worker/proxy/wrangler.jsonc
  npx wrangler secret put SECRET_ACCESS_KEY -c worker/proxy/wrangler.jsonc
  npx wrangler secret put VIDEO_API_KEY -c worker/proxy/wrangler.jsonc
  npx wrangler secret put ADMIN_TOKEN -c worker/proxy/wrangler.jsonc
  npx wrangler secret put MEDIA_URL_SECRET -c worker/proxy/wrangler.jsonc
and create the media store's bucket once:
  npx wrangler r2 bucket create arkbridge-media`);
  process.exit(1);
}
for (const name of required) {
  if (!process.env[name]!.startsWith('https://')) {
    console.error(`${name} must be an https:// origin for a deployment, got "${process.env[name]}".`);
    process.exit(1);
  }
}
const vars = ['ASSET_API_BASE', 'VIDEO_API_BASE', 'ALLOWED_ORIGINS'].flatMap((name) => (process.env[name] ? ['--var', `${name}:${process.env[name]}`] : []));
const result = spawnSync('npx', ['wrangler', 'deploy', '-c', 'worker/proxy/wrangler.jsonc', '--tsconfig', WORKERS_TSCONFIG, '--var', 'ALLOW_HTTP_MEDIA:off', ...vars, ...process.argv.slice(2)], {
  cwd: ROOT,
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
