import { PROXY_URL } from '@/lib/testing/fake-proxy';

/**
 * A web page for capture tests: the media it can fetch (its own `blob:`s, addresses that want its
 * cookies), and `scripting.executeScript` running the injected functions right here, as the page
 * would (they only use fetch, Blob and FileReader). Its `fetch` goes to the FakeProxy for the
 * proxy's address: the tests share one global fetch between the page and the extension.
 */

export interface PageResource {
  body: Uint8Array<ArrayBuffer> | (() => ReadableStream<Uint8Array>);
  type: string;
  /** Answers 403 to a request without the page's cookies. */
  needsCookies?: boolean;
  /** Sends no Content-Length (a stream of unknown length). */
  noLength?: boolean;
  /** Answers this status instead. */
  status?: number;
}

export interface PageRequest {
  url: string;
  method: string;
  credentials: RequestCredentials | undefined;
}

export class FakePage {
  readonly resources = new Map<string, PageResource>();
  readonly requests: PageRequest[] = [];
  /** Injected functions run, by name. */
  readonly scripts: string[] = [];

  constructor(private readonly proxyFetch: typeof fetch) {}

  serve(url: string, resource: PageResource): this {
    this.resources.set(url, resource);
    return this;
  }

  readonly fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = String(input);
    if (url.startsWith(PROXY_URL)) return this.proxyFetch(input, init);
    const method = init.method ?? 'GET';
    this.requests.push({ url, method, credentials: init.credentials });
    const resource = this.resources.get(url);
    if (!resource) {
      // As a cross-origin address without CORS, or one that does not exist: the fetch fails.
      throw new TypeError('Failed to fetch');
    }
    if (resource.needsCookies && init.credentials === 'omit') return new Response('sign in first', { status: 403, headers: { 'Content-Type': 'text/plain' } });
    if (resource.status) return new Response(`status ${resource.status}`, { status: resource.status, headers: { 'Content-Type': 'text/plain' } });
    const headers: Record<string, string> = { 'Content-Type': resource.type };
    const body = typeof resource.body === 'function' ? resource.body() : resource.body;
    if (!resource.noLength && body instanceof Uint8Array) headers['Content-Length'] = String(body.byteLength);
    return new Response(method === 'HEAD' ? null : body, { status: 200, headers });
  };

  /** `scripting.executeScript`: runs the function here, in the page's stead. */
  readonly executeScript = async (injection: { func: (...args: any[]) => unknown; args?: unknown[] }): Promise<{ result: unknown }[]> => {
    this.scripts.push(injection.func.name);
    // Answers pass through JSON, as the browser serializes them.
    const result = await injection.func(...(injection.args ?? []));
    return [{ result: result === undefined ? undefined : JSON.parse(JSON.stringify(result)) }];
  };
}
