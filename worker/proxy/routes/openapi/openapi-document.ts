import type { Context, Hono } from 'hono';
import { generateSpecs } from 'hono-openapi';
import packageJson from '../../../../package.json';
import { INTERNAL_ERROR, SECURITY_SCHEMES, TAGS } from './route-docs';

/**
 * `GET /openapi.json`: the proxy's OpenAPI 3.1 document, generated from the `describeRoute({...})`
 * each route carries (the sub-apps of routes/), whose bodies and answers
 * are resolved from the same valibot schemas the routes check with. Nothing here is written by
 * hand but the title, the tags and the security schemes. Generated at the first request and kept
 * for the isolate; `servers` is the origin of each request.
 */

export const OPENAPI_TITLE = 'Arkbridge proxy';

type OpenApiDocument = Awaited<ReturnType<typeof generateSpecs>>;
/** Any app of the proxy, whatever its bindings and variables. */
type AnyApp = Hono<any, any, any>;

const METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'HEAD', 'PATCH'] as const;

const documents = new WeakMap<AnyApp, Promise<OpenApiDocument>>();

/** The document of `app` (without `servers`), generated once per isolate. */
export function openApiDocument(app: AnyApp): Promise<OpenApiDocument> {
  let document = documents.get(app);
  if (!document) {
    document = generateSpecs(app, {
      documentation: {
        info: {
          title: OPENAPI_TITLE,
          version: packageJson.version,
          description:
            'Every member and admin route of an Arkbridge proxy, generated from the schemas the routes check with. ' +
            'Human documentation of every route, status and shape: docs/proxy-api.md in the repository.',
        },
        tags: TAGS.map((tag) => ({ ...tag })),
        components: { securitySchemes: SECURITY_SCHEMES },
      },
      // `/openapi.json` is a route of its own, not a static file.
      excludeStaticFile: false,
      excludeMethods: ['OPTIONS'],
      defaultOptions: Object.fromEntries(METHODS.map((method) => [method, { responses: INTERNAL_ERROR }])),
    });
    documents.set(app, document);
    // A failed generation is tried again by the next request.
    document.catch(() => documents.delete(app));
  }
  return document;
}

/** The app the served document describes, for the test that compares it with the routes (openapi.test.ts). */
let describedApp: AnyApp | undefined;
export const documentedApp = (): AnyApp | undefined => describedApp;

/** The handler of `GET /openapi.json` for `app`: the document, with the request's origin as its server. */
export function openApiRoute(app: AnyApp) {
  describedApp = app;
  return async (c: Context) => {
    const { openapi, info, ...rest } = await openApiDocument(app);
    return c.json({ openapi, info, servers: [{ url: new URL(c.req.url).origin }], ...rest });
  };
}
