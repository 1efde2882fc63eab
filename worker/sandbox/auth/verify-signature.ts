import { API_REGION, API_SERVICE, LIMITS } from '../../../shared';
import type { Account, AccountBook } from '../accounts';
import { canonicalQuery, hex, sameSecret, sha256Hex } from '../../../shared';

/**
 * The service's check of a signed `/api/v3` request, written from the interface text alone and
 * apart from the proxy's signer, so that a mistake in one cannot hide behind the other.
 */

export type Verdict =
  | { ok: true; account: Account }
  | { ok: false; code: 'SignatureDoesNotMatch' | 'InvalidAccessKey'; message: string };

const SIGNED_HEADERS = 'content-type;host;x-content-sha256;x-date';
/** Longest Authorization header read: a real one is about 250 characters, the access key included. */
export const AUTHORIZATION_MAX = 4096;
const AUTH = /^HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([^/,\s]+)\/([^/,\s]+)\/([^/,\s]+), SignedHeaders=([^,\s]+), Signature=([0-9a-f]{64})$/;
const X_DATE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;
const encoder = new TextEncoder();

async function hmac(key: BufferSource, data: string): Promise<ArrayBuffer> {
  const k = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return crypto.subtle.sign('HMAC', k, encoder.encode(data));
}

const fail = (message: string): Verdict => ({ ok: false, code: 'SignatureDoesNotMatch', message });

/**
 * Verifies a request's signature over `body` (the exact bytes received).
 * @param nowMs the server's real time, for the 15-minute skew rule.
 */
export async function verifySignature(request: Request, body: ArrayBuffer, accounts: AccountBook, nowMs: number): Promise<Verdict> {
  const auth = request.headers.get('authorization');
  if (!auth) return fail('The request is not signed: the Authorization header is missing.');
  if (auth.length > AUTHORIZATION_MAX) return fail(`The Authorization header is longer than ${AUTHORIZATION_MAX} characters.`);
  const match = AUTH.exec(auth);
  if (!match) return fail('The Authorization header is not of the form "HMAC-SHA256 Credential=..., SignedHeaders=..., Signature=...".');
  const [, accessKey, scopeDate, region, service, terminal, signedHeaders, signature] = match as unknown as string[];
  const account = accounts.byAccessKey(accessKey!);
  if (!account) return { ok: false, code: 'InvalidAccessKey', message: 'The access key does not exist or is disabled.' };
  if (region !== API_REGION || service !== API_SERVICE || terminal !== 'request') {
    return fail(`The credential scope must be <date>/${API_REGION}/${API_SERVICE}/request.`);
  }
  if (signedHeaders !== SIGNED_HEADERS) return fail(`SignedHeaders must be ${SIGNED_HEADERS}.`);

  const xDate = request.headers.get('x-date') ?? '';
  const when = X_DATE.exec(xDate);
  if (!when) return fail('X-Date is missing or not of the form YYYYMMDDTHHMMSSZ.');
  if (xDate.slice(0, 8) !== scopeDate) return fail('The credential scope date does not match X-Date.');
  const sentMs = Date.UTC(+when[1]!, +when[2]! - 1, +when[3]!, +when[4]!, +when[5]!, +when[6]!);
  if (Math.abs(nowMs - sentMs) > LIMITS.clockSkewSeconds * 1000) {
    return fail('X-Date differs from the server time by more than 15 minutes.');
  }

  const payloadHash = await sha256Hex(new Uint8Array(body));
  const claimedHash = request.headers.get('x-content-sha256') ?? '';
  if (claimedHash !== payloadHash) return fail('X-Content-Sha256 does not match the SHA-256 of the request body.');

  const url = new URL(request.url);
  const host = request.headers.get('host') ?? url.host;
  const canonicalHeaders = `content-type:${(request.headers.get('content-type') ?? '').trim()}\nhost:${host}\nx-content-sha256:${claimedHash}\nx-date:${xDate}\n`;
  const canonicalRequest = [request.method, url.pathname, canonicalQuery(url.searchParams), canonicalHeaders, SIGNED_HEADERS, payloadHash].join('\n');
  const scope = `${scopeDate}/${API_REGION}/${API_SERVICE}/request`;
  const stringToSign = ['HMAC-SHA256', xDate, scope, await sha256Hex(canonicalRequest)].join('\n');

  let key: ArrayBuffer = encoder.encode(account.secretAccessKey).buffer as ArrayBuffer;
  for (const part of [scopeDate!, API_REGION, API_SERVICE, 'request']) key = await hmac(key, part);
  const expected = hex(await hmac(key, stringToSign));
  if (!sameSecret(expected, signature!)) return fail('The request signature does not match the signature computed by the server.');
  return { ok: true, account };
}
