/**
 * The day's signing key of an access key pair: HMAC-SHA256 chained over the scope's date, region,
 * service and `request`, starting from the secret. Derived with WebCrypto: it changes once a day,
 * so callers derive it once per date and keep it.
 */

import { SCOPE_END } from './canonical-request';

const encoder = new TextEncoder();

async function hmac(key: Uint8Array<ArrayBuffer>, data: string): Promise<Uint8Array<ArrayBuffer>> {
  const imported = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', imported, encoder.encode(data)));
}

export async function deriveSigningKey(secretAccessKey: string, date: string, region: string, service: string): Promise<Uint8Array<ArrayBuffer>> {
  let key = encoder.encode(secretAccessKey) as Uint8Array<ArrayBuffer>;
  for (const part of [date, region, service, SCOPE_END]) key = await hmac(key, part);
  return key;
}
