import { mediaUrlProblem, outboundUrlProblem } from '../../../../shared';

/**
 * The proxy's configuration (docs/operating.md): what handlers and Durable Objects read. The
 * Worker's bindings (proxy-env.ts) add the bucket and the Durable Object namespaces on top.
 */
export interface ProxySettings {
  ASSET_API_BASE: string;
  VIDEO_API_BASE: string;
  ACCESS_KEY_ID: string;
  SECRET_ACCESS_KEY: string;
  VIDEO_API_KEY: string;
  ADMIN_TOKEN: string;
  ALLOWED_ORIGINS?: string;
  ALLOW_HTTP_MEDIA?: string;
  /** Milliseconds before a create answers 504 while the upstream call continues (default 25000). */
  UPSTREAM_TIMEOUT_MS?: string;
  /** Seconds between the proxy's queries of one task it follows (default 15; docs/budgets.md). */
  TRACK_INTERVAL_SECONDS?: string;
  /** Tasks the team may have running at the service at once (default 0: no cap; docs/queue.md). */
  UPSTREAM_MAX_RUNNING?: string;
  /** How often the proxy lists the assets it follows (default 5). */
  ASSET_CHECK_SECONDS?: string;
  /** Where budget alerts are POSTed as JSON with a `text` field (chat webhooks render it); none: not sent. */
  ALERT_WEBHOOK_URL?: string;
  /** The HMAC secret of signed media addresses (/media/...). */
  MEDIA_URL_SECRET?: string;
  /** How long a signed media address is valid (default 86400). */
  MEDIA_URL_TTL_SECONDS?: string;
  /** How long completed videos are kept in the media store (default 30; 0: not kept). */
  KEEP_OUTPUTS_DAYS?: string;
  /** Cloudflare Access team domain, e.g. https://acme.cloudflareaccess.com (docs/console.md). */
  ACCESS_TEAM_DOMAIN?: string;
  /** The Access application's audience tag. */
  ACCESS_AUD?: string;
  /** `off`: with Access configured, the admin token no longer signs in to the console. */
  ADMIN_TOKEN_SIGNIN?: string;
  /** The audience tag of the Access application in front of `/connect/access`: member sign-in (docs/identity.md). */
  MEMBER_ACCESS_AUD?: string;
  /** `on`: member sign-in makes an unknown email a new member. */
  ACCESS_AUTO_ENROLL?: string;
  /** The key under which members' secret access keys are kept encrypted (docs/identity.md); at least 32 characters. */
  ACCESS_KEY_SECRET?: string;
}

/** The secret values of the configuration: the logger and response scrubber never let them out. */
export const secretValues = (env: ProxySettings): string[] =>
  // A chat webhook's URL is itself a credential (Slack's, for one).
  [env.SECRET_ACCESS_KEY, env.VIDEO_API_KEY, env.ADMIN_TOKEN, env.ACCESS_KEY_ID, env.ALERT_WEBHOOK_URL, env.MEDIA_URL_SECRET, env.ACCESS_KEY_SECRET].filter((s): s is string => typeof s === 'string' && s.length >= 4);

/** The shortest ACCESS_KEY_SECRET taken: 32 characters, as many bytes as the AES key derived from it. */
export const ACCESS_KEY_SECRET_MIN = 32;

/** ACCESS_KEY_SECRET when set and long enough; null turns member access keys off (their creation answers 503). */
export const accessKeySecret = (env: ProxySettings): string | null =>
  typeof env.ACCESS_KEY_SECRET === 'string' && env.ACCESS_KEY_SECRET.length >= ACCESS_KEY_SECRET_MIN ? env.ACCESS_KEY_SECRET : null;

export const allowHttpMedia = (env: ProxySettings): boolean => env.ALLOW_HTTP_MEDIA === 'on';

/**
 * Why ALERT_WEBHOOK_URL is never posted to, or null (unset, or fine): the webhooks' own rule, shape
 * (shared/media-url.ts) and host (shared/outbound-url.ts); the proxy's origin where a request names it.
 * The answer names the host at most, never the URL (a chat webhook's URL is a credential).
 */
export function alertWebhookProblem(env: ProxySettings, selfOrigin?: string): string | null {
  const url = env.ALERT_WEBHOOK_URL;
  if (!url) return null;
  const allow = allowHttpMedia(env);
  const shape = mediaUrlProblem(url, { allowHttp: allow });
  return shape ?? outboundUrlProblem(url, { allowLoopback: allow, selfOrigin });
}

export const upstreamTimeoutMs = (env: ProxySettings): number => {
  const n = Number(env.UPSTREAM_TIMEOUT_MS);
  return Number.isFinite(n) && n > 0 ? n : 25_000;
};

/** TRACK_INTERVAL_SECONDS in milliseconds: at least one second, at most an hour. */
export const trackIntervalMs = (env: ProxySettings): number => {
  const n = Number(env.TRACK_INTERVAL_SECONDS);
  return Number.isFinite(n) && n >= 1 ? Math.min(n, 3600) * 1000 : 15_000;
};

/** UPSTREAM_MAX_RUNNING: a whole number of tasks, at most 10,000; 0 (or unset, or malformed) is no cap. */
export const upstreamMaxRunning = (env: ProxySettings): number => {
  const n = Number(env.UPSTREAM_MAX_RUNNING);
  return Number.isInteger(n) && n > 0 ? Math.min(n, 10_000) : 0;
};

/**
 * ASSET_CHECK_SECONDS in milliseconds: at least a second, at most a day; 5 s when unset. An asset is
 * usually ready within seconds and a member waits for it in the popup, hence shorter than tasks'.
 */
export const assetCheckMs = (env: ProxySettings): number => {
  const n = Number(env.ASSET_CHECK_SECONDS);
  return env.ASSET_CHECK_SECONDS && Number.isFinite(n) && n >= 1 ? Math.min(n, 86_400) * 1000 : 5_000;
};

/** MEDIA_URL_TTL_SECONDS: at least a minute, at most 7 days (the longest a signed address may live). */
export const mediaUrlTtlSeconds = (env: ProxySettings): number => {
  const n = Number(env.MEDIA_URL_TTL_SECONDS);
  return Number.isFinite(n) && n >= 60 ? Math.min(Math.floor(n), 7 * 86_400) : 86_400;
};

/** KEEP_OUTPUTS_DAYS: whole days, 0 turns keeping off; at most ten years. */
export const keepOutputsDays = (env: ProxySettings): number => {
  if (env.KEEP_OUTPUTS_DAYS === undefined || env.KEEP_OUTPUTS_DAYS === '') return 30;
  const n = Number(env.KEEP_OUTPUTS_DAYS);
  return Number.isFinite(n) && n >= 0 ? Math.min(Math.floor(n), 3650) : 30;
};

/** Names of required settings that are missing: answered by /healthz and at startup of each request. */
export function missingConfig(env: ProxySettings): string[] {
  const required = ['ASSET_API_BASE', 'VIDEO_API_BASE', 'ACCESS_KEY_ID', 'SECRET_ACCESS_KEY', 'VIDEO_API_KEY', 'ADMIN_TOKEN', 'MEDIA_URL_SECRET'] as const;
  return required.filter((name) => !env[name]);
}
