import * as v from 'valibot';
import { type Action, type LibraryRequestInput, type LibraryResult, type ModelList, type ModelSpec, PREFER_RESPOND_ASYNC, type QueuedCreate, queuedCreateSchema, type UsageView, type VideoCreateBody } from '@@/shared';
import { textUpTo } from '@/lib/proxy/bounded-text';
import { ApiError, failureFrom } from '@/lib/proxy/api-failure';
import type { ProxiedVideoTask } from '@/lib/proxy/task-annotation';
import { usageViewOf } from '@/lib/proxy/usage-view';
import type { Connection } from '@/lib/storage/records/setting-values';

/**
 * Most bytes of an answer read from the proxy. Its largest real answers (a page of 100 assets with
 * 8 KB URLs) stay near 1 MB; the cap bounds what JSON.parse and the message rules run on.
 */
export const ANSWER_MAX_BYTES = 8 * 1024 * 1024;

export interface CallOptions {
  idempotencyKey?: string;
  /** The `Prefer` request header (RFC 7240). */
  prefer?: string;
  signal?: AbortSignal;
}

/**
 * The extension's only way to the proxy. Every answer is checked (HTTP status and
 * ResponseMetadata.Error), every failure becomes an ApiError the caller can act on.
 */
export class ProxyClient {
  constructor(
    private readonly connection: Pick<Connection, 'proxyUrl' | 'token'>,
    private readonly fetchImpl: typeof fetch = (...args) => fetch(...args),
  ) {}

  /** The same connection over another fetch (xhr-fetch, which counts the bytes of a body sent). */
  withFetch(fetchImpl: typeof fetch): ProxyClient {
    return new ProxyClient(this.connection, fetchImpl);
  }

  /** The proxy's origin (messages about an unreachable proxy name it). */
  get proxyUrl(): string {
    return this.connection.proxyUrl;
  }

  async #request<T>(method: 'GET' | 'POST', path: string, body?: unknown, options: CallOptions = {}): Promise<T> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.connection.token}` };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
    if (options.prefer) headers.Prefer = options.prefer;
    let response: Response;
    try {
      response = await this.fetchImpl(`${this.connection.proxyUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: options.signal,
      });
    } catch {
      throw new ApiError({ kind: 'network', message: `Cannot reach the proxy at ${this.connection.proxyUrl}.` });
    }
    const text = await textUpTo(response, ANSWER_MAX_BYTES);
    if (text === null) {
      const limit = `${ANSWER_MAX_BYTES / 1024 / 1024} MB`;
      throw new ApiError({ kind: 'service', status: response.status, code: 'answer_too_large', message: `${this.connection.proxyUrl} answered more than ${limit}.` });
    }
    let json: any = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    if (!response.ok || json?.ResponseMetadata?.Error) {
      throw new ApiError(failureFrom(response.status, json, response.headers.get('retry-after')));
    }
    return json as T;
  }

  /**
   * A successful answer that is not what the proxy sends (a captive portal's page, a misrouted
   * host): a failure to retry later, never a crash of the caller.
   */
  #notTheProxy(): ApiError {
    return new ApiError({ kind: 'service', status: 200, code: 'unexpected_answer', message: `${this.connection.proxyUrl} answered, but not like an Arkbridge proxy.` });
  }

  /** An asset-library operation; answers its `Result`. */
  async library<A extends Action>(action: A, body: LibraryRequestInput<A>, options?: CallOptions): Promise<LibraryResult<A>> {
    const envelope = await this.#request<{ Result: LibraryResult<A> } | null>('POST', `/api/v3?Action=${action}&Version=2024-01-01`, body, options);
    if (!envelope?.Result || typeof envelope.Result !== 'object') throw this.#notTheProxy();
    return envelope.Result;
  }

  /**
   * Creates a video task. Always asks to be queued rather than refused when the service is busy
   * (`Prefer: respond-async`): then the proxy answers a queued create (202, `object: queued_create`)
   * instead of the task; a proxy without a queue ignores the header and answers as before.
   */
  async createVideo(body: VideoCreateBody, idempotencyKey: string): Promise<ProxiedVideoTask | QueuedCreate> {
    const answer = await this.#request<unknown>('POST', '/v1/video/generations', body, { idempotencyKey, prefer: PREFER_RESPOND_ASYNC });
    if (isQueuedAnswer(answer)) {
      const read = v.safeParse(queuedCreateSchema, answer);
      if (!read.success) throw this.#notTheProxy();
      return read.output;
    }
    return this.#taskOf(answer);
  }
  getVideo = async (id: string) => this.#taskOf(await this.#request<unknown>('GET', `/v1/video/generations/${encodeURIComponent(id)}`));

  #taskOf(answer: unknown): ProxiedVideoTask {
    const task = answer as ProxiedVideoTask | null;
    if (!task || typeof task.status !== 'string') throw this.#notTheProxy();
    return task;
  }
  models = () => this.#request<ModelList>('GET', '/v1/models');
  me = () => this.#request<{ id: string; name: string }>('GET', '/proxy/me');

  /**
   * The member's budget, the team's and this period's alerts (`GET /proxy/usage`); null from a proxy
   * without budgets (it answers 404): then nothing about budgets is shown.
   */
  async usage(): Promise<UsageView | null> {
    let answer: unknown;
    try {
      answer = await this.#request<unknown>('GET', '/proxy/usage');
    } catch (error) {
      if (error instanceof ApiError && error.failure.kind === 'rejected' && error.failure.status === 404) return null;
      throw error;
    }
    const usage = usageViewOf(answer);
    if (!usage) throw this.#notTheProxy();
    return usage;
  }
  capabilities = () => this.#request<{ models: ModelSpec[]; media: { allowHttp: boolean } }>('GET', '/proxy/capabilities');
  /**
   * A request with the member token, its answer as it came (a network failure thrown as is): for
   * calls with bodies of their own, the media store's uploads (upload-client), which the popup never loads.
   */
  send = (path: string, init: RequestInit): Promise<Response> =>
    this.fetchImpl(`${this.connection.proxyUrl}${path}`, { ...init, headers: { ...(init.headers as Record<string, string>), Authorization: `Bearer ${this.connection.token}` } });
  recordConsent = (rulesVersion: string) =>
    this.#request<{ scope: string; rulesVersion: string; acceptedAt: string }>('POST', '/proxy/consents', { scope: 'portrait', rulesVersion });
}

/** Whether a create's answer is a queued create (the proxy's 202) rather than a task. */
const isQueuedAnswer = (answer: unknown): boolean =>
  typeof answer === 'object' && answer !== null && (answer as { object?: unknown }).object === 'queued_create';

/** Narrows a create's answer: a queued create, not a task. */
export const isQueuedCreate = (answer: ProxiedVideoTask | QueuedCreate): answer is QueuedCreate => answer.object === 'queued_create';
