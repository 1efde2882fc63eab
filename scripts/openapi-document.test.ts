import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it, vi } from 'vitest';

/**
 * The proxy's OpenAPI document checked against the OpenAPI 3.1 schema. In Node, not workerd: the
 * validator reads its schemas from disk and compiles them with `new Function`, which workerd
 * refuses. The document is the one the proxy serves: `GET /openapi.json` of the proxy's own app.
 * Its comparison with the routes the app serves is in worker/proxy/routes/openapi/openapi.test.ts (workerd).
 */

// The Durable Object classes extend workerd's; a stand-in is enough to load the app in Node.
vi.mock('cloudflare:workers', () => ({ DurableObject: class {} }));

// A path in a variable: the root tsconfig (Node types) must not type-check the Worker's code.
const PROXY_MODULE = '../worker/proxy/index.ts';

interface FetchHandler {
  fetch(request: Request, env: Record<string, unknown>): Promise<Response>;
}

async function servedDocument(): Promise<Record<string, any>> {
  const worker = ((await import(/* @vite-ignore */ PROXY_MODULE)) as { default: FetchHandler }).default;
  const response = await worker.fetch(new Request('https://proxy.example/openapi.json'), { ALLOWED_ORIGINS: '' });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, any>;
}

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const document = await servedDocument();
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('resolves every $ref to a component', async () => {
    const document = await servedDocument();
    const refs = new Set<string>();
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (key === '$ref' && typeof value === 'string') refs.add(value);
          else walk(value);
        }
      }
    };
    walk(document);
    expect(refs.size).toBeGreaterThan(0);
    for (const ref of refs) {
      const [, section, name] = /^#\/components\/(\w+)\/(.+)$/.exec(ref) ?? [];
      expect(document.components?.[section!]?.[name!], ref).toBeDefined();
    }
  });
});
