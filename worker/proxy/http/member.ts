import { createMiddleware } from 'hono/factory';
import type { ProxyEnv } from '../env';
import type { MemberState } from '../members/member-state';
import { bearerToken, hashToken, tokenMemberId } from '../members/token';
import { toResponse, type ProxyResponse } from './responses';

export interface MemberVars {
  member: { id: string; tokenHash: string; state: DurableObjectStub<MemberState> };
  memberId?: string;
  operation?: string;
}

/**
 * Routes a request to its member's object by the id inside the token. A token that is not of
 * our form is refused here; whether it is valid (not revoked, not rotated) is decided by the object.
 */
export const memberAuth = (unauthorized: () => ProxyResponse) =>
  createMiddleware<{ Bindings: ProxyEnv; Variables: MemberVars }>(async (c, next) => {
    const token = bearerToken(c.req.header('authorization'));
    const id = token && tokenMemberId(token);
    if (!token || !id) return toResponse(unauthorized());
    c.set('member', { id, tokenHash: await hashToken(token), state: c.env.MEMBERS.get(c.env.MEMBERS.idFromName(id)) });
    c.set('memberId', id);
    await next();
  });
