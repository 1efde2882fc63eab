/// <reference path="../../../test/support/provided-context.d.ts" />
import { env, exports } from 'cloudflare:workers';
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import app from '../index';
import type { SandboxEnv } from '../env';
import { Signer } from '../../../shared/signing/signer';
import { DEFAULT_ACCOUNTS, type Account } from '../accounts';
import { API_VERSION, type Action } from '../../../shared';
import { waitFor as pollUntil } from '../../../test/support/poll-until';

/** Helpers for the sandbox's integration tests: signed /api/v3 calls and bearer /v1 calls. */

export const ORIGIN = 'http://sandbox.test';
export const [DEV, OTHER] = DEFAULT_ACCOUNTS as [Account, Account];

export const sandboxFetch = (input: string, init?: RequestInit): Promise<Response> =>
  (exports as unknown as { default: { fetch(r: Request): Promise<Response> } }).default.fetch(new Request(new URL(input, ORIGIN), init));

/**
 * The sandbox's app called in this isolate with the real bindings (the same Durable Object as
 * `sandboxFetch`). For tests that send thousands of requests (fuzzing): each call through the
 * pool's `exports.default.fetch` costs more than the one before (200 calls take 1.4 s, the next 200
 * 7.5 s, the next 20 s), while this stays at a few milliseconds a call.
 */
export async function appFetch(input: string, init?: RequestInit): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await app.fetch(new Request(new URL(input, ORIGIN), init), env as unknown as SandboxEnv, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

export interface CallOptions {
  account?: Account;
  /** Signing time (default now). */
  date?: Date;
  /** Changes the request after signing, to test tampering. */
  tamper?: (req: { url: URL; headers: Record<string, string>; body: Uint8Array }) => void;
  version?: string;
  rawBody?: string;
}

/** A signed `/api/v3` call; answers the HTTP status and the parsed envelope. */
export async function api<R = any>(action: Action | string, body: unknown = {}, options: CallOptions = {}) {
  const account = options.account ?? DEV;
  const url = new URL(`/api/v3?Action=${encodeURIComponent(action)}&Version=${options.version ?? API_VERSION}`, ORIGIN);
  const signed = await new Signer(account).sign(url, options.rawBody ?? JSON.stringify(body), options.date);
  const req = { url, headers: { ...signed.headers }, body: signed.body };
  options.tamper?.(req);
  const response = await sandboxFetch(req.url.toString(), { method: 'POST', headers: req.headers, body: req.body });
  const envelope = (await response.json()) as { ResponseMetadata: any; Result: R };
  return {
    status: response.status,
    headers: response.headers,
    envelope,
    result: envelope.Result,
    error: envelope.ResponseMetadata.Error as { Code: string; Message: string } | undefined,
  };
}

/**
 * A signed `POST /api/v3?<query>` of exactly `body`, for hostile-input tests: the signature is
 * valid whatever the bytes, so the request reaches the checks after it. `headers` are added after
 * signing (a changed signed header makes the signature fail, as it should).
 */
export async function signedFetch(
  query: string,
  body: Uint8Array,
  options: { account?: Account; headers?: Record<string, string>; via?: typeof sandboxFetch } = {},
): Promise<Response> {
  const url = new URL(`/api/v3?${query}`, ORIGIN);
  const signed = await new Signer(options.account ?? DEV).sign(url, body as Uint8Array<ArrayBuffer>);
  return (options.via ?? sandboxFetch)(url.toString(), { method: 'POST', headers: { ...signed.headers, ...options.headers }, body: signed.body });
}

/** A `/v1` call with the account's bearer key. */
export async function v1<T = any>(method: 'GET' | 'POST', path: string, body?: unknown, account: Account | null = DEV) {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (account) headers.Authorization = `Bearer ${account.apiKey}`;
  const response = await sandboxFetch(path, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: response.status, headers: response.headers, body: (await response.json()) as T };
}

/** Polls until `done`, or fails after 10,000 ms (see test/support/poll-until.ts). */
export const waitFor = <T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> => pollUntil(read, done, timeoutMs, 100);

/** A JSON call to a sandbox helper route (`/sandbox/...`, `/h5/...`); answers status, headers and parsed body. */
export async function helper<T = any>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) {
  const response = await sandboxFetch(path, {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : null) as T };
}

/** A unique tag for names, so a test finds its own groups and assets in shared storage. */
export const uniqueTag = (prefix = 't'): string => `${prefix}-${crypto.randomUUID().slice(0, 8)}`;

/** Creates an AIGC group for `account` and answers its id (fails the test on an error). */
export async function newGroup(name = uniqueTag('group'), account: Account = DEV, description = ''): Promise<string> {
  const created = await api('CreateAssetGroup', { Name: name, Description: description }, { account });
  if (created.error) throw new Error(`CreateAssetGroup failed: ${JSON.stringify(created.error)}`);
  return created.result.Id as string;
}

/** Creates an asset and answers its id (fails the test on an error). */
export async function newAsset(groupId: string, url: string, type = 'Image', name = uniqueTag('asset'), account: Account = DEV): Promise<string> {
  const created = await api('CreateAsset', { GroupId: groupId, AssetType: type, Name: name, URL: url }, { account });
  if (created.error) throw new Error(`CreateAsset failed: ${JSON.stringify(created.error)}`);
  return created.result.Id as string;
}

/** Polls GetAsset until the asset leaves Processing; answers the last Result. */
export async function settled(assetId: string, account: Account = DEV, timeoutMs = 10_000): Promise<any> {
  const got = await waitFor(() => api('GetAsset', { Id: assetId }, { account }), (r) => r.error !== undefined || r.result.Status !== 'Processing', timeoutMs);
  if (got.error) throw new Error(`GetAsset failed: ${JSON.stringify(got.error)}`);
  return got.result;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
