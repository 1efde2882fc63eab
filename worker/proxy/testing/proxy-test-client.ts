/// <reference path="../../../test/support/provided-context.d.ts" />
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import { inject } from 'vitest';
import type { ProxyEnv } from '../infra/settings/proxy-env';
import app from '../index';
import { waitFor as pollUntil } from '../../../test/support/poll-until';

/** Helpers for the proxy's integration tests: members, calls through the proxy, the sandbox. */

export const ORIGIN = 'https://proxy.test';
export const sandboxUrl = inject('sandboxUrl');
export const mediaUrl = inject('mediaBaseUrl');
export const proxyEnv = env as unknown as ProxyEnv;

/**
 * How long the proxy waits for the service in these tests (UPSTREAM_TIMEOUT_MS, vitest.config.ts):
 * long enough that no call the service answers at once meets it on a loaded machine, so only the
 * tests that make the service slow on purpose see it, with PAST_DEADLINE_MS.
 */
export const UPSTREAM_DEADLINE_MS = Number(proxyEnv.UPSTREAM_TIMEOUT_MS);
/** A delay of the service's answer that the proxy's deadline always cuts, with time to spare after it. */
export const PAST_DEADLINE_MS = UPSTREAM_DEADLINE_MS + 3_000;
/** The deadline as the proxy's messages say it ("within 5 s"). */
export const DEADLINE_WORDS = `${UPSTREAM_DEADLINE_MS / 1000} s`;

/** Every response body and header the tests saw, for the leak guard (testing/leak-guard.ts). */
export const seen: string[] = [];
/** Characters held in `seen`. */
let seenChars = 0;
/**
 * Past this many characters, what `seen` holds is checked at once and let go: a fuzz run's answers
 * (hundreds of thousands, some whole console pages) would otherwise fill the isolate's memory.
 */
const SEEN_CHECK_CHARS = 32 * 1024 * 1024;
let checkSeen: ((entries: readonly string[]) => void) | null = null;

/** The leak guard's check of held answers, run whenever `seen` grows past its bound. */
export function onSeenFull(check: (entries: readonly string[]) => void): void {
  checkSeen = check;
}

/** Records an answer for the leak guard. */
export function recordSeen(entry: string): void {
  seen.push(entry);
  seenChars += entry.length;
  if (seenChars > SEEN_CHECK_CHARS && checkSeen) {
    try {
      checkSeen(seen);
    } finally {
      seen.length = 0;
      seenChars = 0;
    }
  }
}

export async function proxyFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const worker = (exports as unknown as { default: { fetch(r: Request): Promise<Response> } }).default;
  const response = await worker.fetch(new Request(new URL(path, ORIGIN), init));
  const body = await response.clone().text();
  recordSeen(`${response.status} ${JSON.stringify([...response.headers])} ${body}`);
  return response;
}

/**
 * The proxy's app called directly in this isolate (same bindings and Durable Objects). For long
 * runs such as fuzzing: each call through the pool's `exports.default.fetch` costs more than the
 * one before, while a direct call stays flat. Answers are recorded for the leak guard all the same.
 */
export async function appFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await app.fetch(new Request(new URL(path, ORIGIN), init), env, ctx);
  await waitOnExecutionContext(ctx);
  const body = await response.clone().text();
  recordSeen(`${response.status} ${JSON.stringify([...response.headers])} ${body}`);
  return response;
}

export const adminHeaders = () => ({ Authorization: `Bearer ${proxyEnv.ADMIN_TOKEN}`, 'Content-Type': 'application/json' });

export interface Member {
  id: string;
  name: string;
  token: string;
}

/** Adds a member through the admin API. */
export async function addMember(name = 'member'): Promise<Member> {
  const response = await proxyFetch('/admin/members', { method: 'POST', headers: adminHeaders(), body: JSON.stringify({ name }) });
  if (response.status !== 201) throw new Error(`admin add failed: ${response.status}`);
  return response.json();
}

export interface CallOptions {
  idempotencyKey?: string;
  rawBody?: string;
  version?: string;
}

/**
 * How `api` authenticates a member's `/api/v3` call: null, with the member's bearer token; else it
 * signs the call with an access key of the member's (testing/signed-client.ts), so that the same
 * tests run on both paths.
 */
export type LibrarySigner = { sign(token: string, path: string, headers: Record<string, string>, body: string): Promise<void>; unauthorizedCode: string };
let librarySigner: LibrarySigner | null = null;

export function signLibraryCalls(signer: LibrarySigner | null): void {
  librarySigner = signer;
}

/** The code of `/api/v3`'s 401 for a member no longer valid, on the path `api` takes. */
export const unauthorizedCode = (): string => librarySigner?.unauthorizedCode ?? 'AuthenticationFailed';

/** `/api/v3` through the proxy as `member`. */
export async function api<R = any>(member: Member | string | null, action: string, body: unknown = {}, options: CallOptions = {}) {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  const token = typeof member === 'string' ? member : member?.token;
  if (options.idempotencyKey !== undefined) headers['Idempotency-Key'] = options.idempotencyKey;
  const path = `/api/v3?Action=${encodeURIComponent(action)}&Version=${options.version ?? '2024-01-01'}`;
  const text = options.rawBody ?? JSON.stringify(body);
  if (token && librarySigner) await librarySigner.sign(token, path, headers, text);
  else if (token) headers.Authorization = `Bearer ${token}`;
  const response = await proxyFetch(path, { method: 'POST', headers, body: text });
  const envelope = (await response.json()) as { ResponseMetadata: any; Result: R };
  return { status: response.status, headers: response.headers, envelope, result: envelope.Result, error: envelope.ResponseMetadata?.Error as { Code: string; Message: string } | undefined };
}

/** `/v1` (or `/proxy`) through the proxy as `member`. */
export async function call<T = any>(member: Member | string | null, method: string, path: string, body?: unknown, extra: Record<string, string> = {}) {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', ...extra };
  const token = typeof member === 'string' ? member : member?.token;
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await proxyFetch(path, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : null) as T };
}

/** Direct calls to the sandbox's test helpers. */
export const sandbox = {
  async stats(): Promise<Record<string, { total: number; actions: Record<string, number> }>> {
    // A read, so safe to ask again: on a loaded machine workerd may reuse a keep-alive connection
    // the sandbox is closing at that moment ("Network connection lost"), which says nothing of the proxy.
    for (let attempt = 1; ; attempt++) {
      try {
        return await (await fetch(`${sandboxUrl}/sandbox/stats`)).json();
      } catch (error) {
        if (attempt >= 3 || !/Network connection lost/.test(String(error))) throw error;
      }
    }
  },
  async fault(spec: Record<string, unknown>): Promise<void> {
    const r = await fetch(`${sandboxUrl}/sandbox/faults`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(spec) });
    if (!r.ok) throw new Error(`fault not set: ${await r.text()}`);
  },
  async complete(h5Link: string, name: string, description = ''): Promise<Response> {
    return fetch(`${sandboxUrl}/sandbox/portrait/complete`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ H5Link: h5Link, GroupName: name, GroupDescription: description }),
    });
  },
};

/** Polls until `done`, or fails after 15,000 ms (see test/support/poll-until.ts). */
export const waitFor = <T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> => pollUntil(read, done, timeoutMs, 150);
