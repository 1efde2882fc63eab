import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalQuery } from '../../../../shared';
import { formatXDate, Signer } from './signer';

/**
 * Vectors computed by hand from the service interface's algorithm (with Python's hashlib/hmac,
 * not with this code): payload hash and signature for fixed keys, times, hosts and bodies.
 */
const VECTORS = [
  {
    accessKeyId: 'AKEXAMPLE', secretAccessKey: 'secretEXAMPLEkey', xDate: '20261122T010203Z', host: 'api.example.com',
    action: 'CreateAssetGroup', body: '{"Name":"Cats"}',
    payload: '2f6385290668180f52560858148704842a4fe11d0002647e499fdd0c49a0caa2',
    signature: 'ffef46267fce3c14db4de681222758ee55a7c23de4d401bd2472f0b90c970e2d',
  },
  {
    accessKeyId: 'AKEXAMPLE', secretAccessKey: 'secretEXAMPLEkey', xDate: '20261122T235959Z', host: '127.0.0.1:8788',
    action: 'ListAssets', body: '{"Filter":{"Statuses":["Processing"]},"PageSize":100}',
    payload: 'e9c7c7f57b59021f77e41e7e071252910efafedbb987d2b16b0a7c4b50ccc168',
    signature: '7624d08315849af2e36fa3ef6eeb2112b8a3d4692c4becd2893a1cf7ed8372e1',
  },
  {
    accessKeyId: 'AKLTother', secretAccessKey: 's3cr3t/with+chars=', xDate: '20250101T000000Z', host: 'ark.cn-beijing.volces.com',
    action: 'GetAsset', body: '{"Id":"asset-1"}',
    payload: 'bd5c60cfcd2523dc977943745c34e480c187706abb02d91b81bd9cc33c8375ed',
    signature: '2bcbd4b450b266d2cb40126afe16b0d080fcf13952ccda83cc7797345eb0011c',
  },
];

const parseXDate = (x: string) => new Date(`${x.slice(0, 4)}-${x.slice(4, 6)}-${x.slice(6, 8)}T${x.slice(9, 11)}:${x.slice(11, 13)}:${x.slice(13, 15)}Z`);

/** The scheme written out plainly with WebCrypto, as the oracle for the signer's cached, incremental path. */
async function reference(c: { accessKeyId: string; secretAccessKey: string }, url: URL, body: string, xDate: string): Promise<string> {
  const utf8 = (s: string) => new TextEncoder().encode(s);
  const hex = (b: ArrayBuffer) => [...new Uint8Array(b)].map((x) => x.toString(16).padStart(2, '0')).join('');
  const sha = async (s: string) => hex(await crypto.subtle.digest('SHA-256', utf8(s)));
  const hmac = async (key: BufferSource, s: string) =>
    crypto.subtle.sign('HMAC', await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']), utf8(s));
  const date = xDate.slice(0, 8);
  const payload = await sha(body);
  const canonical = ['POST', url.pathname, canonicalQuery(url.searchParams), `content-type:application/json\nhost:${url.host}\nx-content-sha256:${payload}\nx-date:${xDate}\n`, 'content-type;host;x-content-sha256;x-date', payload].join('\n');
  let key = await hmac(utf8(c.secretAccessKey), date);
  for (const part of ['cn-beijing', 'ark', 'request']) key = await hmac(key, part);
  return hex(await hmac(key, ['HMAC-SHA256', xDate, `${date}/cn-beijing/ark/request`, await sha(canonical)].join('\n')));
}

describe('Signer', () => {
  it('signs as the plain WebCrypto reference does, any body (small, large, non-ASCII), URL and time, one signer reused', async () => {
    const signer = new Signer(VECTORS[0]!);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ unit: 'grapheme', maxLength: 100 }), fc.string({ unit: 'grapheme', minLength: 200, maxLength: 3000 })),
        fc.constantFrom('CreateAsset', 'ListAssets', 'GetAssetGroup'),
        fc.constantFrom('api.example.com', '127.0.0.1:8788'),
        fc.integer({ min: Date.UTC(2025, 0, 1), max: Date.UTC(2027, 0, 1) }),
        async (body, action, host, ms) => {
          const url = new URL(`http://${host}/api/v3?Action=${action}&Version=2024-01-01`);
          const at = new Date(ms);
          const signed = await signer.sign(url.href, body, at);
          expect(signed.headers.Authorization).toMatch(new RegExp(`Signature=${await reference(VECTORS[0]!, url, body, formatXDate(at))}$`));
        },
      ),
      { numRuns: 200 },
    );
  });

  it.each(VECTORS)('matches the hand-computed signature for $action at $host', async (vector) => {
    const signer = new Signer(vector);
    const url = new URL(`http://${vector.host}/api/v3?Version=2024-01-01&Action=${vector.action}`);
    const signed = await signer.sign(url, vector.body, parseXDate(vector.xDate));
    expect(signed.headers['X-Date']).toBe(vector.xDate);
    expect(signed.headers['X-Content-Sha256']).toBe(vector.payload);
    expect(signed.headers.Authorization).toBe(
      `HMAC-SHA256 Credential=${vector.accessKeyId}/${vector.xDate.slice(0, 8)}/cn-beijing/ark/request, ` +
        `SignedHeaders=content-type;host;x-content-sha256;x-date, Signature=${vector.signature}`,
    );
    expect(new TextDecoder().decode(signed.body)).toBe(vector.body);
  });

  it('signs the host with its non-default port', async () => {
    const v = VECTORS[1]!;
    const signed = await new Signer(v).sign(new URL(`http://${v.host}/api/v3?Action=${v.action}&Version=2024-01-01`), v.body, parseXDate(v.xDate));
    const withoutPort = await new Signer(v).sign(new URL(`http://127.0.0.1/api/v3?Action=${v.action}&Version=2024-01-01`), v.body, parseXDate(v.xDate));
    expect(signed.headers.Authorization).toContain(v.signature);
    expect(withoutPort.headers.Authorization).not.toContain(v.signature);
  });

  it('derives the signing key once per day and again when the day changes', async () => {
    const signer = new Signer(VECTORS[0]!);
    const first = signer.signingKey('20261122');
    expect(signer.signingKey('20261122')).toBe(first);
    expect(signer.signingKey('20261123')).not.toBe(first);
  });

  it('one signer reused across URLs, seconds and days signs as a fresh one does (its caches are keyed right)', async () => {
    const reused = new Signer(VECTORS[0]!);
    const calls = [
      [VECTORS[0]!, '2026-11-22T01:02:03.100Z'],
      [VECTORS[1]!, '2026-11-22T01:02:03.900Z'],
      [VECTORS[0]!, '2026-11-22T01:02:04.000Z'],
      [VECTORS[2]!, '2026-11-23T00:00:00.000Z'],
      [VECTORS[0]!, '2026-11-22T01:02:03.100Z'],
    ] as const;
    for (const [v, at] of calls) {
      const url = new URL(`http://${v.host}/api/v3?Action=${v.action}&Version=2024-01-01`);
      const expected = await new Signer(VECTORS[0]!).sign(url, v.body, new Date(at));
      expect(await reused.sign(url, v.body, new Date(at))).toEqual(expected);
      expect(expected.headers['X-Date']).toBe(formatXDate(new Date(at)));
    }
  });

  it('signs a URL given as a string as it signs the URL object', async () => {
    for (const v of VECTORS) {
      const url = new URL(`http://${v.host}/api/v3?Action=${v.action}&Version=2024-01-01`);
      const at = parseXDate(v.xDate);
      expect(await new Signer(v).sign(url.href, v.body, at)).toEqual(await new Signer(v).sign(url, v.body, at));
      expect((await new Signer(v).sign(url.href, v.body, at)).headers.Authorization).toContain(v.signature);
    }
  });

  it('hashes a large body with WebCrypto, to the same payload hash', async () => {
    const body = JSON.stringify({ Name: 'x'.repeat(5000) });
    const signed = await new Signer(VECTORS[0]!).sign(new URL('http://api.example.com/api/v3?Action=CreateAssetGroup&Version=2024-01-01'), body);
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(body));
    expect(signed.headers['X-Content-Sha256']).toBe([...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join(''));
  });

  it('formats X-Date as YYYYMMDDTHHMMSSZ in UTC', () => {
    expect(formatXDate(new Date('2026-01-02T03:04:05.678Z'))).toBe('20260102T030405Z');
  });
});
