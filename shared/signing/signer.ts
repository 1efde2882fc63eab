import { sha256Hex as webCryptoSha256Hex } from '../bytes';
import { canonicalQuery } from '../library/canonical-query';
import { API_REGION, API_SERVICE } from '../library/constants';
import { authorizationStart } from './authorization';
import { canonicalRequest, credentialScope, stringToSignStart, type SignedHeader } from './canonical-request';
import { hexOf, hmacHex, hmacKey as jsHmacKey, Sha256, type HmacKey } from './sha256';
import { DEFAULT_SIGNED_HEADERS } from './signed-headers';
import { deriveSigningKey } from './signing-key';

/**
 * Signs `/api/v3` requests with the service's HMAC-SHA256 scheme (service interface,
 * "Access key pair"), over DEFAULT_SIGNED_HEADERS unless given another list. The derived signing
 * key changes once a day, so it is derived once per date (WebCrypto), and what depends only on the
 * URL, the second or the day is cached too. The hot path (the default list) is then synchronous
 * JS (sha256.ts): two SHA-256 of small inputs and one HMAC from the key's cached pad states,
 * cheaper inside workerd than three WebCrypto calls. Other lists (the vendor's other signers, in
 * tests) build the whole canonical request each call.
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
export const SIGNED_HEADERS = DEFAULT_SIGNED_HEADERS.join(';');
const CONTENT_TYPE = 'application/json';
/** Stand-ins for the payload hash and X-Date in the default list's canonical request (no URL part holds a control character). */
const PAYLOAD_MARK = '\u0000';
const X_DATE_MARK = '\u0001';
/**
 * canonicalRequest for the default list, cut at the payload hash: [up to the X-Content-Sha256
 * value, from it to the hash that ends the request] (X-Date follows X-Content-Sha256 and is the
 * last header). The hot path hashes these pieces around the hash, so it signs exactly what
 * canonicalRequest builds.
 */
function defaultListPieces(path: string, query: string, host: string): [beforePayload: string, afterPayload: string] {
  const headers = DEFAULT_SIGNED_HEADERS.map((name): SignedHeader => [name, { 'content-type': CONTENT_TYPE, host, 'x-content-sha256': PAYLOAD_MARK, 'x-date': X_DATE_MARK }[name]!]);
  const [before, after] = canonicalRequest('POST', path, query, headers, PAYLOAD_MARK).split(PAYLOAD_MARK);
  return [before!, after!];
}
/** What follows the payload hash's header value: the same for every URL, X-Date aside. */
const AFTER_PAYLOAD = defaultListPieces('/', '', 'host')[1];
const encoder = new TextEncoder();
/**
 * Bodies up to this many bytes are hashed in JS: inside workerd that is faster than a WebCrypto
 * call below it (about four blocks, measured with the bench's signing Worker); above it
 * WebCrypto's native code wins.
 */
const JS_HASH_MAX = 256;
/**
 * UTF-8 bytes, typed for WebCrypto and fetch in both workerd's and the DOM's type libraries. A
 * short ASCII text (the usual body) is copied directly: TextEncoder costs about 1 µs a call in workerd.
 */
function utf8(text: string): Uint8Array<ArrayBuffer> {
  if (text.length > JS_HASH_MAX) return encoder.encode(text) as Uint8Array<ArrayBuffer>;
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x7f) return encoder.encode(text) as Uint8Array<ArrayBuffer>;
    bytes[i] = c;
  }
  return bytes;
}

/** Cached URLs: the proxy signs a dozen distinct ones (one per operation); more would be a caller's mistake. */
const MAX_CACHED_URLS = 64;

/** `YYYYMMDDTHHMMSSZ` for a date. */
export const formatXDate = (date: Date): string => date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');

interface Clock {
  second: number;
  xDate: string;
  shortDate: string;
  afterPayload: string;
  authorization: string;
  toSign: string;
  hmac: { key: HmacKey; state: Sha256 } | null;
}

export class Signer {
  readonly #credentials: Credentials;
  #cachedDate = '';
  #cachedKey: Promise<HmacKey> | null = null;
  /** The day's key once derived, to sign without waiting on its promise. */
  #readyKey: { date: string; key: HmacKey } | null = null;
  /**
   * What changes once a second: X-Date, the canonical request after the payload hash up to its
   * repeat, the Authorization header up to the signature, and the string to sign up to the
   * canonical request's hash (as the HMAC state after it, once the day's key is known).
   */
  #clock: Clock = { second: NaN, xDate: '', shortDate: '', afterPayload: '', authorization: '', toSign: '', hmac: null };
  /** The payload hash's words, kept while #work goes on to the canonical request. */
  readonly #payload = new Int32Array(8);
  /** Per URL: the hash state after the canonical request's start (method, path, query, the headers before the payload hash). */
  readonly #prefixes = new Map<string, Sha256>();
  /** Reused within one synchronous stretch of `sign` only (other calls run at its awaits). */
  readonly #work = new Sha256();
  readonly #hmacWork = new Sha256();
  /** The headers signed, lowercase, in the order given: the verifier refuses a list out of order (signed-headers.ts), tests sign one. */
  readonly #names: readonly string[];
  readonly #list: string;
  /** Whether this signer signs the default list, on the hot path. */
  readonly #defaultList: boolean;

  constructor(credentials: Credentials, signedHeaders: readonly string[] = DEFAULT_SIGNED_HEADERS) {
    this.#credentials = credentials;
    this.#names = [...signedHeaders];
    this.#list = this.#names.join(';');
    this.#defaultList = this.#list === SIGNED_HEADERS;
  }

  /** The day's signing key: HMAC chain over date, region, service and `request`; derived once a day. */
  signingKey(shortDate: string): Promise<HmacKey> {
    if (shortDate !== this.#cachedDate || !this.#cachedKey) {
      this.#cachedDate = shortDate;
      this.#cachedKey = deriveSigningKey(this.#credentials.secretAccessKey, shortDate, REGION, SERVICE).then((raw) => {
        const key = jsHmacKey(raw);
        this.#readyKey = { date: shortDate, key };
        return key;
      });
    }
    return this.#cachedKey;
  }

  #clockAt(ms: number) {
    const second = Math.floor(ms / 1000);
    if (second !== this.#clock.second) {
      const xDate = formatXDate(new Date(ms));
      const shortDate = xDate.slice(0, 8);
      const scope = credentialScope(shortDate, REGION, SERVICE);
      const afterPayload = AFTER_PAYLOAD.replace(X_DATE_MARK, xDate);
      const authorization = authorizationStart(this.#credentials.accessKeyId, scope, this.#list);
      const toSign = stringToSignStart(xDate, scope);
      this.#clock = { second, xDate, shortDate, afterPayload, authorization, toSign, hmac: null };
    }
    return this.#clock;
  }

  /** The HMAC under `key` after the string to sign's start, for this second. */
  #hmacAfterToSign(clock: Clock, key: HmacKey): Sha256 {
    if (clock.hmac?.key !== key) clock.hmac = { key, state: new Sha256().reset(key.inner).update(clock.toSign) };
    return clock.hmac.state;
  }

  #prefixOf(url: URL | string): Sha256 {
    const key = typeof url === 'string' ? url : url.href;
    let prefix = this.#prefixes.get(key);
    if (prefix === undefined) {
      if (this.#prefixes.size >= MAX_CACHED_URLS) this.#prefixes.clear();
      const parsed = typeof url === 'string' ? new URL(url) : url;
      prefix = new Sha256().update(defaultListPieces(parsed.pathname, canonicalQuery(parsed.searchParams), parsed.host)[0]);
      this.#prefixes.set(key, prefix);
    }
    return prefix;
  }

  /**
   * Signs a POST to `url` with `body` (a string is encoded once; the same bytes must be sent).
   * The Host signed is the URL's host, including a non-default port, exactly as fetch sends it.
   * A URL given as a string is the cheaper form: the hot path then never parses or serializes it.
   * `extra` headers are sent too, and signed when the list names them.
   */
  async sign(url: URL | string, body: Uint8Array<ArrayBuffer> | string, now?: Date, extra?: Record<string, string>): Promise<SignedRequest> {
    const bytes = typeof body === 'string' ? utf8(body) : body;
    const clock = this.#clockAt(now ? now.getTime() : Date.now());
    const ready = this.#readyKey;
    const key = ready?.date === clock.shortDate ? ready.key : await this.signingKey(clock.shortDate);
    if (!this.#defaultList) return this.#signList(typeof url === 'string' ? new URL(url) : url, bytes, clock, key, extra ?? {});
    // From here on synchronous but for WebCrypto on a large body (after which the scratch hashers are first used).
    let payloadHash: string;
    const canonical = this.#work;
    if (bytes.length <= JS_HASH_MAX) {
      const payload = this.#payload;
      payload.set(canonical.reset().update(bytes).words());
      payloadHash = hexOf(payload);
      // Canonical request: method, path, query, each signed header as `name:value\n`, an empty line, their names, the payload hash.
      canonical.reset(this.#prefixOf(url)).updateHex(payload).update(clock.afterPayload).updateHex(payload);
    } else {
      payloadHash = await webCryptoSha256Hex(bytes);
      canonical.reset(this.#prefixOf(url)).update(payloadHash).update(clock.afterPayload).update(payloadHash);
    }
    // String to sign: algorithm, X-Date, scope, the canonical request's hash.
    const hmac = this.#hmacWork.reset(this.#hmacAfterToSign(clock, key)).updateHex(canonical.words());
    const headers = {
      'Content-Type': CONTENT_TYPE,
      'X-Date': clock.xDate,
      'X-Content-Sha256': payloadHash,
      Authorization: clock.authorization + hmacHex(key, hmac),
    };
    return { body: bytes, headers: extra ? { ...extra, ...headers } : headers };
  }

  /** Any other list: the whole canonical request built and hashed each call, with hashers of its own (it awaits). */
  async #signList(url: URL, bytes: Uint8Array<ArrayBuffer>, clock: Clock, key: HmacKey, extra: Record<string, string>): Promise<SignedRequest> {
    const payloadHash = bytes.length <= JS_HASH_MAX ? new Sha256().update(bytes).hex() : await webCryptoSha256Hex(bytes);
    const headers: Record<string, string> = { ...extra, 'Content-Type': CONTENT_TYPE, 'X-Date': clock.xDate };
    if (this.#names.includes('x-content-sha256')) headers['X-Content-Sha256'] = payloadHash;
    const values = new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
    values.set('host', url.host);
    const signed = this.#names.map((name): SignedHeader => {
      const value = values.get(name);
      if (value === undefined) throw new Error(`The signed header ${name} has no value: pass it in extra.`);
      return [name, value];
    });
    const canonical = canonicalRequest('POST', url.pathname, canonicalQuery(url.searchParams), signed, payloadHash);
    const hmac = new Sha256().reset(this.#hmacAfterToSign(clock, key)).updateHex(new Sha256().update(canonical).words());
    headers.Authorization = clock.authorization + hmacHex(key, hmac);
    return { body: bytes, headers };
  }
}
