import { expiredLibrary, libraryFailure, type ProxyResponse } from '../../infra/http/responses';
import { verifyV4 } from '../../infra/signing/verifier';
import type { AccessKeyBook } from './access-keys';
import type { MemberContext } from './member-context';
import { scopeExpired } from './member-scope';

/**
 * A `/api/v3` call signed with a member's access key (docs/identity.md), as the member's object
 * receives it: the request's method, URL and headers, and the exact bytes of its body.
 */
export interface SignedRequest {
  method: string;
  url: string;
  headers: [string, string][];
}

/**
 * Whether a signed call may go on as the member's: null when it may (the bearer call's path then
 * handles it), else the 401 in the service's own shape, with nothing sent upstream. `member` is
 * null for no active member (revoked: its keys are gone too). A member past their expiry is told
 * so only once the signature is right, as a bearer token is.
 */
export async function refuseSigned(keys: AccessKeyBook, member: MemberContext | null, signed: SignedRequest, body: ArrayBuffer, action: string, now: number): Promise<ProxyResponse | null> {
  const request = new Request(signed.url, { method: signed.method, headers: signed.headers });
  const verified = member
    ? await verifyV4(request, new Uint8Array(body), { now, signingKey: (accessKeyId, date, region, service) => keys.signingKey(member.memberId, accessKeyId, date, region, service) })
    : ({ ok: false, code: 'InvalidAccessKey', message: 'The access key does not exist or is disabled.' } as const);
  if (!verified.ok) return libraryFailure(401, action, verified.code, verified.message);
  if (scopeExpired(member!.scope, now)) return expiredLibrary(action);
  keys.used(verified.accessKeyId, now);
  return null;
}
