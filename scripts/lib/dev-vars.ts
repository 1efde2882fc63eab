import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { ROOT } from './wrangler-dev';

/**
 * The proxy's configuration names (docs/operating.md, "Configuration"): the one list that `npm start` and
 * `npm run proxy` pass to the proxy from the environment, else `.dev.vars`. Names the proxy does
 * not read yet are harmless to pass.
 */
export const PROXY_CONFIG = [
  'ASSET_API_BASE', 'VIDEO_API_BASE', 'ACCESS_KEY_ID', 'SECRET_ACCESS_KEY', 'VIDEO_API_KEY', 'ADMIN_TOKEN',
  'ALLOWED_ORIGINS', 'ALLOW_HTTP_MEDIA', 'UPSTREAM_TIMEOUT_MS', 'TRACK_INTERVAL_SECONDS', 'ASSET_CHECK_SECONDS', 'ALERT_WEBHOOK_URL',
  'MEDIA_URL_SECRET', 'MEDIA_URL_TTL_SECONDS', 'KEEP_OUTPUTS_DAYS', 'ACCESS_TEAM_DOMAIN', 'ACCESS_AUD', 'ADMIN_TOKEN_SIGNIN',
  'MEMBER_ACCESS_AUD', 'ACCESS_AUTO_ENROLL', 'ACCESS_KEY_SECRET', 'UPSTREAM_MAX_RUNNING',
] as const;
export type ProxyConfigName = (typeof PROXY_CONFIG)[number];

/** Those of PROXY_CONFIG without which the proxy cannot serve. */
export const PROXY_REQUIRED: readonly ProxyConfigName[] = ['ASSET_API_BASE', 'VIDEO_API_BASE', 'ACCESS_KEY_ID', 'SECRET_ACCESS_KEY', 'VIDEO_API_KEY', 'ADMIN_TOKEN'];

/**
 * What is off for want of an optional setting, as `npm run proxy` says at start: the proxy serves
 * without them, as a deployed Worker does, and answers the parts that need them with a 503.
 */
export function featuresOff(config: Record<string, string>): string[] {
  const off: string[] = [];
  if (!config.MEDIA_URL_SECRET) {
    off.push('The media store is off: MEDIA_URL_SECRET is not set, so uploads and /media/ answer 503 media_store_not_configured (npm start generates one into .dev.vars).');
  }
  if ((config.ACCESS_KEY_SECRET ?? '').length < 32) {
    off.push('Member access keys are off: ACCESS_KEY_SECRET (at least 32 characters) is not set, so POST /proxy/access-keys answers 503 access_keys_not_configured (npm start generates one into .dev.vars).');
  }
  return off;
}

/** `.dev.vars` at the project root (ARKBRIDGE_DEV_VARS moves it, e.g. for tests). */
export const DEV_VARS = process.env.ARKBRIDGE_DEV_VARS ?? join(ROOT, '.dev.vars');

/** Parses a `.dev.vars` file (KEY=VALUE lines, # comments, optional quotes). */
export function parseDevVars(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^\s*([A-Z0-9_]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match || line.trim().startsWith('#')) continue;
    out[match[1]!] = match[2]!.replace(/^(['"])(.*)\1$/, '$2');
  }
  return out;
}

export const readDevVars = (): Record<string, string> => (existsSync(DEV_VARS) ? parseDevVars(readFileSync(DEV_VARS, 'utf8')) : {});

/** Secrets `npm start` generates when `.dev.vars` lacks them (also in a file of an earlier version). */
const GENERATED_SECRETS = {
  ADMIN_TOKEN: () => randomBytes(24).toString('base64url'),
  MEDIA_URL_SECRET: () => randomBytes(32).toString('base64url'),
  // Members' secret access keys are kept encrypted under it: losing it makes every access key unusable.
  ACCESS_KEY_SECRET: () => randomBytes(32).toString('base64url'),
} as const;

/**
 * Creates `.dev.vars` for the local stack when absent (the sandbox's `dev` account, fresh secrets),
 * or adds the generated secrets an existing one lacks. Answers what it did: the names it wrote,
 * `created` when the file is new, or null when nothing was needed.
 */
export function ensureDevVars(sandboxUrl: string, path = DEV_VARS): { created: boolean; added: string[] } | null {
  if (!existsSync(path)) {
    writeFileSync(
      path,
      `# Local configuration of the proxy (npm start / npm run proxy). Not committed.
# The sandbox's public dev account; for a real deployment use wrangler secrets (README).
ASSET_API_BASE=${sandboxUrl}
VIDEO_API_BASE=${sandboxUrl}
ACCESS_KEY_ID=AKSANDBOXDEV
SECRET_ACCESS_KEY=sandbox-dev-secret-key
VIDEO_API_KEY=sk-sandbox-dev
ADMIN_TOKEN=${GENERATED_SECRETS.ADMIN_TOKEN()}
MEDIA_URL_SECRET=${GENERATED_SECRETS.MEDIA_URL_SECRET()}
ACCESS_KEY_SECRET=${GENERATED_SECRETS.ACCESS_KEY_SECRET()}
ALLOW_HTTP_MEDIA=on
`,
      { mode: 0o600 },
    );
    return { created: true, added: Object.keys(GENERATED_SECRETS) };
  }
  const present = parseDevVars(readFileSync(path, 'utf8'));
  const missing = (Object.keys(GENERATED_SECRETS) as (keyof typeof GENERATED_SECRETS)[]).filter((name) => !present[name]);
  if (!missing.length) return null;
  const text = readFileSync(path, 'utf8');
  appendFileSync(path, `${text.endsWith('\n') || !text ? '' : '\n'}${missing.map((name) => `${name}=${GENERATED_SECRETS[name]()}`).join('\n')}\n`);
  return { created: false, added: missing };
}

/** Configuration for `npm run proxy` (and `npm start`): each of PROXY_CONFIG from the environment, else `.dev.vars`. */
export function proxyConfig(env: NodeJS.ProcessEnv = process.env, file: Record<string, string> = readDevVars()): Record<string, string> {
  return Object.fromEntries(PROXY_CONFIG.flatMap((name) => {
    const value = env[name] ?? file[name];
    return value === undefined ? [] : [[name, value]];
  }));
}
