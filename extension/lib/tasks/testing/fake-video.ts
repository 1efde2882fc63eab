import { checkVideoCreate, MODELS, type ModelSpec, type VideoTask } from '@@/shared';
import { FakeProxy, type Fault } from '@/lib/testing/fake-proxy';

/**
 * The shared FakeProxy plus the proxy's `/v1` video interface as the extension uses it:
 * `GET /v1/models`, `GET /proxy/capabilities`, and `POST /v1/video/generations` with the proxy's
 * rules (the shared create check; Idempotency-Key: the same key and body answer the original task,
 * another body 422). `getVideo` is the shared fake's. Calls and faults behave as in FakeProxy.
 */

export type VideoFault =
  | Fault
  /** The create is performed, then the answer is lost (connection dropped, popup closed). */
  | { kind: 'network-after-commit' }
  /** A `/v1` error answer, with the proxy's error object (`extra`: its further fields, as a budget refusal's). */
  | { kind: 'video-error'; status: number; code: string; message: string; param?: string; retryAfter?: string; type?: string; extra?: Record<string, unknown> };

const OWN = new Set(['createVideo', 'models', 'capabilities']);

export class VideoFakeProxy extends FakeProxy {
  /** Ids `/v1/models` lists (a chat model too: the form must leave it out). */
  modelIds: string[] = [...MODELS.map((m) => m.id), 'doubao-seed-1-6-chat'];
  /** The catalog `/proxy/capabilities` answers; null: the route fails (an older proxy). */
  catalog: readonly ModelSpec[] | null = MODELS;
  /** Idempotency-Key -> the body it was used with and the task it created. */
  readonly created = new Map<string, { body: string; taskId: string }>();
  /** The proxy's `arkbridge` object on the tasks it creates (cost); none: a proxy without budgets. */
  arkbridge: Record<string, unknown> | null = null;
  /** Runs when a create arrives, before it is answered (to look at the extension's state then). */
  onCreate: (() => unknown) | null = null;
  #faults: { action: string; fault: VideoFault }[] = [];
  #n = 0;
  /** The shared fake (initialized before this class overrides `fetch`). */
  readonly #base = (this as FakeProxy).fetch;

  override failNext(action: string, fault: VideoFault, times = 1): this {
    if (!OWN.has(action)) return super.failNext(action, fault as Fault, times);
    for (let i = 0; i < times; i++) this.#faults.push({ action, fault });
    return this;
  }

  /** Tasks the service created. */
  get taskCount(): number {
    return this.tasks.size;
  }

  override readonly fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(String(input));
    const method = init.method ?? 'GET';
    const action =
      url.pathname === '/v1/video/generations' && method === 'POST'
        ? 'createVideo'
        : url.pathname === '/v1/models'
          ? 'models'
          : url.pathname === '/proxy/capabilities'
            ? 'capabilities'
            : '';
    if (!OWN.has(action)) return this.#base(input, init);
    const headers = new Headers(init.headers);
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    this.calls.push({ method, path: url.pathname, action, body, idempotencyKey: headers.get('Idempotency-Key'), authorization: headers.get('Authorization') });
    if (action === 'createVideo') await this.onCreate?.();

    const index = this.#faults.findIndex((f) => f.action === action);
    const fault = index >= 0 ? this.#faults.splice(index, 1)[0]!.fault : null;
    if (fault?.kind === 'network') throw new TypeError('Failed to fetch');
    if (fault?.kind === 'status') return videoError(fault.status, fault.code ?? 'fault', fault.message ?? `fault ${fault.status}`, undefined, fault.retryAfter);
    if (fault?.kind === 'video-error') return videoError(fault.status, fault.code, fault.message, fault.param, fault.retryAfter, fault.type, fault.extra);
    if (!this.tokens.has(headers.get('Authorization')?.replace(/^Bearer /, '') ?? '')) {
      return videoError(401, 'unauthorized', 'A valid member token is required: Authorization: Bearer <member token>.');
    }
    if (action === 'models') return json(200, { object: 'list', data: this.modelIds.map((id) => ({ id, object: 'model' })) });
    if (action === 'capabilities') return this.catalog ? json(200, { models: this.catalog, media: { allowHttp: this.allowHttpMedia } }) : videoError(404, 'not_found', 'no route');

    const answer = this.#create(String(init.body), headers.get('Idempotency-Key'));
    if (fault?.kind === 'timeout-after-commit') {
      return videoError(504, 'upstream_timeout', 'The video service has not answered yet; the task may still be created. Retry with the same Idempotency-Key to get its id.');
    }
    if (fault?.kind === 'network-after-commit') throw new TypeError('Failed to fetch');
    return answer;
  };

  #create(raw: string, key: string | null): Response {
    const checked = checkVideoCreate(JSON.parse(raw), { allowHttp: this.allowHttpMedia });
    if (!checked.ok) return videoError(400, 'invalid_parameter', checked.problem.message, checked.problem.field);
    const previous = key ? this.created.get(key) : undefined;
    if (previous) {
      if (previous.body !== raw) return videoError(422, 'idempotency_key_reused', 'This Idempotency-Key was already used with a different body.');
      return json(200, this.tasks.get(previous.taskId));
    }
    const id = `cgt-${++this.#n}`;
    this.setTask(id, { status: 'queued', progress: 0, model: checked.value.body.model, created_at: 1_700_000_000 + this.#n, ...(this.arkbridge ? { arkbridge: this.arkbridge } : {}) });
    if (key) this.created.set(key, { body: raw, taskId: id });
    return json(200, this.tasks.get(id) as VideoTask);
  }
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

function videoError(status: number, code: string, message: string, param?: string, retryAfter?: string, type?: string, extra: Record<string, unknown> = {}): Response {
  const error = { code, message, type: type ?? (status >= 500 ? 'server_error' : 'invalid_request_error'), ...(param ? { param } : {}), ...extra };
  return json(status, { error }, retryAfter ? { 'Retry-After': retryAfter } : {});
}
