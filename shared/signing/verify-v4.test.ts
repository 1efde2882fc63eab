import { describe, expect, it } from 'vitest';
import { formatXDate, Signer } from './signer';
import { deriveSigningKey } from './signing-key';
import { SIGNED_HEADERS_MAX } from './signed-headers';
import { verifyV4, type SigningKeyLookup, type VerifyOptions } from './verify-v4';

const KEYS = { accessKeyId: 'AKTEST', secretAccessKey: 'test-secret-key' };
const NOW = Date.UTC(2026, 10, 22, 1, 2, 3);
const URL_ = 'https://api.example.com/api/v3?Action=ListAssetGroups&Version=2024-01-01';
const BODY = '{"PageSize":5}';
const PYTHON_LIST = ['content-type', 'host', 'x-content-sha256', 'x-date', 'x-request-id'];

/** The key lookup of one key pair, counting its calls. */
function keys() {
  const calls: string[] = [];
  const lookup: SigningKeyLookup = async (accessKeyId, date, region, service) => {
    calls.push(`${accessKeyId}/${date}`);
    return accessKeyId === KEYS.accessKeyId ? deriveSigningKey(KEYS.secretAccessKey, date, region, service) : undefined;
  };
  return { calls, lookup };
}

interface Sent {
  url: string;
  headers: Record<string, string>;
  body: Uint8Array<ArrayBuffer>;
}

async function signed(list?: string[], extra?: Record<string, string>, at = NOW): Promise<Sent> {
  const { headers, body } = await new Signer(KEYS, list).sign(URL_, BODY, new Date(at), extra);
  return { url: URL_, headers: { ...headers }, body };
}

function verify(sent: Sent, options: Partial<VerifyOptions> = {}) {
  const request = new Request(sent.url, { method: 'POST', headers: sent.headers, body: sent.body });
  return verifyV4(request, sent.body, { now: NOW, signingKey: keys().lookup, ...options });
}

const withList = (sent: Sent, list: string) => ({ ...sent, headers: { ...sent.headers, Authorization: sent.headers.Authorization!.replace(/SignedHeaders=[^,]+/, `SignedHeaders=${list}`) } });
const refused = (rule: string, message: RegExp) => ({ ok: false, code: 'SignatureDoesNotMatch', rule, message: expect.stringMatching(message) });

describe('verifyV4 accepts the headers the caller lists', () => {
  it('the default list (the proxy\'s), naming the access key and the list', async () => {
    expect(await verify(await signed())).toEqual({ ok: true, accessKeyId: 'AKTEST', signedHeaders: ['content-type', 'host', 'x-content-sha256', 'x-date'] });
  });

  it('a Python-style list: content-type signed and an extra x-* header', async () => {
    const sent = await signed(PYTHON_LIST, { 'X-Request-Id': 'req-42' });
    expect(sent.headers.Authorization).toContain('SignedHeaders=content-type;host;x-content-sha256;x-date;x-request-id,');
    expect(await verify(sent)).toMatchObject({ ok: true, signedHeaders: PYTHON_LIST });
  });

  it('a Node-style list without content-type, which may then change freely', async () => {
    const sent = await signed(['host', 'x-content-sha256', 'x-date']);
    sent.headers['Content-Type'] = 'text/plain';
    expect(await verify(sent)).toMatchObject({ ok: true });
  });

  it('a list without x-content-sha256 when no X-Content-Sha256 is sent (the payload is signed all the same)', async () => {
    const sent = await signed(['host', 'x-date']);
    expect(sent.headers).not.toHaveProperty('X-Content-Sha256');
    expect(await verify(sent)).toMatchObject({ ok: true });
    expect(await verify({ ...sent, body: new TextEncoder().encode('{"PageSize":6}') })).toEqual(refused('signature', /signature does not match/));
  });

  it('a signing key given as a CryptoKey', async () => {
    const signingKey: SigningKeyLookup = async (_id, date, region, service) =>
      crypto.subtle.importKey('raw', await deriveSigningKey(KEYS.secretAccessKey, date, region, service), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    expect(await verify(await signed(PYTHON_LIST, { 'X-Request-Id': 'r' }), { signingKey })).toMatchObject({ ok: true });
  });
});

describe('verifyV4 refuses, naming the rule', () => {
  it('an unsorted list, even signed consistently', async () => {
    expect(await verify(await signed(['host', 'content-type', 'x-content-sha256', 'x-date']))).toEqual(refused('signed-headers', /SignedHeaders must be sorted.*"content-type" comes after "host"/));
  });

  it('a list naming a header twice', async () => {
    expect(await verify(withList(await signed(), 'content-type;host;host;x-content-sha256;x-date'))).toEqual(refused('signed-headers', /sorted, each name once/));
  });

  it('a list without host, or without x-date, even signed consistently', async () => {
    expect(await verify(await signed(['content-type', 'x-content-sha256', 'x-date']))).toEqual(refused('signed-headers', /must include host\./));
    expect(await verify(await signed(['content-type', 'host', 'x-content-sha256']))).toEqual(refused('signed-headers', /must include x-date\./));
  });

  it('a list naming a header the request does not send', async () => {
    const sent = await signed(PYTHON_LIST, { 'X-Request-Id': 'req-42' });
    delete sent.headers['X-Request-Id'];
    expect(await verify(sent)).toEqual(refused('signed-headers', /lists x-request-id, which the request does not send/));
  });

  it('an X-Content-Sha256 that is sent but not listed', async () => {
    const sent = await signed(['content-type', 'host', 'x-date']);
    sent.headers['X-Content-Sha256'] = (await signed()).headers['X-Content-Sha256']!;
    expect(await verify(sent)).toEqual(refused('signed-headers', /must include x-content-sha256 when the X-Content-Sha256 header is sent/));
  });

  it('uppercase names, and more than the longest list read', async () => {
    expect(await verify(withList(await signed(), 'Content-Type;host;x-content-sha256;x-date'))).toEqual(refused('signed-headers', /lowercase header names/));
    const long = Array.from({ length: SIGNED_HEADERS_MAX + 1 }, (_, i) => `x-h${String(i).padStart(3, '0')}`).join(';');
    expect(await verify(withList(await signed(), long))).toEqual(refused('signed-headers', new RegExp(`more than ${SIGNED_HEADERS_MAX} headers`)));
  });

  it('an X-Content-Sha256 other than the body\'s hash, a changed body, a changed signature', async () => {
    const sent = await signed();
    expect(await verify({ ...sent, headers: { ...sent.headers, 'X-Content-Sha256': '0'.repeat(64) } })).toEqual(refused('payload-hash', /X-Content-Sha256 does not match/));
    expect(await verify({ ...sent, body: new TextEncoder().encode('{"PageSize":6}') })).toEqual(refused('payload-hash', /X-Content-Sha256 does not match/));
    const flipped = sent.headers.Authorization!.replace(/.$/, (c) => (c === '0' ? '1' : '0'));
    expect(await verify({ ...sent, headers: { ...sent.headers, Authorization: flipped } })).toEqual(refused('signature', /signature does not match/));
  });

  it('a listed extra header changed after signing', async () => {
    const sent = await signed(PYTHON_LIST, { 'X-Request-Id': 'req-42' });
    expect(await verify({ ...sent, headers: { ...sent.headers, 'X-Request-Id': 'req-43' } })).toEqual(refused('signature', /signature does not match/));
  });

  it('a scope for another region or service', async () => {
    expect(await verify(await signed(), { region: 'cn-shanghai' })).toEqual(refused('scope', /<date>\/cn-shanghai\/ark\/request/));
  });

  it('X-Date beyond the skew either way, checked against the given now; at the limit it passes', async () => {
    const minute = 60_000;
    expect(await verify(await signed(undefined, undefined, NOW - 15 * minute))).toMatchObject({ ok: true });
    expect(await verify(await signed(undefined, undefined, NOW - 15 * minute - 1000))).toEqual(refused('skew', /more than 15 minutes/));
    expect(await verify(await signed(undefined, undefined, NOW + 15 * minute + 1000))).toEqual(refused('skew', /more than 15 minutes/));
    expect(await verify(await signed(undefined, undefined, NOW - 61_000), { maxSkewSeconds: 60 })).toEqual(refused('skew', /more than 1 minute\./));
  });

  it('an unknown access key as InvalidAccessKey; the key is looked up only once form, list and time are right', async () => {
    const { calls, lookup } = keys();
    const stranger = await new Signer({ accessKeyId: 'AKOTHER', secretAccessKey: 'x' }).sign(URL_, BODY, new Date(NOW));
    expect(await verify({ url: URL_, headers: { ...stranger.headers }, body: stranger.body }, { signingKey: lookup })).toEqual({
      ok: false, code: 'InvalidAccessKey', rule: 'access-key', message: 'The access key does not exist or is disabled.',
    });
    expect(calls).toEqual([`AKOTHER/${formatXDate(new Date(NOW)).slice(0, 8)}`]);
    await verify(await signed(undefined, undefined, NOW - 3600_000), { signingKey: lookup });
    await verify(await signed(['host', 'content-type', 'x-content-sha256', 'x-date']), { signingKey: lookup });
    expect(calls).toHaveLength(1);
  });
});
