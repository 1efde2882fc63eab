/**
 * The sandbox's settings (docs/sandbox.md): what its Durable Object and state modules read. The
 * Worker's bindings (env.ts) add the Durable Object namespace on top, so no state module depends
 * on the class that imports it.
 */
export interface SandboxSettings {
  /** JSON list of {name, accessKeyId, secretAccessKey, apiKey}; two defaults when unset. */
  SANDBOX_ACCOUNTS?: string;
  SANDBOX_ASSET_SECONDS?: string;
  SANDBOX_VIDEO_SECONDS?: string;
  SANDBOX_PORTRAIT_SECONDS?: string;
  SANDBOX_ALLOW_HTTP?: string;
  /** Tasks an account may have `queued` or `in_progress` at once; 0 (default): no limit. */
  SANDBOX_MAX_RUNNING?: string;
}

export interface SandboxTiming {
  assetSeconds: number;
  videoSeconds: number;
  portraitSeconds: number;
  allowHttp: boolean;
  /** SANDBOX_MAX_RUNNING (state/running-limit.ts). */
  maxRunning: number;
}

const seconds = (raw: string | undefined, fallback: number, name: string): number => {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number of seconds, got "${raw}"`);
  return value;
};

const count = (raw: string | undefined, name: string): number => {
  if (raw === undefined || raw === '') return 0;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, 0 or more, got "${raw}"`);
  return value;
};

/** Reads the timing settings, failing loudly on a malformed value. */
export const readTiming = (env: SandboxSettings): SandboxTiming => ({
  assetSeconds: seconds(env.SANDBOX_ASSET_SECONDS, 3, 'SANDBOX_ASSET_SECONDS'),
  videoSeconds: seconds(env.SANDBOX_VIDEO_SECONDS, 12, 'SANDBOX_VIDEO_SECONDS'),
  portraitSeconds: seconds(env.SANDBOX_PORTRAIT_SECONDS, 300, 'SANDBOX_PORTRAIT_SECONDS'),
  allowHttp: env.SANDBOX_ALLOW_HTTP === 'on',
  maxRunning: count(env.SANDBOX_MAX_RUNNING, 'SANDBOX_MAX_RUNNING'),
});
