import { API_VERSION, type Action } from '../../../../shared';
import type { ProxySettings } from '../settings/proxy-settings';
import { Signer } from '../signing/signer';

/** What the proxy needs of an upstream answer. */
export interface Upstream {
  status: number;
  body: string;
  retryAfter: string | null;
}

/** Upstream calls give up after this long even when nobody waits for them any more. */
const HARD_LIMIT_MS = 120_000;

/** Sends a call; with `timeoutMs` it is abandoned then (rejecting with a TimeoutError, see `isTimeout`). */
async function send(url: URL | string, init: RequestInit, timeoutMs = HARD_LIMIT_MS): Promise<Upstream> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(Math.min(timeoutMs, HARD_LIMIT_MS)) });
  return { status: response.status, body: await response.text(), retryAfter: response.headers.get('retry-after') };
}

// One signer per isolate and key pair: its signing key is derived once a day, not per request.
let signer: { id: string; secret: string; signer: Signer } | null = null;
function signerFor(env: ProxySettings): Signer {
  if (!signer || signer.id !== env.ACCESS_KEY_ID || signer.secret !== env.SECRET_ACCESS_KEY) {
    signer = { id: env.ACCESS_KEY_ID, secret: env.SECRET_ACCESS_KEY, signer: new Signer({ accessKeyId: env.ACCESS_KEY_ID, secretAccessKey: env.SECRET_ACCESS_KEY }) };
  }
  return signer.signer;
}

// Each operation's URL, resolved against the base once: the signer takes it as a string, which it
// then neither parses nor serializes again.
const libraryUrls = new Map<string, string>();
function libraryUrl(base: string, action: Action): string {
  const key = `${action} ${base}`;
  let url = libraryUrls.get(key);
  if (url === undefined) {
    if (libraryUrls.size >= 64) libraryUrls.clear(); // a dozen operations per base; more means the base changed
    libraryUrls.set(key, (url = new URL(`/api/v3?Action=${action}&Version=${API_VERSION}`, base).href));
  }
  return url;
}

/** Whether a call was abandoned at its deadline. */
export const isTimeout = (error: unknown): boolean => error instanceof Error && error.name === 'TimeoutError';

/** A signed `/api/v3` call over the exact bytes sent. */
export async function libraryCall(env: ProxySettings, action: Action, params: unknown, timeoutMs?: number): Promise<Upstream> {
  const url = libraryUrl(env.ASSET_API_BASE, action);
  const signed = await signerFor(env).sign(url, JSON.stringify(params));
  return send(url, { method: 'POST', headers: signed.headers, body: signed.body }, timeoutMs);
}

/** A `/v1` call with the team's `sk-` key. */
export function videoCall(env: ProxySettings, method: 'GET' | 'POST', path: string, body?: string, timeoutMs?: number): Promise<Upstream> {
  const headers: Record<string, string> = { Authorization: `Bearer ${env.VIDEO_API_KEY}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  return send(new URL(path, env.VIDEO_API_BASE), { method, headers, body }, timeoutMs);
}

/** Resolves with the call's result, or `null` once `ms` have passed (the call itself goes on). */
export function withDeadline<T>(call: Promise<T>, ms: number): Promise<T | null> {
  let timer: ReturnType<typeof setTimeout>;
  const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  return Promise.race([call.finally(() => clearTimeout(timer)), timeout]);
}
