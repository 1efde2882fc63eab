import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { bearerToken, hashToken, tokenMemberId } from '../../domain/members/token';
import { toResponse, type ProxyResponse } from '../../infra/http/responses';
import type { ProxyEnv } from '../../infra/settings/proxy-env';
import { memberObject } from '../../objects/handles';
import type { MemberState } from '../../objects/member-state';

export interface MemberVars {
  member: { id: string; tokenHash: string; state: DurableObjectStub<MemberState> };
  memberId?: string;
  operation?: string;
}

/** The bindings and variables of every member route. */
export type MemberEnv = { Bindings: ProxyEnv; Variables: MemberVars };

/**
 * Routes a request to its member's object by the id inside the token. A token that is not of
 * our form is refused here; whether it is valid (not revoked, not rotated) is decided by the object.
 */
export const memberAuth = (unauthorized: (c: Context) => ProxyResponse) =>
  createMiddleware<MemberEnv>(async (c, next) => {
    const token = bearerToken(c.req.header('authorization'));
    const id = token && tokenMemberId(token);
    if (!token || !id) return toResponse(unauthorized(c));
    c.set('member', { id, tokenHash: hashToken(token), state: memberObject(c.env, id) });
    c.set('memberId', id);
    await next();
  });

/** Answers a member call; `null` from the member's object means the token is no longer valid. */
export const memberAnswer = (result: ProxyResponse | null, unauthorized: () => ProxyResponse): Response => toResponse(result ?? unauthorized());
