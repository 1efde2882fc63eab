import type { MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import { accessKeyMemberId } from '../../../../shared';
import { libraryFailure, toResponse } from '../../infra/http/responses';
import { ALGORITHM, parseAuthorization } from '../../infra/signing/verifier';
import { signedRequest } from '../../domain/members/signed-calls';
import { memberObject } from '../../objects/handles';
import type { MemberEnv } from './member-auth';

/**
 * `/api/v3` signed with a member's access key (docs/identity.md), else the bearer gate: the access
 * key id names the member, so the call goes straight to the member's object, where the signature
 * is verified in the one call that handles the request. Only the header's form and the key id's
 * are checked here (the 401s that need no object), in the service's own answer shape.
 */
export const signedOrBearer = (bearer: MiddlewareHandler<MemberEnv>) =>
  createMiddleware<MemberEnv>(async (c, next) => {
    const header = c.req.header('authorization');
    // The scheme alone is a signed call too (header values reach here trimmed).
    if (!header || (header !== ALGORITHM && !header.startsWith(`${ALGORITHM} `))) return bearer(c, next);
    const action = c.req.query('Action') ?? '';
    const parsed = parseAuthorization(header);
    if (!parsed.ok) return toResponse(libraryFailure(401, action, 'SignatureDoesNotMatch', parsed.message));
    const id = accessKeyMemberId(parsed.value.accessKeyId);
    if (!id) return toResponse(libraryFailure(401, action, 'InvalidAccessKey', 'The access key does not exist or is disabled.'));
    c.set('member', { id, tokenHash: '', state: memberObject(c.env, id) });
    c.set('memberId', id);
    c.set('signed', signedRequest(c.req.raw, parsed.value.signedHeaders));
    await next();
  });
