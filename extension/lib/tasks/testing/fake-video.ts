import { checkVideoCreate, MODELS, type ModelSpec, type QueueItem, type VideoTask } from '@@/shared';
import { FakeProxy, type Fault } from '@/lib/testing/fake-proxy';

/**
 * The shared FakeProxy plus the proxy's `/v1` video interface as the extension uses it:
 * `GET /v1/models`, `GET /proxy/capabilities`, and `POST /v1/video/generations` with the proxy's
 * rules (the shared create check; Idempotency-Key: the same key and body answer the original task,
 * another body 422). `getVideo` is the shared fake's. Calls and faults behave as in FakeProxy.
 * With `maxRunning`, the gateway's queue too: a create at the cap sent with `Prefer: respond-async`
 * is queued (202 `queued_create`), without it refused (429 `upstream_busy`); `GET /proxy/queue`,
 * `GET` and `DELETE /proxy/queue/:id`; the test launches or fails queued creates (`launchQueued`, `failQueued`).
 */

export type VideoFault =
  | Fault
  /** The create is performed, then the answer is lost (connection dropped, popup closed). */
  | { kind: 'network-after-commit' }
  /** A `/v1` error answer, with the proxy's error object (`extra`: its further fields, as a budget refusal's). */
  | { kind: 'video-error'; status: number; code: string; message: string; param?: string; retryAfter?: string; type?: string; extra?: Record<string, unknown> };

const OWN = new Set(['createVideo', 'models', 'capabilities', 'listQueue', 'getQueueItem', 'cancelQueueItem']);

/** A queued create as the fake gateway keeps it. */
type FakeQueued = Omit<QueueItem, 'position'> & { raw: string };

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
  /** The gateway's cap of tasks running at the service (UPSTREAM_MAX_RUNNING); 0: no cap, no queue. */
  maxRunning = 0;
  /** The gateway's queue, oldest first; Idempotency-Key -> queue id. */
  readonly queue = new Map<string, FakeQueued>();
  readonly queuedKeys = new Map<string, string>();
  #faults: { action: string; fault: VideoFault }[] = [];
  #n = 0;
  #q = 0;
  /** The shared fake (initialized before this class overrides `fetch`). */
  readonly #base = (this as FakeProxy).fetch;

  override failNext(action: string, fault: VideoFault, times = 1): this {
    if (!OWN.has(action)) return super.failNext(action, fault as Fault, times);
    for (let i = 0; i < times; i++) this.#faults.push({ action, fault });
    return this;
  }

  /** 1-based place of a queued create among those still queued; null once it left the queue. */
  positionOf(id: string): number | null {
    const queued = [...this.queue.values()].filter((q) => q.status === 'queued');
    const at = queued.findIndex((q) => q.id === id);
    return at < 0 ? null : at + 1;
  }

  itemOf(id: string): QueueItem {
    const { raw: _raw, ...item } = this.queue.get(id)!;
    return { ...item, position: this.positionOf(id) };
  }

  /** The gateway launches a queued create (the oldest, or `id`): the service creates its task. Answers the task id. */
  launchQueued(id = [...this.queue.values()].find((q) => q.status === 'queued')?.id): string {
    const item = id ? this.queue.get(id) : undefined;
    if (!item || item.status !== 'queued') throw new Error(`nothing queued to launch (${id})`);
    const taskId = this.#newTask(JSON.parse(item.raw).model);
    Object.assign(item, { status: 'launched', taskId });
    return taskId;
  }

  /** The service refused a queued create's launch. */
  failQueued(id: string, error: { code: string; message: string }): void {
    Object.assign(this.queue.get(id)!, { status: 'failed', error });
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
            : url.pathname === '/proxy/queue'
              ? 'listQueue'
              : url.pathname.startsWith('/proxy/queue/')
                ? method === 'DELETE'
                  ? 'cancelQueueItem'
                  : 'getQueueItem'
                : '';
    if (!OWN.has(action)) return this.#base(input, init);
    const headers = new Headers(init.headers);
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    this.calls.push({ method, path: url.pathname, action, body, idempotencyKey: headers.get('Idempotency-Key'), authorization: headers.get('Authorization'), prefer: headers.get('Prefer') });
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

    if (action === 'listQueue') return json(200, { items: [...this.queue.keys()].map((id) => this.itemOf(id)) });
    if (action === 'getQueueItem' || action === 'cancelQueueItem') return this.#queueItem(action, decodeURIComponent(url.pathname.slice('/proxy/queue/'.length)));

    const answer = this.#create(String(init.body), headers.get('Idempotency-Key'), headers.get('Prefer'));
    if (fault?.kind === 'timeout-after-commit') {
      return videoError(504, 'upstream_timeout', 'The video service has not answered yet; the task may still be created. Retry with the same Idempotency-Key to get its id.');
    }
    if (fault?.kind === 'network-after-commit') throw new TypeError('Failed to fetch');
    return answer;
  };

  #queueItem(action: string, id: string): Response {
    const item = this.queue.get(id);
    if (!item) return videoError(404, 'not_found', 'No such queued create.');
    if (action === 'cancelQueueItem') {
      if (item.status !== 'queued') return videoError(409, 'not_queued', `This create is ${item.status}, no longer queued.`);
      item.status = 'cancelled';
    }
    return json(200, this.itemOf(id));
  }

  #create(raw: string, key: string | null, prefer: string | null): Response {
    const checked = checkVideoCreate(JSON.parse(raw), { allowHttp: this.allowHttpMedia });
    if (!checked.ok) return videoError(400, 'invalid_parameter', checked.problem.message, checked.problem.field);
    const previous = key ? this.created.get(key) : undefined;
    if (previous) {
      if (previous.body !== raw) return videoError(422, 'idempotency_key_reused', 'This Idempotency-Key was already used with a different body.');
      return json(200, this.tasks.get(previous.taskId));
    }
    const queuedId = key ? this.queuedKeys.get(key) : undefined;
    if (queuedId) return this.#queuedAnswer(queuedId);
    const running = [...this.tasks.values()].filter((task) => task.status === 'queued' || task.status === 'in_progress').length;
    if (this.maxRunning > 0 && running >= this.maxRunning) {
      if (prefer !== 'respond-async') return videoError(429, 'upstream_busy', 'The service is busy for the team; try again later.', undefined, '5');
      const id = `abq_${String(++this.#q).padStart(24, '0')}`;
      this.queue.set(id, { id, status: 'queued', model: checked.value.body.model, createdAt: 1_700_000_000 + this.#q, taskId: null, error: null, raw });
      if (key) this.queuedKeys.set(key, id);
      return this.#queuedAnswer(id);
    }
    const id = this.#newTask(checked.value.body.model);
    if (key) this.created.set(key, { body: raw, taskId: id });
    return json(200, this.tasks.get(id) as VideoTask);
  }

  #queuedAnswer(id: string): Response {
    const item = this.itemOf(id);
    return json(202, { id, object: 'queued_create', status: item.status, position: item.position, ...(this.arkbridge ? { arkbridge: this.arkbridge } : {}) });
  }

  #newTask(model: string): string {
    const id = `cgt-${++this.#n}`;
    this.setTask(id, { status: 'queued', progress: 0, model, created_at: 1_700_000_000 + this.#n, ...(this.arkbridge ? { arkbridge: this.arkbridge } : {}) });
    return id;
  }
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

function videoError(status: number, code: string, message: string, param?: string, retryAfter?: string, type?: string, extra: Record<string, unknown> = {}): Response {
  const error = { code, message, type: type ?? (status >= 500 ? 'server_error' : 'invalid_request_error'), ...(param ? { param } : {}), ...extra };
  return json(status, { error }, retryAfter ? { 'Retry-After': retryAfter } : {});
}
