import { expiredLibrary, libraryFailure, type ProxyResponse } from '../../infra/http/responses';
import { signedHeaderList, verifyV4, type SignedParts } from '../../infra/signing/verifier';
import type { AccessKeyBook } from './access-keys';
import type { MemberContext } from './member-context';
import { scopeExpired } from './member-scope';

/**
 * A `/api/v3` call signed with a member's access key (docs/identity.md), as the member's object
 * receives it (with the exact bytes of its body beside it): the request's method, URL and the
 * headers the verifier reads, lowercase, nothing else.
 */
export interface SignedRequest {
  method: string;
  url: string;
  headers: [string, string][];
}

/** Read by the verifier whatever the caller lists. */
const ALWAYS_READ = ['authorization', 'host', 'x-content-sha256', 'x-date'] as const;

/**
 * What the member's object needs to verify a signed call: the headers the verifier reads and the
 * ones the caller listed (a list the verifier will refuse adds nothing), so no other header
 * crosses into the object and no Request is rebuilt there.
 */
export function signedRequest(request: Request, signedHeaders: string): SignedRequest {
  const list = signedHeaderList(signedHeaders);
  const names = new Set<string>([...ALWAYS_READ, ...(list.ok ? list.names : [])]);
  const headers: [string, string][] = [];
  for (const name of names) {
    const value = request.headers.get(name);
    if (value !== null) headers.push([name, value]);
  }
  return { method: request.method, url: request.url, headers };
}

/** The verifier's view of a SignedRequest: header names are lowercase on both sides. */
function partsOf(signed: SignedRequest): SignedParts {
  const headers = new Map(signed.headers);
  return { method: signed.method, url: signed.url, headers: { get: (name) => headers.get(name) ?? null } };
}

/**
 * Whether a signed call may go on as the member's: null when it may (the bearer call's path then
 * handles it), else the 401 in the service's own shape, with nothing sent upstream. `member` is
 * null for no active member (revoked: its keys are gone too). A member past their expiry is told
 * so only once the signature is right, as a bearer token is.
 */
export async function refuseSigned(keys: AccessKeyBook, member: MemberContext | null, signed: SignedRequest, body: ArrayBuffer, action: string, now: number): Promise<ProxyResponse | null> {
  const verified = member
    ? await verifyV4(partsOf(signed), new Uint8Array(body), { now, signingKey: (accessKeyId, date, region, service) => keys.signingKey(member.memberId, accessKeyId, date, region, service) })
    : ({ ok: false, code: 'InvalidAccessKey', message: 'The access key does not exist or is disabled.' } as const);
  if (!verified.ok) return libraryFailure(401, action, verified.code, verified.message);
  if (scopeExpired(member!.scope, now)) return expiredLibrary(action);
  keys.used(verified.accessKeyId, now);
  return null;
}
