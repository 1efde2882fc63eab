import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { bearerToken, hashToken, tokenMemberId } from '../../domain/members/token';
import type { SignedRequest } from '../../domain/members/signed-calls';
import { toResponse, type ProxyResponse } from '../../infra/http/responses';
import type { ProxyEnv } from '../../infra/settings/proxy-env';
import { memberObject } from '../../objects/handles';
import type { MemberState } from '../../objects/member-state';

export interface MemberVars {
  member: { id: string; tokenHash: string; state: DurableObjectStub<MemberState> };
  memberId?: string;
  operation?: string;
  /** The call is signed with a member's access key (signed-auth.ts), not made with a token: what its verification reads. */
  signed?: SignedRequest;
}

/** The bindings and variables of every member route. */
export type MemberEnv = { Bindings: ProxyEnv; Variables: MemberVars };

/**
 * Routes a request to its member's object by the id inside the token. A token that is not of
 * our form is refused here; whether it is valid (one of the member's tokens, not revoked, not
 * expired) is decided by the object, in the one call that handles the request.
 *
 * A 401 of a route is the object's refusal (the service's own 401 reaches members as 502): only
 * then is the object asked why, and a token of a member whose scope has expired is answered
 * `token_expired` (`expired`) instead of `unauthorized`. So every member route, present and future,
 * says so without a second call on its way through.
 */
export const memberAuth = (unauthorized: (c: Context) => ProxyResponse, expired: (c: Context) => ProxyResponse) =>
  createMiddleware<MemberEnv>(async (c, next) => {
    const token = bearerToken(c.req.header('authorization'));
    const id = token && tokenMemberId(token);
    if (!token || !id) return toResponse(unauthorized(c));
    const member = { id, tokenHash: hashToken(token), state: memberObject(c.env, id) };
    c.set('member', member);
    c.set('memberId', id);
    await next();
    if (c.res.status === 401 && (await member.state.refusal(member.tokenHash)) === 'token_expired') c.res = toResponse(expired(c));
  });

/** Answers a member call; `null` from the member's object means the token is no longer valid. */
export const memberAnswer = (result: ProxyResponse | null, unauthorized: () => ProxyResponse): Response => toResponse(result ?? unauthorized());
