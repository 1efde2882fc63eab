import { type AssetListItem, type AssetStatus, bytesProblem, checkDeclared, checkVideoCreate, type QuoteAnswer, SNIFF_BYTES, type TaskStatus, type UsageView } from '@@/shared';
import type { ProxiedVideoTask } from '@/lib/proxy/task-annotation';
import { FakeTeam } from '@/lib/testing/fake-team';

/**
 * A small in-memory imitation of the Arkbridge proxy for extension tests: the `/api/v3`
 * CreateAssetGroup, CreateAsset, ListAssets (and GetAsset, which the extension must never call)
 * and the `/v1` video task endpoint, `GET /proxy/usage`, `POST /proxy/quote` (the body checked as a create),
 * and the media store's `POST` and `GET /proxy/uploads` (checked with the proxy's own rules:
 * shared/media/media-kinds), and the team library's routes (`team`: fake-team). Every call is recorded; faults can be scripted per action (an upload's
 * action is its path, `/proxy/uploads`).
 */

export interface ProxyCall {
  method: string;
  path: string;
  /** `/api/v3` operation, or `getVideo` / `createVideo` for `/v1`, else the path (`/proxy/uploads`). */
  action: string;
  /** JSON bodies parsed; a binary body (an upload) as its bytes. */
  body: any;
  idempotencyKey: string | null;
  authorization: string | null;
  /** The `Prefer` header (a video create's `respond-async`). */
  prefer?: string | null;
  /** The request's Content-Type (an upload's media type). */
  contentType?: string | null;
}

export type Fault =
  /** The request never reaches the proxy (offline, DNS). */
  | { kind: 'network' }
  /** An HTTP failure with a library failure envelope. */
  | { kind: 'status'; status: number; code?: string; message?: string; retryAfter?: string }
  /** The proxy performs the call but answers 504 (the service was slow): a retry must reuse the key. */
  | { kind: 'timeout-after-commit' }
  /** An HTTP failure with the proxy's own error object `{"error":{code,message,param}}` (its `/proxy/` routes). */
  | { kind: 'api-error'; status: number; code: string; message: string; param?: string };

interface StoredAsset extends AssetListItem {
  updatedSeq: number;
}

/** An upload the fake media store keeps. */
export interface FakeUpload {
  id: string;
  bytes: Uint8Array;
  contentType: string;
  name: string | null;
  expiresAt: number;
  url: string;
}

export const PROXY_URL = 'https://proxy.test';
export const TOKEN = `abk_m0123456789abcdef_${'t'.repeat(43)}`;

export class FakeProxy {
  readonly calls: ProxyCall[] = [];
  readonly assets = new Map<string, StoredAsset>();
  readonly groups = new Map<string, { Id: string; Name: string; Description: string }>();
  readonly tasks = new Map<string, ProxiedVideoTask>();
  /** Idempotency-Key (per action) -> the Id it created. */
  readonly keys = new Map<string, string>();
  /** Tokens the proxy accepts; clear it to answer 401 to everything. */
  readonly tokens = new Set([TOKEN]);
  /** The proxy's ALLOW_HTTP_MEDIA. */
  allowHttpMedia = false;
  /** What `GET /proxy/usage` answers; null: 404, as a proxy without budgets. */
  usage: UsageView | null = null;
  /**
   * What `POST /proxy/quote` answers for a body the create would take (a function: per body); null:
   * 404, as a proxy from before quotes. A body the create would refuse is answered 400 as the create.
   */
  quote: QuoteAnswer | ((body: any) => QuoteAnswer) | null = null;
  /** Runs when a quote arrives, before it is answered (await a promise here to hold the answer back). */
  onQuote: ((body: any) => unknown) | null = null;
  /** The media store's uploads, by id. */
  readonly uploads = new Map<string, FakeUpload>();
  /** false: a proxy from before the media store (`/proxy/uploads` is 404). */
  uploadsSupported = true;
  /** Seconds an upload's signed address lives (MEDIA_URL_TTL_SECONDS). */
  uploadTtlSeconds = 86_400;
  /** The team library's routes: sharing, shared groups, the team, the gallery. */
  readonly team = new FakeTeam();
  /**
   * Asset ids the proxy follows (`POST /proxy/assets/statuses` answers them from the fake library);
   * null: a proxy from before it followed assets (the route is 404). Creates add to it.
   */
  followed: Set<string> | null = null;
  /** The calls of `POST /proxy/assets/statuses` (not in `calls`). */
  readonly statusCalls: ProxyCall[] = [];
  #faults: { action: string; fault: Fault }[] = [];
  #hidden = new Set<string>();
  #seq = 0;
  #ids = 0;

  /** The next call of `action` fails with `fault` (queued in order). */
  failNext(action: string, fault: Fault, times = 1): this {
    for (let i = 0; i < times; i++) this.#faults.push({ action, fault });
    return this;
  }

  /** The next ListAssets answer leaves this asset out (as when items shift between pages). */
  hideFromNextList(assetId: string): this {
    this.#hidden.add(assetId);
    return this;
  }

  /** Operations called, in order. */
  actions(): string[] {
    return this.calls.map((c) => c.action);
  }

  callsOf(action: string): ProxyCall[] {
    return this.calls.filter((c) => c.action === action);
  }

  /** Puts an asset straight into the library (as if created earlier). */
  seedAsset(asset: Partial<AssetListItem> & { Id: string; GroupId: string }): StoredAsset {
    const stored: StoredAsset = {
      Name: asset.Id,
      URL: `https://cdn.example.com/${asset.Id}.png`,
      AssetType: 'Image',
      Status: 'Processing',
      Error: { Code: '', Message: '' },
      ...asset,
      updatedSeq: ++this.#seq,
    };
    this.assets.set(stored.Id, stored);
    return stored;
  }

  /** The service finished processing an asset. */
  setStatus(id: string, status: AssetStatus, message = ''): void {
    const asset = this.assets.get(id);
    if (!asset) throw new Error(`no asset ${id}`);
    asset.Status = status;
    asset.Error = status === 'Failed' ? { Code: 'ResourceDownloadFailed', Message: message } : { Code: '', Message: '' };
    asset.updatedSeq = ++this.#seq;
  }

  /** `arkbridge`: the proxy's own object in the answer (cost, tracking). */
  setTask(id: string, task: Partial<ProxiedVideoTask> & { status: TaskStatus }): void {
    this.tasks.set(id, { id, task_id: id, object: 'video', model: 'm', progress: 0, created_at: 1, ...this.tasks.get(id), ...task });
  }

  readonly fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(String(input));
    const headers = new Headers(init.headers);
    const method = init.method ?? 'GET';
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body ? await bytesOf(init.body) : undefined;
    const action =
      url.pathname === '/api/v3'
        ? (url.searchParams.get('Action') ?? '')
        : url.pathname.startsWith('/v1/video/generations')
          ? method === 'POST'
            ? 'createVideo'
            : 'getVideo'
          : url.pathname;
    const call: ProxyCall = {
      method,
      path: url.pathname + url.search,
      action,
      body,
      idempotencyKey: headers.get('Idempotency-Key'),
      authorization: headers.get('Authorization'),
      contentType: headers.get('Content-Type'),
    };
    // The source routes (provenance) are kept apart: they follow a create and are not the library's operations.
    if (/^\/proxy\/(assets\/[^/]+\/source|sources)$/.test(action)) this.sourceCalls.push(call);
    else if (action === '/proxy/assets/statuses') this.statusCalls.push(call);
    else this.calls.push(call);

    const index = this.#faults.findIndex((f) => f.action === action);
    const fault = index >= 0 ? this.#faults.splice(index, 1)[0]!.fault : null;
    if (action === '/proxy/quote') await this.onQuote?.(body);
    if (fault?.kind === 'network') throw new TypeError('Failed to fetch');
    if (fault?.kind === 'api-error') {
      return json(fault.status, { error: { code: fault.code, message: fault.message, ...(fault.param ? { param: fault.param } : {}) } });
    }
    if (fault?.kind === 'status') {
      return failure(fault.status, action, fault.code ?? 'Fault', fault.message ?? `fault ${fault.status}`, fault.retryAfter);
    }
    if (!this.tokens.has(call.authorization?.replace(/^Bearer /, '') ?? '')) {
      return failure(401, action, 'AuthenticationFailed', 'A valid member token is required: Authorization: Bearer <member token>.');
    }
    const answer = this.#answer(call);
    if (fault?.kind === 'timeout-after-commit') {
      return failure(504, action, 'UpstreamTimeout', 'The service has not answered yet; the create may still succeed.');
    }
    return answer;
  };

  #uploads(call: ProxyCall, contentType: string | null): Response {
    const refuse = (status: number, code: string, message: string) => json(status, { error: { code, message } });
    if (!this.uploadsSupported) return refuse(404, 'not_found', `No route ${call.method} /proxy/uploads.`);
    if (call.method === 'GET') {
      const uploads = [...this.uploads.values()].map((u) => ({ id: u.id, size: u.bytes.byteLength, contentType: u.contentType, name: u.name, expiresAt: u.expiresAt, uploadedAt: new Date(0).toISOString() }));
      return json(200, { uploads, cursor: null });
    }
    const bytes: Uint8Array | undefined = call.body;
    if (!(bytes instanceof Uint8Array)) return refuse(411, 'length_required', 'Send the file with a Content-Length header.');
    const declared = checkDeclared(contentType, bytes.byteLength);
    if (!declared.ok) return refuse(declared.status, declared.status === 413 ? 'request_too_large' : 'unsupported_media_type', declared.message);
    const problem = bytesProblem(declared, bytes.subarray(0, SNIFF_BYTES));
    if (problem) return refuse(415, 'unsupported_media_type', problem);
    const id = `u-m0123456789abcdef-${String(++this.#ids).padStart(24, '0')}`;
    const expiresAt = Math.floor(Date.now() / 1000) + this.uploadTtlSeconds;
    const url = `${PROXY_URL}/media/${id}?expires=${expiresAt}&sig=${'5'.repeat(64)}`;
    const name = new URL(call.path, PROXY_URL).searchParams.get('name');
    this.uploads.set(id, { id, bytes, contentType: declared.type, name, expiresAt, url });
    return json(201, { id, url, expiresAt, size: bytes.byteLength, contentType: declared.type, sha256: '0'.repeat(64), name });
  }

  /** Sources set with `PUT /proxy/assets/:id/source` (shared/provenance), by asset id, as the proxy answers them. */
  readonly sources = new Map<string, Record<string, unknown>>();
  /** The calls of the source routes (not in `calls`). */
  readonly sourceCalls: ProxyCall[] = [];

  #sources(call: ProxyCall): Response | null {
    const put = /^\/proxy\/assets\/([^/]+)\/source$/.exec(call.action);
    if (put && call.method === 'PUT') {
      const source = { ...(call.body as object), owner: 'member-1', updatedAt: new Date(0).toISOString() };
      this.sources.set(decodeURIComponent(put[1]!), source);
      return json(200, { assetId: decodeURIComponent(put[1]!), source });
    }
    if (call.action === '/proxy/sources' && call.method === 'POST') {
      const ids = (call.body as { ids: string[] }).ids;
      return json(200, { sources: Object.fromEntries(ids.flatMap((id) => (this.sources.has(id) ? [[id, this.sources.get(id)]] : []))) });
    }
    return null;
  }

  #statuses(call: ProxyCall): Response {
    const followed = this.followed;
    if (!followed) return json(404, { error: { code: 'not_found', message: 'No route POST /proxy/assets/statuses.', type: 'invalid_request_error' } });
    const ids = [...new Set((call.body as { ids: string[] }).ids)];
    const assets = ids.flatMap((id) => {
      const a = this.assets.get(id);
      if (!a || !followed.has(id)) return [];
      const ended = a.Status !== 'Processing';
      return [{ id, status: a.Status, error: a.Status === 'Failed' ? { code: a.Error.Code, message: a.Error.Message } : null, endedAt: ended ? new Date(0).toISOString() : null }];
    });
    return json(200, { assets });
  }

  #answer(call: ProxyCall): Response {
    const { action, body } = call;
    if (action === '/proxy/uploads') return this.#uploads(call, call.contentType ?? null);
    if (action === '/proxy/usage') {
      return this.usage ? json(200, this.usage) : json(404, { error: { code: 'not_found', message: 'No route GET /proxy/usage.', type: 'invalid_request_error' } });
    }
    if (action === '/proxy/quote') return this.#quote(body);
    const source = this.#sources(call);
    if (source) return source;
    if (action === '/proxy/assets/statuses') return this.#statuses(call);
    const team = this.team.answer(call.method, new URL(call.path, PROXY_URL), body, { groups: this.groups, tasks: this.tasks });
    if (team) return team;
    if (action === 'getVideo') {
      const task = this.tasks.get(decodeURIComponent(call.path.split('/').pop()!));
      return task ? json(200, task) : json(404, { error: { code: 'task_not_found', message: 'No such task.', type: 'invalid_request_error' } });
    }
    switch (action) {
      case 'CreateAssetGroup':
        return this.#create(call, () => {
          const Id = `group-${++this.#ids}`;
          this.groups.set(Id, { Id, Name: body.Name, Description: body.Description ?? '' });
          return Id;
        });
      case 'CreateAsset': {
        if (!(this.allowHttpMedia ? /^https?:\/\// : /^https:\/\//).test(body.URL)) return failure(400, action, 'ValidationError', 'URL: must be an https:// URL');
        return this.#create(call, () => {
          const Id = `asset-${++this.#ids}`;
          this.seedAsset({ Id, GroupId: body.GroupId, Name: body.Name, URL: body.URL, AssetType: body.AssetType });
          this.followed?.add(Id);
          return Id;
        });
      }
      case 'ListAssets': {
        const filter = body.Filter ?? {};
        const size = body.PageSize ?? 20;
        const page = body.PageNumber ?? 1;
        if (size > 100) return failure(400, action, 'ValidationError', 'PageSize: must be at most 100');
        const hidden = this.#hidden;
        this.#hidden = new Set();
        const all = [...this.assets.values()]
          .filter((a) => !hidden.has(a.Id))
          .filter((a) => !filter.GroupIds || filter.GroupIds.includes(a.GroupId))
          .filter((a) => !filter.Statuses || filter.Statuses.includes(a.Status))
          .sort((a, b) => (body.SortOrder === 'Asc' ? a.updatedSeq - b.updatedSeq : b.updatedSeq - a.updatedSeq));
        const Items = all.slice((page - 1) * size, page * size).map(({ updatedSeq: _, ...item }) => item);
        return ok(action, { Items, TotalCount: all.length, PageNumber: page, PageSize: size });
      }
      case 'GetAsset': {
        const asset = this.assets.get(body.Id);
        // As the proxy answers for an id the member does not (or no longer) own.
        return asset ? ok(action, asset) : failure(403, action, 'AccessDenied', `Asset ${body.Id} does not exist or you have no access to it.`);
      }
      default:
        return failure(400, action, 'ValidationError', `Action: "${action}" is not supported by the fake proxy.`);
    }
  }

  #quote(body: unknown): Response {
    if (!this.quote) return json(404, { error: { code: 'not_found', message: 'No route POST /proxy/quote.', type: 'invalid_request_error' } });
    const checked = checkVideoCreate(body, { allowHttp: this.allowHttpMedia });
    if (!checked.ok) return json(400, { error: { code: 'invalid_parameter', message: checked.problem.message, param: checked.problem.field, type: 'invalid_request_error' } });
    return json(200, typeof this.quote === 'function' ? this.quote(body) : this.quote);
  }

  #create(call: ProxyCall, make: () => string): Response {
    const key = call.idempotencyKey ? `${call.action}:${call.idempotencyKey}` : null;
    const Id = (key && this.keys.get(key)) || make();
    if (key) this.keys.set(key, Id);
    return ok(call.action, { Id });
  }
}

/** The bytes of a request body the extension sends (a byte array, an ArrayBuffer, a Blob). */
async function bytesOf(body: BodyInit): Promise<Uint8Array> {
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return new Uint8Array(await new Response(body).arrayBuffer());
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

const metadata = (action: string) => ({ RequestId: 'req', Action: action, Version: '2024-01-01', Service: 'ark', Region: 'cn-beijing' });

const ok = (action: string, result: unknown) => json(200, { ResponseMetadata: metadata(action), Result: result });

function failure(status: number, action: string, code: string, message: string, retryAfter?: string): Response {
  return json(status, { ResponseMetadata: { ...metadata(action), Error: { Code: code, Message: message } } }, retryAfter ? { 'Retry-After': retryAfter } : {});
}
