import { hex, sameSecret, sha256Hex as webCryptoSha256Hex } from '../bytes';
import { canonicalQuery } from '../library/canonical-query';
import { API_REGION, API_SERVICE } from '../library/constants';
import { LIMITS } from '../limits';
import { clip } from '../request-body';
import { parseAuthorization } from './authorization';
import { canonicalRequest, credentialScope, SCOPE_END, stringToSignStart, type SignedHeader } from './canonical-request';
import { hmacKey, hmacSha256Hex, sha256Hex } from './sha256';
import { signedHeaderList } from './signed-headers';

/**
 * Verifies a request signed with the service's HMAC-SHA256 scheme over the headers its caller
 * listed in SignedHeaders, as any V4 verifier does: the vendor's Node signer lists
 * `host;x-content-sha256;x-date`, its Python signer `content-type`, `host` and every `x-*` header
 * it sends, the proxy's signer `content-type;host;x-content-sha256;x-date`. Used by the sandbox
 * for the service's keys; the key comes from a callback so a caller can keep its own keys
 * (and cache each derived key per access key and date).
 */

/**
 * The signing key of `accessKeyId` for a scope (deriveSigningKey in signing-key.ts, or a cached
 * copy), or undefined when the access key is unknown or disabled. Called only for a request whose
 * form, scope, header list and time are right, so a caller's cache holds no dates an attacker chose.
 */
export type SigningKeyLookup = (accessKeyId: string, date: string, region: string, service: string) => Promise<CryptoKey | Uint8Array | undefined>;

export interface VerifyOptions {
  /** The verifier's time in ms since the epoch, for the skew rule. */
  now: number;
  signingKey: SigningKeyLookup;
  /** The scope the key must be for (default: the service's). */
  region?: string;
  service?: string;
  /** Largest difference between X-Date and `now` (default: the service's 15 minutes). */
  maxSkewSeconds?: number;
}

/**
 * What the verifier reads of a request: a `Request` is one; a caller that holds a request's parts
 * elsewhere (the proxy's member object) passes only those, not a rebuilt Request.
 */
export interface SignedParts {
  method: string;
  url: string;
  headers: { get(name: string): string | null };
}

/** Which rule a refused request broke, for callers that act on it (logs, counters). */
export type VerifyRule = 'authorization' | 'scope' | 'signed-headers' | 'x-date' | 'skew' | 'access-key' | 'payload-hash' | 'signature';

export type Verification =
  | { ok: true; accessKeyId: string; signedHeaders: readonly string[] }
  | { ok: false; code: 'SignatureDoesNotMatch' | 'InvalidAccessKey'; rule: VerifyRule; message: string };

const X_DATE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;
const encoder = new TextEncoder();

const refuse = (rule: VerifyRule, message: string): Verification => ({ ok: false, code: 'SignatureDoesNotMatch', rule, message });
const plural = (count: number, unit: string): string => `${count} ${unit}${count === 1 ? '' : 's'}`;
const span = (seconds: number): string => (seconds % 60 === 0 ? plural(seconds / 60, 'minute') : plural(seconds, 'second'));

async function hmacHex(key: CryptoKey | Uint8Array, data: string): Promise<string> {
  if (key instanceof Uint8Array) return hmacSha256Hex(hmacKey(key), [data]);
  return hex(await crypto.subtle.sign('HMAC', key, encoder.encode(data)));
}

/**
 * Checks `request`'s signature over `body` (the exact bytes received). The rules, in order: the
 * Authorization header's form; the scope; the SignedHeaders list (signed-headers.ts); X-Date, its
 * day against the scope's and its skew against `now`; the access key; every listed header sent (the
 * Host is the URL's when the runtime keeps it there); X-Content-Sha256, when sent, listed and equal
 * to the body's SHA-256; last the signature over exactly the listed headers, compared in constant time.
 */
export async function verifyV4(request: SignedParts, body: Uint8Array<ArrayBuffer>, options: VerifyOptions): Promise<Verification> {
  const region = options.region ?? API_REGION;
  const service = options.service ?? API_SERVICE;
  const maxSkewSeconds = options.maxSkewSeconds ?? LIMITS.clockSkewSeconds;

  const parsed = parseAuthorization(request.headers.get('authorization'));
  if (!parsed.ok) return refuse('authorization', parsed.message);
  const auth = parsed.value;
  if (auth.region !== region || auth.service !== service || auth.end !== SCOPE_END) {
    return refuse('scope', `The credential scope must be ${credentialScope('<date>', region, service)}.`);
  }
  const list = signedHeaderList(auth.signedHeaders);
  if (!list.ok) return refuse('signed-headers', list.message);

  const xDate = request.headers.get('x-date') ?? '';
  const when = X_DATE.exec(xDate);
  if (!when) return refuse('x-date', 'X-Date is missing or not of the form YYYYMMDDTHHMMSSZ.');
  if (xDate.slice(0, 8) !== auth.date) return refuse('x-date', 'The credential scope date does not match X-Date.');
  const sentMs = Date.UTC(+when[1]!, +when[2]! - 1, +when[3]!, +when[4]!, +when[5]!, +when[6]!);
  if (Math.abs(options.now - sentMs) > maxSkewSeconds * 1000) {
    return refuse('skew', `X-Date differs from the server time by more than ${span(maxSkewSeconds)}.`);
  }

  const key = await options.signingKey(auth.accessKeyId, auth.date, region, service);
  if (!key) return { ok: false, code: 'InvalidAccessKey', rule: 'access-key', message: 'The access key does not exist or is disabled.' };

  const url = new URL(request.url);
  const headers: SignedHeader[] = [];
  for (const name of list.names) {
    const value = name === 'host' ? (request.headers.get('host') ?? url.host) : request.headers.get(name);
    if (value === null) return refuse('signed-headers', `SignedHeaders lists ${clip(name)}, which the request does not send.`);
    headers.push([name, value]);
  }

  const payloadHash = await webCryptoSha256Hex(body);
  const claimedHash = request.headers.get('x-content-sha256');
  if (claimedHash !== null) {
    if (!list.names.includes('x-content-sha256')) {
      return refuse('signed-headers', 'SignedHeaders must include x-content-sha256 when the X-Content-Sha256 header is sent.');
    }
    if (claimedHash !== payloadHash) return refuse('payload-hash', 'X-Content-Sha256 does not match the SHA-256 of the request body.');
  }

  const canonical = canonicalRequest(request.method, url.pathname, canonicalQuery(url.searchParams), headers, payloadHash);
  const toSign = stringToSignStart(xDate, credentialScope(auth.date, region, service)) + sha256Hex(canonical);
  if (!sameSecret(await hmacHex(key, toSign), auth.signature)) {
    return refuse('signature', 'The request signature does not match the signature computed by the server.');
  }
  return { ok: true, accessKeyId: auth.accessKeyId, signedHeaders: list.names };
}
