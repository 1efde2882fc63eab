/**
 * What the service's HMAC-SHA256 scheme signs (service interface, "Access key pair"): the
 * credential scope, the canonical request and the string to sign. The one builder of each, for
 * the signer (signer.ts) and the verifier (verify-v4.ts), so the two cannot drift apart.
 */

export const ALGORITHM = 'HMAC-SHA256';
/** The credential scope's last part. */
export const SCOPE_END = 'request';

/** `<date>/<region>/<service>/request`: what the signing key is derived from, in that order. */
export const credentialScope = (date: string, region: string, service: string): string => `${date}/${region}/${service}/${SCOPE_END}`;

/** A signed header as it enters the canonical request: its lowercase name and its value as sent. */
export type SignedHeader = readonly [name: string, value: string];

/**
 * The canonical request: method, path, canonical query (canonical-query.ts), each signed header as
 * `name:value` (value trimmed) in the order given, an empty line, the names joined by `;`, and the
 * payload's SHA-256 as lowercase hex. Exactly the headers given are signed, in their order: the
 * verifier passes the caller's list as it came, so an unsorted one is never silently repaired.
 */
export function canonicalRequest(method: string, path: string, query: string, headers: readonly SignedHeader[], payloadHash: string): string {
  let lines = '';
  const names: string[] = [];
  for (const [name, value] of headers) {
    lines += `${name}:${value.trim()}\n`;
    names.push(name);
  }
  return `${method}\n${path}\n${query}\n${lines}\n${names.join(';')}\n${payloadHash}`;
}

/** The string to sign up to the canonical request's SHA-256 (as lowercase hex), which ends it. */
export const stringToSignStart = (xDate: string, scope: string): string => `${ALGORITHM}\n${xDate}\n${scope}\n`;
