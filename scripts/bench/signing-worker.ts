/**
 * Bench only: `GET /?impl=…&n=N` runs N operations in one request, so that the bench can time them
 * from outside: that needs no clock inside the Worker (on Cloudflare it stands still during pure
 * CPU work; local workerd's does move, checked, but the method holds for both).
 * - `signer`: the proxy's Signer on a cached instance, as on the hot path;
 * - `native`: one WebCrypto HMAC-SHA256 with a cached CryptoKey over a string as long as a string to sign;
 * - `hash-ours`, `hash-noble`, `hash-webcrypto`: the hashing one signature needs (the body's
 *   SHA-256, the canonical request's, one HMAC with a cached key), done with the proxy's SHA-256
 *   (shared/signing/sha256.ts), with @noble/hashes (its HMAC's pads cached by cloning), and
 *   with WebCrypto: why the proxy hashes with its own code.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { hmacKey, hmacSha256Hex, sha256Hex } from '../../worker/proxy/infra/signing/sha256';
import { Signer } from '../../worker/proxy/infra/signing/signer';

const encoder = new TextEncoder();
const signer = new Signer({ accessKeyId: 'AKBENCH', secretAccessKey: 'bench-secret-access-key' });
// A string, as the proxy passes it (upstream/fetch.ts).
const url = 'http://127.0.0.1:8788/api/v3?Action=GetAssetGroup&Version=2024-01-01';
const body = JSON.stringify({ Id: 'group-0123456789abcdef' });
const stringToSign = `HMAC-SHA256\n20260101T000000Z\n20260101/cn-beijing/ark/request\n${'0'.repeat(64)}`;
// What the Signer hashes for the request above (signing/signer.ts builds it the same way).
const canonicalRequest = [
  'POST',
  '/api/v3',
  'Action=GetAssetGroup&Version=2024-01-01',
  'content-type:application/json\nhost:127.0.0.1:8788\nx-content-sha256:' + '0'.repeat(64) + '\nx-date:20260101T000000Z\n',
  'content-type;host;x-content-sha256;x-date',
  '0'.repeat(64),
].join('\n');
const secret = encoder.encode('bench-secret-access-key');
const key = crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);

const oursKey = hmacKey(secret);
const nobleKey = hmac.create(sha256, secret);

const hex = (buffer: ArrayBuffer) => bytesToHex(new Uint8Array(buffer));

export default {
  async fetch(request: Request): Promise<Response> {
    const query = new URL(request.url).searchParams;
    const n = Number(query.get('n') ?? 0);
    const impl = query.get('impl');
    let last = '';
    if (impl === 'signer') {
      for (let i = 0; i < n; i++) last = (await signer.sign(url, body)).headers.Authorization!;
    } else if (impl === 'native') {
      const cached = await key;
      for (let i = 0; i < n; i++) last = String((await crypto.subtle.sign('HMAC', cached, encoder.encode(stringToSign))).byteLength);
    } else if (impl === 'hash-ours') {
      for (let i = 0; i < n; i++) last = sha256Hex(body) + sha256Hex(canonicalRequest) + hmacSha256Hex(oursKey, [stringToSign]);
    } else if (impl === 'hash-noble') {
      for (let i = 0; i < n; i++) {
        last =
          bytesToHex(sha256(utf8ToBytes(body))) +
          bytesToHex(sha256(utf8ToBytes(canonicalRequest))) +
          bytesToHex(nobleKey.clone().update(utf8ToBytes(stringToSign)).digest());
      }
    } else if (impl === 'hash-webcrypto') {
      const cached = await key;
      for (let i = 0; i < n; i++) {
        last =
          hex(await crypto.subtle.digest('SHA-256', encoder.encode(body))) +
          hex(await crypto.subtle.digest('SHA-256', encoder.encode(canonicalRequest))) +
          hex(await crypto.subtle.sign('HMAC', cached, encoder.encode(stringToSign)));
      }
    }
    // `?digest`: the result itself, so the bench can check the three hashings agree before timing them.
    if (query.has('digest')) return new Response(last);
    return new Response(last.length ? 'ok' : 'none');
  },
};
