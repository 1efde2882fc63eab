import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { AssetListItem, GroupType, ModelReadiness } from '@@/shared';
import { ProxyClient } from '@/lib/proxy/proxy-client';
import { FakeProxy, type Fault, PROXY_URL, TOKEN } from '@/lib/testing/fake-proxy';
import { resetState } from '@/lib/testing/test-setup';

/**
 * The shared FakeProxy plus the library operations the Library view uses: ListAssetGroups (paged),
 * UpdateAssetGroup, DeleteAssetGroup, UpdateAsset, DeleteAsset, and GetAsset with ModelReadiness.
 * Calls and faults behave as in FakeProxy.
 */
const OWN = new Set(['ListAssetGroups', 'UpdateAssetGroup', 'DeleteAssetGroup', 'UpdateAsset', 'DeleteAsset', 'GetAsset']);

export class LibraryFakeProxy extends FakeProxy {
  /** Group id -> type (AIGC when absent). */
  readonly groupTypes = new Map<string, GroupType>();
  /** Asset id -> ModelReadiness returned by GetAsset. */
  readonly readiness = new Map<string, ModelReadiness[]>();
  #faults: { action: string; fault: Fault }[] = [];

  constructor() {
    super();
    // `fetch` is an instance property of FakeProxy: route this class's operations, pass on the rest.
    const base = this.fetch;
    Object.defineProperty(this, 'fetch', { value: (input: RequestInfo | URL, init?: RequestInit) => this.#route(base, input, init), enumerable: true });
  }

  override failNext(action: string, fault: Fault, times = 1): this {
    if (!OWN.has(action)) return super.failNext(action, fault, times);
    for (let i = 0; i < times; i++) this.#faults.push({ action, fault });
    return this;
  }

  seedGroup(Id: string, Name = Id, GroupType: GroupType = 'AIGC', Description = ''): void {
    this.groups.set(Id, { Id, Name, Description });
    this.groupTypes.set(Id, GroupType);
  }

  /** `count` assets in a group, named `${prefix}-${i}`. */
  seedAssets(groupId: string, count: number, over: (i: number) => Partial<AssetListItem> = () => ({})): void {
    for (let i = 0; i < count; i++) this.seedAsset({ Id: `${groupId}-a${i}`, GroupId: groupId, Name: `${groupId}-${i}`, ...over(i) });
  }

  async #route(base: FakeProxy['fetch'], input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
    const url = new URL(String(input));
    const action = url.pathname === '/api/v3' ? (url.searchParams.get('Action') ?? '') : '';
    if (!OWN.has(action)) return base(input, init);
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    const headers = new Headers(init.headers);
    this.calls.push({ method: init.method ?? 'GET', path: url.pathname + url.search, action, body, idempotencyKey: headers.get('Idempotency-Key'), authorization: headers.get('Authorization') });
    const index = this.#faults.findIndex((f) => f.action === action);
    const fault = index >= 0 ? this.#faults.splice(index, 1)[0]!.fault : null;
    if (fault?.kind === 'network') throw new TypeError('Failed to fetch');
    if (fault?.kind === 'status') return failure(fault.status, action, fault.code ?? 'Fault', fault.message ?? `fault ${fault.status}`);
    if (!this.tokens.has(headers.get('Authorization')?.replace(/^Bearer /, '') ?? '')) return failure(401, action, 'AuthenticationFailed', 'A valid member token is required.');
    return this.#answer(action, body);
  }

  #answer(action: string, body: any): Response {
    switch (action) {
      case 'ListAssetGroups': {
        const size = body.PageSize ?? 20;
        const page = body.PageNumber ?? 1;
        if (size > 100) return failure(400, action, 'ValidationError', 'PageSize: must be at most 100');
        const all = [...this.groups.values()].map((g) => ({ ...g, GroupType: this.groupTypes.get(g.Id) ?? 'AIGC', CreateTime: '', UpdateTime: '' }));
        return ok(action, { Items: all.slice((page - 1) * size, page * size), TotalCount: all.length, PageNumber: page, PageSize: size });
      }
      case 'UpdateAssetGroup': {
        const group = this.groups.get(body.Id);
        if (!group) return failure(403, action, 'AccessDenied', 'Id: no such group');
        if (body.Name !== undefined) group.Name = body.Name;
        if (body.Description !== undefined) group.Description = body.Description;
        return ok(action, { Id: body.Id });
      }
      case 'DeleteAssetGroup': {
        if (!this.groups.delete(body.Id)) return failure(403, action, 'AccessDenied', 'Id: no such group');
        for (const [id, asset] of this.assets) if (asset.GroupId === body.Id) this.assets.delete(id);
        return ok(action, {});
      }
      case 'UpdateAsset': {
        const asset = this.assets.get(body.Id);
        if (!asset) return failure(403, action, 'AccessDenied', 'Id: no such asset');
        asset.Name = body.Name;
        return ok(action, { Id: body.Id });
      }
      case 'DeleteAsset':
        return this.assets.delete(body.Id) ? ok(action, {}) : failure(403, action, 'AccessDenied', 'Id: no such asset');
      case 'GetAsset': {
        const stored = this.assets.get(body.Id);
        if (!stored) return failure(403, action, 'AccessDenied', 'Id: no such asset');
        const { updatedSeq: _, ...asset } = stored;
        const readiness = this.readiness.get(body.Id);
        return ok(action, readiness ? { ...asset, ModelReadiness: readiness } : asset);
      }
      default:
        return failure(400, action, 'ValidationError', `Action: "${action}" is not supported.`);
    }
  }
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const metadata = (action: string) => ({ RequestId: 'req', Action: action, Version: '2024-01-01', Service: 'ark', Region: 'cn-beijing' });
const ok = (action: string, result: unknown) => json(200, { ResponseMetadata: metadata(action), Result: result });
const failure = (status: number, action: string, code: string, message: string) =>
  json(status, { ResponseMetadata: { ...metadata(action), Error: { Code: code, Message: message } } });

/** What library tests start from: a fresh extension state, a fake proxy, a client of it, and the runtime messages sent. */
export async function libraryTestbed(): Promise<{ proxy: LibraryFakeProxy; client: ProxyClient; messages: unknown[] }> {
  await resetState();
  const proxy = new LibraryFakeProxy();
  const messages: unknown[] = [];
  fakeBrowser.runtime.onMessage.addListener((message) => void messages.push(message));
  return { proxy, client: new ProxyClient({ proxyUrl: PROXY_URL, token: TOKEN }, proxy.fetch), messages };
}
