import { describe, expect, it } from 'vitest';
import packageJson from '../../../../package.json';
import { documentedApp, openApiDocument, OPENAPI_TITLE } from './openapi-document';
import { TAGS } from './route-docs';
import { ORIGIN, proxyFetch } from '../../testing/proxy-test-client';

/**
 * `GET /openapi.json` (docs/proxy-api.md): served without a token, and listing exactly the routes
 * the app serves. Its validation against the OpenAPI 3.1 schema runs in Node
 * (scripts/openapi-document.test.ts): the validator cannot run in workerd.
 */

/**
 * Routes the app serves that are left out of the document on purpose: pages for people, not API.
 * Each is matched as a path or a path prefix (`/console`, `/console/...`), or only as itself (`exact`).
 */
const NOT_API: readonly { path: string; reason: string; exact?: boolean }[] = [
  { path: '/console', reason: 'the admin console: server-rendered HTML pages and forms over the admin API (docs/console.md)' },
  // Only the page: member sign-in below it (/connect/access, /connect/methods) is API.
  { path: '/connect', exact: true, reason: 'the HTML page a member\'s connect link lands on in a browser (docs/console.md)' },
];
const notApi = (path: string) => NOT_API.some((page) => path === page.path || (!page.exact && path.startsWith(`${page.path}/`)));

const OPERATION_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

type Operation = { summary?: string; tags?: string[]; security?: Record<string, string[]>[]; responses: Record<string, unknown> };
type Document = { openapi: string; info: { title: string; version: string }; servers: { url: string }[]; paths: Record<string, Record<string, Operation>> };

async function served(origin = ORIGIN): Promise<Document> {
  const response = await proxyFetch(new URL('/openapi.json', origin).href);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return response.json();
}

/** `METHOD /path/{param}` of every route the Hono app serves: middleware (`ALL`, `*` paths) left out. */
function servedRoutes(): string[] {
  const app = documentedApp();
  if (!app) throw new Error('the proxy serves no /openapi.json');
  const routes = app.routes
    .filter((route) => route.method !== 'ALL' && !route.path.includes('*'))
    .map((route) => `${route.method} ${route.path.replace(/:(\w+)(\{[^}]*\})?\??/g, '{$1}')}`);
  return [...new Set(routes)].sort();
}

function documentedRoutes(document: Document): string[] {
  return Object.entries(document.paths)
    .flatMap(([path, item]) => Object.keys(item).filter((key) => OPERATION_METHODS.includes(key)).map((method) => `${method.toUpperCase()} ${path}`))
    .sort();
}

const operations = (document: Document) =>
  Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ route: `${method.toUpperCase()} ${path}`, path, operation })));

describe('GET /openapi.json', () => {
  it('answers an OpenAPI 3.1 document without a token, with the asking origin as its server', async () => {
    const document = await served();
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.title).toBe(OPENAPI_TITLE);
    expect(document.info.version).toBe(packageJson.version);
    expect(document.servers).toEqual([{ url: ORIGIN }]);
    // Generated once per isolate; only the server differs by origin.
    const elsewhere = await served('https://other.example');
    expect(elsewhere.servers).toEqual([{ url: 'https://other.example' }]);
    expect(elsewhere.paths).toEqual(document.paths);
    const app = documentedApp()!;
    expect(openApiDocument(app)).toBe(openApiDocument(app));
  });

  it('lists every route the app serves, and nothing it does not serve', async () => {
    const document = await served();
    const routes = servedRoutes();
    const api = routes.filter((route) => !notApi(route.slice(route.indexOf(' ') + 1)));
    // Every page left out is still served: an entry of NOT_API that matches nothing is stale.
    for (const page of NOT_API) expect(routes.some((route) => notApi(route.slice(route.indexOf(' ') + 1)) && route.includes(` ${page.path}`)), page.path).toBe(true);
    const documented = documentedRoutes(document);
    expect(api.filter((route) => !documented.includes(route)), 'served but not in the document').toEqual([]);
    expect(documented.filter((route) => !api.includes(route)), 'in the document but not served (or a page left out)').toEqual([]);
    // The comparison sees what it should: the member, admin and media routes are there.
    expect(api).toEqual(expect.arrayContaining(['POST /api/v3', 'GET /v1/video/generations/{id}', 'DELETE /admin/members/{id}', 'HEAD /media/{id}', 'GET /openapi.json']));
    // Member identity (docs/identity.md).
    expect(api).toEqual(
      expect.arrayContaining([
        'PUT /admin/members/{id}/scope', 'PUT /admin/members/{id}/email', 'GET /admin/members/{id}/tokens', 'DELETE /admin/members/{id}/tokens/{tokenId}',
        'POST /proxy/tokens', 'GET /proxy/tokens', 'DELETE /proxy/tokens/{tokenId}', 'GET /connect/access', 'GET /connect/methods',
      ]),
    );
    expect(api.length).toBeGreaterThanOrEqual(31);
    // The webhooks' routes, the member's and the team's (docs/webhooks.md).
    const webhook = ['GET', 'PUT', 'DELETE'].map((method) => `${method} /webhook`).concat(['POST /webhook/secret', 'GET /webhook/deliveries']);
    for (const area of ['/proxy', '/admin']) {
      for (const route of webhook) expect(documented, route).toContain(route.replace(' ', ` ${area}`));
    }
  });

  it('describes each operation: a summary, a tag, its credential and its answers', async () => {
    const document = await served();
    const tags = TAGS.map((tag) => tag.name) as string[];
    for (const { route, path, operation } of operations(document)) {
      expect(operation.summary, route).toBeTruthy();
      expect(operation.tags?.length, route).toBe(1);
      expect(tags, route).toContain(operation.tags![0]);
      const schemes = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
      // `/api/v3` also takes a call signed with a member access key (contract section 20).
      if (path === '/api/v3') expect(schemes, route).toEqual(['memberToken', 'memberAccessKey']);
      else if (/^\/(v1\/|proxy\/)/.test(path)) expect(schemes, route).toEqual(['memberToken']);
      else if (path.startsWith('/admin/')) expect(schemes, route).toEqual(['adminToken', 'cloudflareAccess', 'consoleSession']);
      else if (path.startsWith('/media/')) expect(schemes, route).toEqual(['mediaSignature']);
      // Member sign-in: the members' Cloudflare Access application in front (docs/identity.md).
      else if (path === '/connect/access') expect(schemes, route).toEqual(['cloudflareAccess']);
      else expect(schemes, route).toEqual([]);
      // A success, or (member sign-in) the redirect that hands the token over.
      expect(Object.keys(operation.responses).some((status) => (path === '/connect/access' ? /^302$/ : /^2/).test(status)), route).toBe(true);
      expect(operation.responses['500'], route).toBeDefined();
      if (schemes.length && !schemes.includes('mediaSignature')) expect(operation.responses['401'], route).toBeDefined();
    }
  });
});
