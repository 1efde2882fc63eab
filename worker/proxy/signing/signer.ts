import { API_REGION, API_SERVICE, canonicalQuery, sha256Hex as webCryptoSha256Hex } from '../../../shared';
import { hmacKey as jsHmacKey, hmacSha256Hex, Sha256, type HmacKey } from './sha256';

/**
 * Signs `/api/v3` requests with the service's HMAC-SHA256 scheme (service interface,
 * "Access key pair"). The derived signing key changes once a day, so it is derived once per date
 * (WebCrypto), and what depends only on the URL, the second or the day is cached too. The hot path
 * is then synchronous JS (sha256.ts): two SHA-256 of small inputs and one HMAC from the key's
 * cached pad states, cheaper inside workerd than three WebCrypto calls.
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
/** In the canonical request, after the last header: the empty line ending the headers, then their names. */
const HEADER_NAMES = `\n\n${SIGNED_HEADERS}\n`;
const CONTENT_TYPE = 'application/json';
const encoder = new TextEncoder();
/** UTF-8 bytes, typed for WebCrypto and fetch in both workerd's and the DOM's type libraries. */
const utf8 = (text: string) => encoder.encode(text) as Uint8Array<ArrayBuffer>;

/**
 * Bodies up to this many bytes are hashed in JS: inside workerd that is faster than a WebCrypto
 * call below it (about four blocks, measured with the bench's signing Worker); above it
 * WebCrypto's native code wins.
 */
const JS_HASH_MAX = 256;
/** Cached URLs: the proxy signs a dozen distinct ones (one per operation); more would be a caller's mistake. */
const MAX_CACHED_URLS = 64;

const hmacKey = (raw: BufferSource): Promise<CryptoKey> =>
  crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
const hmac = async (key: CryptoKey, data: string): Promise<ArrayBuffer> => crypto.subtle.sign('HMAC', key, encoder.encode(data));

/** `YYYYMMDDTHHMMSSZ` for a date. */
export const formatXDate = (date: Date): string => date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');

export class Signer {
  readonly #credentials: Credentials;
  #cachedDate = '';
  #cachedKey: Promise<HmacKey> | null = null;
  /** The day's credential scope and Authorization header up to the signature. */
  #day = { date: '', scope: '', authorization: '' };
  #second = NaN;
  #xDate = '';
  /** Per URL: the hash state after the canonical request's start (method, path, query, the headers before the payload hash). */
  readonly #prefixes = new Map<string, Sha256>();
  /** Reused within one synchronous stretch of `sign` only (other calls run at its awaits). */
  readonly #work = new Sha256();

  constructor(credentials: Credentials) {
    this.#credentials = credentials;
  }

  /** The day's signing key: HMAC chain over date, region, service and `request`; derived once a day. */
  signingKey(shortDate: string): Promise<HmacKey> {
    if (shortDate !== this.#cachedDate || !this.#cachedKey) {
      this.#cachedDate = shortDate;
      this.#cachedKey = (async () => {
        let raw = await hmac(await hmacKey(encoder.encode(this.#credentials.secretAccessKey)), shortDate);
        for (const part of [REGION, SERVICE, 'request']) raw = await hmac(await hmacKey(raw), part);
        return jsHmacKey(new Uint8Array(raw));
      })();
    }
    return this.#cachedKey;
  }

  /** X-Date changes once a second: formatted once per second. */
  #xDateOf(now: Date): string {
    const second = Math.floor(now.getTime() / 1000);
    if (second !== this.#second) {
      this.#second = second;
      this.#xDate = formatXDate(now);
    }
    return this.#xDate;
  }

  #dayOf(shortDate: string) {
    if (this.#day.date !== shortDate) {
      const scope = `${shortDate}/${REGION}/${SERVICE}/request`;
      const authorization = `HMAC-SHA256 Credential=${this.#credentials.accessKeyId}/${scope}, SignedHeaders=${SIGNED_HEADERS}, Signature=`;
      this.#day = { date: shortDate, scope, authorization };
    }
    return this.#day;
  }

  #prefixOf(url: URL): Sha256 {
    const href = url.href;
    let prefix = this.#prefixes.get(href);
    if (prefix === undefined) {
      if (this.#prefixes.size >= MAX_CACHED_URLS) this.#prefixes.clear();
      prefix = new Sha256().update(`POST\n${url.pathname}\n${canonicalQuery(url.searchParams)}\ncontent-type:${CONTENT_TYPE}\nhost:${url.host}\nx-content-sha256:`);
      this.#prefixes.set(href, prefix);
    }
    return prefix;
  }

  /**
   * Signs a POST to `url` with `body` (a string is encoded once; the same bytes must be sent).
   * The Host signed is `url.host`, including a non-default port, exactly as fetch sends it.
   */
  async sign(url: URL, body: Uint8Array<ArrayBuffer> | string, now: Date = new Date()): Promise<SignedRequest> {
    const bytes = typeof body === 'string' ? utf8(body) : body;
    const xDate = this.#xDateOf(now);
    const shortDate = xDate.slice(0, 8);
    const day = this.#dayOf(shortDate);
    const key = await this.signingKey(shortDate);
    const payloadHash = bytes.length <= JS_HASH_MAX ? this.#work.reset().update(bytes).hex() : await webCryptoSha256Hex(bytes);
    // From here on synchronous: #work is not shared with another call.
    // Canonical request: method, path, query, each signed header as `name:value\n`, an empty line, their names, the payload hash.
    const canonicalHash = this.#work.reset(this.#prefixOf(url)).update(payloadHash).update('\nx-date:').update(xDate).update(HEADER_NAMES).update(payloadHash).hex();
    const signature = hmacSha256Hex(key, ['HMAC-SHA256\n', xDate, '\n', day.scope, '\n', canonicalHash], this.#work);
    return {
      body: bytes,
      headers: {
        'Content-Type': CONTENT_TYPE,
        'X-Date': xDate,
        'X-Content-Sha256': payloadHash,
        Authorization: day.authorization + signature,
      },
    };
  }
}
