import { ALGORITHM } from './canonical-request';

/**
 * The Authorization header of a signed request:
 * `HMAC-SHA256 Credential=<AK>/<date>/<region>/<service>/<end>, SignedHeaders=<a;b;c>, Signature=<hex>`.
 * Written by the signer and read by the verifier, here only.
 */

/** Longest Authorization header read: a real one is about 250 characters, the access key included. */
export const AUTHORIZATION_MAX = 4096;

/**
 * Linear: anchored, and every repeated class stops at a character it excludes (`/`, `,`, space),
 * so no part can be matched in two ways. Read only within AUTHORIZATION_MAX.
 */
const FORM = new RegExp(`^${ALGORITHM} Credential=([^/,\\s]+)/(\\d{8})/([^/,\\s]+)/([^/,\\s]+)/([^/,\\s]+), SignedHeaders=([^,\\s]+), Signature=([0-9a-f]{64})$`);

export interface Authorization {
  accessKeyId: string;
  /** The scope's date, `YYYYMMDD`. */
  date: string;
  region: string;
  service: string;
  /** The scope's last part (`request` when right). */
  end: string;
  /** SignedHeaders as sent, not yet checked (signed-headers.ts). */
  signedHeaders: string;
  signature: string;
}

export type ParsedAuthorization = { ok: true; value: Authorization } | { ok: false; message: string };

export function parseAuthorization(header: string | null): ParsedAuthorization {
  if (!header) return { ok: false, message: 'The request is not signed: the Authorization header is missing.' };
  if (header.length > AUTHORIZATION_MAX) return { ok: false, message: `The Authorization header is longer than ${AUTHORIZATION_MAX} characters.` };
  const match = FORM.exec(header);
  if (!match) return { ok: false, message: `The Authorization header is not of the form "${ALGORITHM} Credential=..., SignedHeaders=..., Signature=...".` };
  const [, accessKeyId, date, region, service, end, signedHeaders, signature] = match as unknown as string[];
  return { ok: true, value: { accessKeyId: accessKeyId!, date: date!, region: region!, service: service!, end: end!, signedHeaders: signedHeaders!, signature: signature! } };
}

/** The header up to the signature's hex, which the signer appends. */
export const authorizationStart = (accessKeyId: string, scope: string, signedHeaders: string): string =>
  `${ALGORITHM} Credential=${accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=`;
