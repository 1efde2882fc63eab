import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hexOf, hmacKey, hmacSha256Hex, Sha256, sha256Hex } from './sha256';

const hex = (buffer: ArrayBuffer) => [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, '0')).join('');
const utf8 = (text: string) => new TextEncoder().encode(text);
const bytes = (data: string | Uint8Array) => (typeof data === 'string' ? utf8(data) : data) as Uint8Array<ArrayBuffer>;
const webSha256 = async (data: string | Uint8Array) => hex(await crypto.subtle.digest('SHA-256', bytes(data)));
const webHmac = async (key: Uint8Array, data: string | Uint8Array) =>
  hex(await crypto.subtle.sign('HMAC', await crypto.subtle.importKey('raw', key as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']), bytes(data)));

describe('sha256Hex', () => {
  it('matches the FIPS 180-4 examples', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe('248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
  });

  it('matches WebCrypto at every length around the block and padding boundaries, for bytes and strings', async () => {
    const data = Uint8Array.from({ length: 300 }, (_, i) => (i * 131 + 7) & 0xff);
    const ascii = Array.from({ length: 300 }, (_, i) => String.fromCharCode(32 + ((i * 7) % 95))).join('');
    for (let length = 0; length <= 300; length++) {
      expect(sha256Hex(data.subarray(0, length)), `${length} bytes`).toBe(await webSha256(data.subarray(0, length)));
      expect(sha256Hex(ascii.slice(0, length)), `${length} characters`).toBe(await webSha256(ascii.slice(0, length)));
    }
  });

  it('matches WebCrypto on arbitrary bytes and strings (UTF-8, non-ASCII too)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 5000 }), fc.string({ unit: 'grapheme', maxLength: 300 }), async (data, text) => {
        expect(sha256Hex(data)).toBe(await webSha256(data));
        expect(sha256Hex(text)).toBe(await webSha256(text));
      }),
      { numRuns: 300 },
    );
  });
});

describe('Sha256', () => {
  it('hashes pieces as their concatenation, however the input is cut, and resumes from a copied state', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.uint8Array({ maxLength: 150 }), fc.string({ unit: 'grapheme', maxLength: 80 })), { maxLength: 8 }), async (pieces) => {
        const whole = new Uint8Array(pieces.flatMap((p) => [...bytes(p)]));
        const hasher = new Sha256();
        for (const piece of pieces) hasher.update(piece);
        const resumed = new Sha256().reset(new Sha256().update(whole.subarray(0, whole.length >> 1))).update(whole.subarray(whole.length >> 1));
        const expected = await webSha256(whole);
        expect(hasher.hex()).toBe(expected);
        expect(resumed.hex()).toBe(expected);
        expect(new Sha256().update(whole).reset().update(whole).hex()).toBe(expected);
        const prefix = pieces.length ? pieces[0]! : '';
        expect(new Sha256().update(prefix).updateHex(new Sha256().update(whole).words()).hex()).toBe(new Sha256().update(prefix).update(expected).hex());
        expect(hexOf(new Sha256().update(whole).words())).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });
});

describe('hmacSha256Hex', () => {
  it('matches RFC 4231 test case 2', () => {
    expect(hmacSha256Hex(hmacKey(utf8('Jefe')), ['what do ya want for nothing?'])).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  it('matches WebCrypto for keys shorter than, equal to and longer than a block, on bytes and strings', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.uint8Array({ minLength: 1, maxLength: 63 }), fc.uint8Array({ minLength: 64, maxLength: 64 }), fc.uint8Array({ minLength: 65, maxLength: 200 })),
        fc.uint8Array({ maxLength: 400 }),
        fc.string({ unit: 'grapheme', maxLength: 200 }),
        async (key, data, text) => {
          const k = hmacKey(key);
          expect(hmacSha256Hex(k, [data])).toBe(await webHmac(key, data));
          expect(hmacSha256Hex(k, [text, data])).toBe(await webHmac(key, new Uint8Array([...utf8(text), ...data])));
        },
      ),
      { numRuns: 300 },
    );
  });
});
