import { sameSecret } from '../../../../shared';
import { hmacKey, hmacSha256Hex, type HmacKey } from '../../infra/signing/sha256';

/**
 * Signed media addresses: `/media/<id>?expires=<unix seconds>&sig=<hex>`, where `sig` is
 * HMAC-SHA256 under MEDIA_URL_SECRET of `<id>\n<expires>`. The service downloads them like any
 * URL, with no header; nobody without the secret can make or stretch one.
 */

let cached: { secret: string; key: HmacKey } | null = null;
function keyFor(secret: string): HmacKey {
  if (!cached || cached.secret !== secret) cached = { secret, key: hmacKey(new TextEncoder().encode(secret)) };
  return cached.key;
}

const signature = (secret: string, id: string, expires: number): string => hmacSha256Hex(keyFor(secret), [id, '\n', String(expires)]);

/** A signed address of `id` on `origin`, valid until `expires` (unix seconds). */
export function signedAddress(secret: string, origin: string, id: string, expires: number): string {
  return `${origin}/media/${id}?expires=${expires}&sig=${signature(secret, id, expires)}`;
}

export type AddressCheck = 'ok' | 'forged' | 'expired';

/**
 * The signature first (403 for any change, a stretched expiry included), then the time (410): an
 * expired address says so only when it is genuine.
 */
export function checkAddress(secret: string, id: string, expires: string | undefined, sig: string | undefined, nowSeconds: number): AddressCheck {
  if (!expires || !sig || !/^\d{1,12}$/.test(expires) || !/^[0-9a-f]{64}$/.test(sig)) return 'forged';
  if (!sameSecret(signature(secret, id, Number(expires)), sig)) return 'forged';
  return Number(expires) < nowSeconds ? 'expired' : 'ok';
}
