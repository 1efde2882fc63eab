/**
 * Bench only: `GET /?impl=signer|native|none&n=N` runs N signatures in one request, so that the
 * bench can time them from outside: that needs no clock inside the Worker (on Cloudflare it stands
 * still during pure CPU work; local workerd's does move, checked, but the method holds for both).
 * `signer` is the proxy's Signer on a cached instance, as on the hot path; `native` is one
 * WebCrypto HMAC-SHA256 with a cached CryptoKey over a string as long as a string to sign.
 */
import { Signer } from '../../worker/proxy/signing/signer';

const encoder = new TextEncoder();
const signer = new Signer({ accessKeyId: 'AKBENCH', secretAccessKey: 'bench-secret-access-key' });
// A string, as the proxy passes it (upstream/fetch.ts).
const url = 'http://127.0.0.1:8788/api/v3?Action=GetAssetGroup&Version=2024-01-01';
const body = JSON.stringify({ Id: 'group-0123456789abcdef' });
const stringToSign = `HMAC-SHA256\n20260101T000000Z\n20260101/cn-beijing/ark/request\n${'0'.repeat(64)}`;
const key = crypto.subtle.importKey('raw', encoder.encode('bench-secret-access-key'), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);

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
    }
    return new Response(last.length ? 'ok' : 'none');
  },
};
