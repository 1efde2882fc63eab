import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Signer } from './signer';
import { deriveSigningKey } from './signing-key';
import { verifyV4, type SigningKeyLookup } from './verify-v4';

/**
 * The signer and the verifier as a pair: any request signed over any valid list verifies, and
 * any one byte changed in a signed part (the body, a listed header's value, the query, the host,
 * the signature) does not.
 */

const KEYS = { accessKeyId: 'AKPROP', secretAccessKey: 'property-secret' };
const NOW = Date.UTC(2026, 5, 1, 12);
const signingKey: SigningKeyLookup = async (id, date, region, service) => (id === KEYS.accessKeyId ? deriveSigningKey(KEYS.secretAccessKey, date, region, service) : undefined);
/** Headers a caller may add to the required host and x-date (the vendor's signers send these and more). */
const OPTIONAL = ['content-type', 'x-content-sha256', 'x-request-id', 'x-top-account-id', 'x-security-token'] as const;
const EXTRA_VALUES: Record<string, string> = { 'x-request-id': 'req-1', 'x-top-account-id': 'acct-2', 'x-security-token': 'tok-3' };
const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** For host names, which URLs lowercase. */
const LOWER = 'abcdefghijklmnopqrstuvwxyz0123456789';

const signedRequest = fc.record({
  optional: fc.subarray([...OPTIONAL]),
  body: fc.oneof(fc.string({ unit: 'grapheme', maxLength: 80 }), fc.string({ minLength: 300, maxLength: 2000 })),
  query: fc.dictionary(fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,8}$/), fc.string({ minLength: 1, maxLength: 12 }), { maxKeys: 4 }),
  host: fc.constantFrom('api.example.com', 'localhost:8788'),
  offsetMs: fc.integer({ min: -14 * 60_000, max: 14 * 60_000 }),
});

interface Input {
  optional: string[];
  body: string;
  query: Record<string, string>;
  host: string;
  offsetMs: number;
}

async function sign({ optional, body, query, host, offsetMs }: Input) {
  const list = ['host', 'x-date', ...optional].sort();
  const url = new URL(`https://${host}/api/v3`);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  url.searchParams.set('Action', 'ListAssets');
  const extra = Object.fromEntries(list.filter((name) => name in EXTRA_VALUES).map((name) => [name, EXTRA_VALUES[name]!]));
  const signed = await new Signer(KEYS, list).sign(url.href, body as string, new Date(NOW + offsetMs), extra);
  return { url: url.href, list, headers: { ...signed.headers }, body: signed.body };
}

type Sent = Awaited<ReturnType<typeof sign>>;
const verify = (sent: Sent) =>
  verifyV4(new Request(sent.url, { method: 'POST', headers: sent.headers, body: sent.body }), sent.body, { now: NOW, signingKey });

/** `text` with the character at `at` (modulo its length) replaced by another of `alphabet`. */
function changeChar(text: string, at: number, pick: number, alphabet = ALNUM): string {
  const i = at % text.length;
  const others = alphabet.replace(text[i]!, '');
  const replacement = others[pick % others.length]!;
  return text.slice(0, i) + replacement + text.slice(i + 1);
}

/** The request with one byte of one signed part changed. */
function tamper(sent: Sent, part: number, at: number, pick: number): Sent {
  const headerName = (name: string) => Object.keys(sent.headers).find((key) => key.toLowerCase() === name)!;
  const signedValues = sent.list.filter((name) => name !== 'host').map(headerName);
  const parts = ['body', 'query', 'host', 'signature', ...signedValues];
  const target = parts[part % parts.length]!;
  const url = new URL(sent.url);
  if (target === 'body') {
    if (sent.body.length === 0) return { ...sent, body: new Uint8Array([pick % 256]) };
    const body = Uint8Array.from(sent.body);
    body[at % body.length] = body[at % body.length]! ^ (1 + (pick % 255));
    return { ...sent, body };
  }
  if (target === 'query') {
    url.searchParams.set('Action', changeChar('ListAssets', at, pick));
    return { ...sent, url: url.href };
  }
  if (target === 'host') {
    url.hostname = changeChar(url.hostname, at, pick, LOWER);
    return { ...sent, url: url.href };
  }
  if (target === 'signature') {
    const authorization = sent.headers.Authorization!;
    const start = authorization.indexOf('Signature=') + 'Signature='.length;
    const digit = authorization[start + (at % 64)]!;
    const other = '0123456789abcdef'.replace(digit, '')[pick % 15]!;
    return { ...sent, headers: { ...sent.headers, Authorization: authorization.slice(0, start + (at % 64)) + other + authorization.slice(start + (at % 64) + 1) } };
  }
  return { ...sent, headers: { ...sent.headers, [target]: changeChar(sent.headers[target]!, at, pick) } };
}

describe('verifyV4 with the signer', () => {
  it('verifies any request the signer signs over any valid list', async () => {
    await fc.assert(
      fc.asyncProperty(signedRequest, async (input) => {
        const sent = await sign(input);
        expect(await verify(sent)).toEqual({ ok: true, accessKeyId: KEYS.accessKeyId, signedHeaders: sent.list });
      }),
      { numRuns: 150 },
    );
  });

  it('refuses any such request with one byte of a signed part changed', async () => {
    await fc.assert(
      fc.asyncProperty(signedRequest, fc.nat(), fc.nat(), fc.nat(), async (input, part, at, pick) => {
        const changed = tamper(await sign(input), part, at, pick);
        expect(await verify(changed)).toMatchObject({ ok: false, code: 'SignatureDoesNotMatch' });
      }),
      { numRuns: 300 },
    );
  });
});
