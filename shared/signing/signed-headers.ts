/**
 * The rules of a SignedHeaders list, as the service applies them to whatever list the caller
 * signed: lowercase names, sorted, no repeats, `host` and `x-date` among them. Whether the request
 * sends each listed header is the verifier's to check (verify-v4.ts): it needs the request.
 */

import { clip } from '../request-body';

/** What the proxy signs by default, the service's own example list. */
export const DEFAULT_SIGNED_HEADERS: readonly string[] = ['content-type', 'host', 'x-content-sha256', 'x-date'];
/** Longest list read: the vendor's signers list four to eight headers. */
export const SIGNED_HEADERS_MAX = 64;
/** The headers every list must include: the destination and the time are always signed. */
const REQUIRED = ['host', 'x-date'] as const;
/** A lowercase HTTP header name (RFC 9110 token); one character at a time, so linear. */
const NAME = /^[a-z0-9!#$%&'*+.^_`|~-]+$/;

export type SignedHeaderList = { ok: true; names: readonly string[] } | { ok: false; message: string };

/** Splits `a;b;c` and checks it against the rules above; the message says which rule failed. */
export function signedHeaderList(text: string): SignedHeaderList {
  const names = text.split(';', SIGNED_HEADERS_MAX + 1);
  if (names.length > SIGNED_HEADERS_MAX) return { ok: false, message: `SignedHeaders lists more than ${SIGNED_HEADERS_MAX} headers.` };
  for (const name of names) {
    if (!NAME.test(name)) return { ok: false, message: 'SignedHeaders must be lowercase header names separated by ";".' };
  }
  for (let i = 1; i < names.length; i++) {
    if (names[i - 1]! >= names[i]!) {
      return { ok: false, message: `SignedHeaders must be sorted, each name once: "${clip(names[i]!)}" comes after "${clip(names[i - 1]!)}".` };
    }
  }
  for (const name of REQUIRED) {
    if (!names.includes(name)) return { ok: false, message: `SignedHeaders must include ${name}.` };
  }
  return { ok: true, names };
}
