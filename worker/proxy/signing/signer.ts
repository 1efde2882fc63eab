import { API_REGION, API_SERVICE, canonicalQuery, hex, sha256Hex } from '../../../shared';

/**
 * Signs `/api/v3` requests with the service's HMAC-SHA256 scheme (service interface,
 * "Access key pair"). WebCrypto only. The derived signing key changes once a day, so it is
 * cached per date: the hot path costs two SHA-256 digests and one HMAC.
 */

export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
}

export interface SignedRequest {
  /** The headers to send, Host excluded (the runtime sets it from the URL, as signed). */
  headers: Record<string, string>;
  /** The exact bytes that were signed and must be sent. */
  body: Uint8Array<ArrayBuffer>;
}

const REGION = API_REGION;
const SERVICE = API_SERVICE;
export const SIGNED_HEADERS = 'content-type;host;x-content-sha256;x-date';
const CONTENT_TYPE = 'application/json';
const encoder = new TextEncoder();
/** UTF-8 bytes, typed for WebCrypto and fetch in both workerd's and the DOM's type libraries. */
const utf8 = (text: string) => encoder.encode(text) as Uint8Array<ArrayBuffer>;

const hmacKey = (raw: BufferSource): Promise<CryptoKey> =>
  crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
const hmac = async (key: CryptoKey, data: string): Promise<ArrayBuffer> => crypto.subtle.sign('HMAC', key, encoder.encode(data));

/** `YYYYMMDDTHHMMSSZ` for a date. */
export const formatXDate = (date: Date): string => date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');

export class Signer {
  readonly #credentials: Credentials;
  #cachedDate = '';
  #cachedKey: Promise<CryptoKey> | null = null;

  constructor(credentials: Credentials) {
    this.#credentials = credentials;
  }

  /** The day's signing key: HMAC chain over date, region, service and `request`; derived once a day. */
  signingKey(shortDate: string): Promise<CryptoKey> {
    if (shortDate !== this.#cachedDate || !this.#cachedKey) {
      this.#cachedDate = shortDate;
      this.#cachedKey = (async () => {
        let key = await hmacKey(encoder.encode(this.#credentials.secretAccessKey));
        for (const part of [shortDate, REGION, SERVICE, 'request']) key = await hmacKey(await hmac(key, part));
        return key;
      })();
    }
    return this.#cachedKey;
  }

  /**
   * Signs a POST to `url` with `body` (a string is encoded once; the same bytes must be sent).
   * The Host signed is `url.host`, including a non-default port, exactly as fetch sends it.
   */
  async sign(url: URL, body: Uint8Array<ArrayBuffer> | string, now: Date = new Date()): Promise<SignedRequest> {
    const bytes = typeof body === 'string' ? utf8(body) : body;
    const xDate = formatXDate(now);
    const shortDate = xDate.slice(0, 8);
    const payloadHash = await sha256Hex(bytes);
    const canonicalHeaders = `content-type:${CONTENT_TYPE}\nhost:${url.host}\nx-content-sha256:${payloadHash}\nx-date:${xDate}\n`;
    const canonicalRequest = ['POST', url.pathname, canonicalQuery(url.searchParams), canonicalHeaders, SIGNED_HEADERS, payloadHash].join('\n');
    const scope = `${shortDate}/${REGION}/${SERVICE}/request`;
    const stringToSign = ['HMAC-SHA256', xDate, scope, await sha256Hex(canonicalRequest)].join('\n');
    const signature = hex(await hmac(await this.signingKey(shortDate), stringToSign));
    return {
      body: bytes,
      headers: {
        'Content-Type': CONTENT_TYPE,
        'X-Date': xDate,
        'X-Content-Sha256': payloadHash,
        Authorization: `HMAC-SHA256 Credential=${this.#credentials.accessKeyId}/${scope}, SignedHeaders=${SIGNED_HEADERS}, Signature=${signature}`,
      },
    };
  }
}
