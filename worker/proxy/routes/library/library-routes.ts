import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { ACTIONS, API_VERSION, libraryEnvelopeSchema, librarySchemas } from '../../../../shared';
import { expiredLibrary, unauthorizedLibrary } from '../../infra/http/responses';
import { memberAnswer, memberAuth, type MemberEnv } from '../middleware/member-auth';
import { libraryLimit } from '../middleware/limits';
import { signedOrBearer } from '../middleware/signed-auth';
import { ACCESS_KEY, envelopeErrors, IDEMPOTENCY_KEY, json, MEMBER, oneOfBodies } from '../openapi/route-docs';

/** `/api/v3`: the asset library, one operation per `Action`, handled in the member's object (domain/library/). */
export const libraryRoutes = new Hono<MemberEnv>();

libraryRoutes.post('/', describeRoute({
  summary: 'The asset library: one of twelve operations, named by Action',
  description:
    'The service\'s `/api/v3` interface, signed by the proxy. The body is the operation\'s, checked with the schema of the `Action` named. ' +
    'The answer is the service\'s envelope byte for byte. Members are apart: another member\'s id is 403 `AccessDenied`. ' +
    'Authenticated with a member token, or signed as the service\'s SDK signs (HMAC-SHA256, region `cn-beijing`, service `ark`) with a member access key (`POST /proxy/access-keys`). ' +
    '`CreatePortraitSession` needs a consent on record (`POST /proxy/consents`). `CreateAssetGroup` and `CreateAsset` take an `Idempotency-Key`.',
  tags: ['library'],
  security: [...MEMBER, ...ACCESS_KEY],
  parameters: [
    { in: 'query', name: 'Action', required: true, description: 'The operation.', schema: { type: 'string', enum: [...ACTIONS] } },
    { in: 'query', name: 'Version', required: true, schema: { type: 'string', enum: [API_VERSION] } },
    IDEMPOTENCY_KEY,
  ],
  requestBody: oneOfBodies(librarySchemas(), 'The body of the operation named by `Action` (asset `URL`s https-only unless the proxy allows http media).'),
  responses: {
    200: json('The service\'s envelope: `Result`, or `ResponseMetadata.Error` (the service may answer a failure with 200: always check it).', libraryEnvelopeSchema),
    ...envelopeErrors({
      400: '`ValidationError`: the body, `Action` or `Version` refused; the message names the field.',
      401: '`AuthenticationFailed`: no valid member token; `token_expired`: the member\'s scope has expired; on a signed call, `SignatureDoesNotMatch` (a malformed header, a wrong signature, X-Date over 15 minutes off) or `InvalidAccessKey` (an unknown, deleted or revoked key).',
      403: '`AccessDenied`: another member\'s id, or one never obtained.',
      409: '`IdempotencyInProgress`: the first request with this key still runs.',
      413: '`RequestTooLarge`: a body over 1 MB.',
      422: '`IdempotencyKeyReused`: the key was used with another body.',
      429: '`RequestLimitExceeded`: the service is rate limiting; wait `Retry-After` seconds.',
      502: '`ServiceUnavailable`, `InternalError` or the service\'s code: the service could not be reached, answered unreadably, or refused the proxy\'s keys.',
      503: '`ServiceUnavailable`: the service is unavailable now.',
      504: '`UpstreamTimeout`: no answer within `UPSTREAM_TIMEOUT_MS`.',
    }),
  },
}), signedOrBearer(memberAuth((c) => unauthorizedLibrary(c.req.query('Action') ?? ''), (c) => expiredLibrary(c.req.query('Action') ?? ''))), libraryLimit, async (c) => {
  const action = c.req.query('Action') ?? '';
  c.set('operation', action);
  const { state, tokenHash } = c.get('member');
  const call = {
    action,
    version: c.req.query('Version') ?? null,
    body: await c.req.arrayBuffer(),
    idempotencyKey: c.req.header('idempotency-key') ?? null,
  };
  // A signed call: verified in the member's object, then handled there as the bearer call.
  const signed = c.get('signed');
  const result = signed ? await state.signedLibrary(signed, call) : await state.library(tokenHash, call);
  return memberAnswer(result, () => unauthorizedLibrary(action));
});
