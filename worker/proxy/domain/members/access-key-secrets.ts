/**
 * Secret access keys at rest (docs/identity.md): AES-256-GCM under a key derived with HKDF-SHA256
 * from the Worker secret ACCESS_KEY_SECRET, WebCrypto only. Each secret is bound to its member and
 * access key id (the additional data), so a stored ciphertext moved to another key does not decrypt.
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** Fixed: changing either makes every stored secret unreadable. */
const SALT = encoder.encode('arkbridge member access keys');
const INFO = encoder.encode('secret access key, AES-256-GCM, v1');
const IV_BYTES = 12;

const base64 = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes));
const unbase64 = (text: string): Uint8Array<ArrayBuffer> => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
const boundTo = (memberId: string, accessKeyId: string) => encoder.encode(`${memberId}\n${accessKeyId}`);

/** The AES key of ACCESS_KEY_SECRET: derived once per holder (the member's object keeps it in memory). */
export async function sealingKey(accessKeySecret: string): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey('raw', encoder.encode(accessKeySecret), 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey({ name: 'HKDF', hash: 'SHA-256', salt: SALT, info: INFO }, material, { name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
}

/** `secret` encrypted for storage: base64 of the random IV followed by the ciphertext and its tag. */
export async function seal(key: CryptoKey, memberId: string, accessKeyId: string, secret: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: boundTo(memberId, accessKeyId) }, key, encoder.encode(secret)));
  const out = new Uint8Array(IV_BYTES + sealed.length);
  out.set(iv);
  out.set(sealed, IV_BYTES);
  return base64(out);
}

/** The secret back, or null when it does not decrypt (another ACCESS_KEY_SECRET, a damaged row). */
export async function unseal(key: CryptoKey, memberId: string, accessKeyId: string, stored: string): Promise<string | null> {
  try {
    const bytes = unbase64(stored);
    const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: bytes.slice(0, IV_BYTES), additionalData: boundTo(memberId, accessKeyId) }, key, bytes.slice(IV_BYTES));
    return decoder.decode(plain);
  } catch {
    return null;
  }
}
