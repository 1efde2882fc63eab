import { toJsonSchema } from '@valibot/to-json-schema';
import { resolver, type DescribeRouteOptions, type ResolverReturnType } from 'hono-openapi';
import type * as v from 'valibot';
import { errorAnswerSchema, libraryEnvelopeSchema } from '../../../../shared';
import { CSRF_HEADER, SESSION_COOKIE } from '../admin/admin-auth';
import { ACCESS_HEADER } from '../../domain/admin/access-identity';

/**
 * Pieces of the `describeRoute({...})` each route of the proxy carries (hono-openapi): security,
 * JSON bodies and answers resolved from the shared valibot schemas, query parameters, the error
 * answers. The document itself is put together in openapi-document.ts.
 */

type Responses = NonNullable<DescribeRouteOptions['responses']>;
type Response = Responses[string];
type Parameter = Exclude<NonNullable<DescribeRouteOptions['parameters']>[number], { $ref: string }>;
type Security = NonNullable<DescribeRouteOptions['security']>;

/** The document's tags, in this order. */
export const TAGS = [
  { name: 'library', description: 'The asset library: the service\'s `/api/v3` interface, signed by the proxy.' },
  { name: 'video', description: 'Video generation: the service\'s `/v1` interface, priced against budgets.' },
  { name: 'member', description: 'The calling member\'s own records: profile, consents, capabilities, usage.' },
  { name: 'media', description: 'The media store: uploads, kept outputs, signed `/media` addresses.' },
  { name: 'team', description: 'The team library: groups shared with roles, the team gallery (docs/team-library.md).' },
  { name: 'admin', description: 'Members, prices, budgets and reports, for the team\'s operator.' },
  { name: 'health', description: 'Health and this document; no token.' },
] as const;

export const SECURITY_SCHEMES = {
  memberToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'A member token (`abk_m<16 hex>_<43 characters>`), from the operator (`POST /admin/members`).',
  },
  memberAccessKey: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: 'An `/api/v3` call signed as the service\'s SDKs sign (`HMAC-SHA256 Credential=<access key id>/<date>/cn-beijing/ark/request, SignedHeaders=..., Signature=...` with `X-Date`) with a member access key (`POST /proxy/access-keys`).',
  },
  adminToken: { type: 'http', scheme: 'bearer', description: 'The proxy\'s `ADMIN_TOKEN` (scripts, `npm run members`).' },
  cloudflareAccess: {
    type: 'apiKey',
    in: 'header',
    name: ACCESS_HEADER,
    description: 'A Cloudflare Access assertion in front of the proxy: the identity\'s email is the actor in the audit log.',
  },
  consoleSession: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description: `A session of the console (\`/console\`); a change made with it also needs the session's \`${CSRF_HEADER}\` header and the proxy's own Origin.`,
  },
  mediaSignature: {
    type: 'apiKey',
    in: 'query',
    name: 'sig',
    description: 'The signature of a `/media` address as the proxy handed it out (with its `expires`); no token.',
  },
} as const;

export const MEMBER: Security = [{ memberToken: [] }];
/** A member access key's signature (`/api/v3` only). */
export const ACCESS_KEY: Security = [{ memberAccessKey: [] }];
/** Any one of the three admin credentials (routes/admin/admin-auth.ts). */
export const ADMIN: Security = [{ adminToken: [] }, { cloudflareAccess: [] }, { consoleSession: [] }];
export const SIGNED_MEDIA: Security = [{ mediaSignature: [] }];
/** No credential at all. */
export const OPEN: Security = [];

/** Request schemas are documented as what a caller sends: the type before any `v.transform` (queries are strings). */
const INPUT = { options: { typeMode: 'input' } };

/** A required JSON body checked with `schema`. */
export const jsonBody = (schema: v.GenericSchema, description?: string): NonNullable<DescribeRouteOptions['requestBody']> => ({
  required: true,
  ...(description ? { description } : {}),
  content: { 'application/json': { schema: resolver(schema, INPUT) } },
});

type Content = NonNullable<Exclude<Response, { $ref: string }>['content']>;

/** A JSON answer of the shape of `schema` (or one of the `alternatives`, by `Accept` or a parameter). */
export const json = (description: string, schema: v.GenericSchema, alternatives: Content = {}): Response => ({
  description,
  content: { 'application/json': { schema: resolver(schema) }, ...alternatives },
});

/** An answer without a body. */
export const empty = (description: string): Response => ({ description });

/** Error answers `{"error":{"code","message",...}}`, by status: the description names the codes and when. */
export const errors = (byStatus: Record<number, string>): Responses =>
  Object.fromEntries(Object.entries(byStatus).map(([status, description]) => [status, json(description, errorAnswerSchema)]));

/** `/api/v3` failure envelopes (`ResponseMetadata.Error`), by status. */
export const envelopeErrors = (byStatus: Record<number, string>): Responses =>
  Object.fromEntries(Object.entries(byStatus).map(([status, description]) => [status, json(description, libraryEnvelopeSchema)]));

/** The answer every route may give when the proxy itself fails (added to every operation). */
export const INTERNAL_ERROR: Responses = errors({ 500: '`internal_error`: the proxy failed to handle the request.' });

export const UNAUTHORIZED_MEMBER = '`unauthorized`: no valid member token (missing, malformed, unknown, revoked or rotated away).';
/** What every admin route may refuse. */
export const ADMIN_REFUSALS = {
  401: '`unauthorized`: no valid admin credential (token, Access assertion or console session).',
  403: '`forbidden`: a refused Access assertion; or a change from a foreign Origin, or made with a console session without its CSRF token.',
};
export const TOO_LARGE_JSON = '`request_too_large`: a body over 1 MB.';
export const INVALID_JSON = '`invalid_parameter`: the body is not JSON of this shape; `param` names the field.';

/**
 * Query parameters from a strict object schema: one per entry, required unless optional. Converted
 * once, as the route is defined (a handful of small schemas), with the options `resolver` uses.
 */
export function queryParameters(schema: v.GenericSchema, descriptions: Record<string, string> = {}): Parameter[] {
  const converted = toJsonSchema(schema, { typeMode: 'input', errorMode: 'ignore' }) as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  return Object.entries(converted.properties ?? {}).map(([name, property]) => ({
    in: 'query',
    name,
    required: converted.required?.includes(name) ?? false,
    ...(descriptions[name] ? { description: descriptions[name] } : {}),
    schema: property,
  }));
}

/** The `Idempotency-Key` header of the creates (docs/proxy-api.md, "Safe retries"). */
export const IDEMPOTENCY_KEY: Parameter = {
  in: 'header',
  name: 'Idempotency-Key',
  required: false,
  description: 'The same member and key within 24 hours return the first response without calling the service; with another body: 422.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
};

/** The `Prefer` header of video creates (docs/queue.md): `respond-async` queues a create that cannot start now; anything else is ignored. */
export const PREFER: Parameter = {
  in: 'header',
  name: 'Prefer',
  required: false,
  description: '`respond-async` (RFC 7240): a create that cannot start now is queued and answered 202 rather than refused 429. A malformed header is ignored.',
  schema: { type: 'string', maxLength: 1024 },
};

/**
 * A body that is one of several named schemas (`oneOf`, each a component `<name>Request`), chosen
 * by something outside the body, such as `/api/v3`'s `Action`: the resolver of each schema, joined.
 */
export function oneOfBodies(schemas: Record<string, v.GenericSchema>, description: string): NonNullable<DescribeRouteOptions['requestBody']> {
  const [first] = Object.values(schemas);
  if (!first) throw new Error('oneOfBodies: no schema');
  const joined: ResolverReturnType = {
    // hono-openapi reads only `toOpenAPISchema` of a body's resolver; the rest is the first schema's.
    ...resolver(first, INPUT),
    async toOpenAPISchema() {
      const components: { schemas: Record<string, object> } = { schemas: {} };
      const refs = [];
      for (const [name, schema] of Object.entries(schemas)) {
        const resolved = await resolver(schema, INPUT).toOpenAPISchema();
        Object.assign(components.schemas, resolved.components?.schemas);
        components.schemas[`${name}Request`] = { title: name, ...resolved.schema };
        refs.push({ $ref: `#/components/schemas/${name}Request` });
      }
      return { schema: { oneOf: refs }, components };
    },
  };
  return { required: true, description, content: { 'application/json': { schema: joined } } };
}
