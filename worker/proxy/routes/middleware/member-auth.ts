import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { ProxyEnv } from '../../infra/settings/proxy-env';
import type { MemberState } from '../../objects/member-state';
import { bearerToken, hashToken, tokenMemberId } from '../../domain/members/token';
import { toResponse, type ProxyResponse } from '../../infra/http/responses';

export interface MemberVars {
  member: { id: string; tokenHash: string; state: DurableObjectStub<MemberState> };
  memberId?: string;
  operation?: string;
}

/**
 * Object ids by member id, per namespace: an id is a pure function of the name, so it is derived
 * once, not per request (stubs are per request: they belong to the request that made them).
 */
const objectIds = new WeakMap<DurableObjectNamespace<MemberState>, Map<string, DurableObjectId>>();
const MAX_CACHED_IDS = 10_000;

function memberObjectId(namespace: DurableObjectNamespace<MemberState>, memberId: string): DurableObjectId {
  let ids = objectIds.get(namespace);
  if (!ids) objectIds.set(namespace, (ids = new Map()));
  let id = ids.get(memberId);
  if (!id) {
    if (ids.size >= MAX_CACHED_IDS) ids.clear();
    ids.set(memberId, (id = namespace.idFromName(memberId)));
  }
  return id;
}

/**
 * Routes a request to its member's object by the id inside the token. A token that is not of
 * our form is refused here; whether it is valid (not revoked, not rotated) is decided by the object.
 */
export const memberAuth = (unauthorized: (c: Context) => ProxyResponse) =>
  createMiddleware<{ Bindings: ProxyEnv; Variables: MemberVars }>(async (c, next) => {
    const token = bearerToken(c.req.header('authorization'));
    const id = token && tokenMemberId(token);
    if (!token || !id) return toResponse(unauthorized(c));
    c.set('member', { id, tokenHash: hashToken(token), state: c.env.MEMBERS.get(memberObjectId(c.env.MEMBERS, id)) });
    c.set('memberId', id);
    await next();
  });
