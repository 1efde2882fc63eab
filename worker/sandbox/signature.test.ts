import { describe, expect, it } from 'vitest';
import { api, DEV, ORIGIN, OTHER, sandboxFetch, uniqueTag } from './testing/sandbox-test-client';

/**
 * The sandbox verifies `/api/v3` signatures exactly as the service describes them. Most tests use
 * `signRaw`, a signer written here from the interface text alone (independent of the proxy's
 * signer and of the sandbox's verifier), so that each knob of the scheme can be turned on its own.
 */

const encoder = new TextEncoder();
const hex = (buf: ArrayBuffer) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');
const sha256 = async (data: Uint8Array | string) => hex(await crypto.subtle.digest('SHA-256', typeof data === 'string' ? encoder.encode(data) : data));
async function hmac(key: ArrayBuffer | Uint8Array, data: string): Promise<ArrayBuffer> {
  const k = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return crypto.subtle.sign('HMAC', k, encoder.encode(data));
}
const xDate = (d: Date) => d.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');

interface RawOptions {
  query?: string;
  body?: string;
  date?: Date;
  accessKeyId?: string;
  secret?: string;
  region?: string;
  service?: string;
  terminal?: string;
  /** The date of the credential scope and key chain (default: the date of X-Date). */
  scopeDate?: string;
  /** Header names in signing order (also written to SignedHeaders). */
  signedHeaders?: string[];
  contentType?: string;
}

/** Signs a POST /api/v3 the way the service text says, with every part overridable. */
async function signRaw(o: RawOptions = {}) {
  const url = new URL(`/api/v3?${o.query ?? 'Action=ListAssetGroups&Version=2024-01-01'}`, ORIGIN);
  const body = encoder.encode(o.body ?? '{}');
  const date = xDate(o.date ?? new Date());
  const short = o.scopeDate ?? date.slice(0, 8);
  const region = o.region ?? 'cn-beijing';
  const service = o.service ?? 'ark';
  const terminal = o.terminal ?? 'request';
  const signed = o.signedHeaders ?? ['content-type', 'host', 'x-content-sha256', 'x-date'];
  const payloadHash = await sha256(body);
  const values: Record<string, string> = {
    'content-type': o.contentType ?? 'application/json',
    host: url.host,
    'x-content-sha256': payloadHash,
    'x-date': date,
  };
  const query = [...url.searchParams].map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).sort().join('&');
  const canonicalHeaders = signed.map((h) => `${h}:${values[h]}\n`).join('');
  const canonicalRequest = ['POST', url.pathname, query, canonicalHeaders, signed.join(';'), payloadHash].join('\n');
  const scope = `${short}/${region}/${service}/${terminal}`;
  const stringToSign = ['HMAC-SHA256', date, scope, await sha256(canonicalRequest)].join('\n');
  let key: ArrayBuffer | Uint8Array = encoder.encode(o.secret ?? DEV.secretAccessKey);
  for (const part of [short, region, service, terminal]) key = await hmac(key, part);
  const signature = hex(await hmac(key, stringToSign));
  const headers: Record<string, string> = {
    'Content-Type': values['content-type']!,
    'X-Date': date,
    'X-Content-Sha256': payloadHash,
    Authorization: `HMAC-SHA256 Credential=${o.accessKeyId ?? DEV.accessKeyId}/${scope}, SignedHeaders=${signed.join(';')}, Signature=${signature}`,
  };
  return { url, headers, body };
}

async function send(req: { url: URL; headers: Record<string, string>; body: Uint8Array }) {
  const response = await sandboxFetch(req.url.toString(), { method: 'POST', headers: req.headers, body: req.body });
  const envelope = (await response.json()) as any;
  return { status: response.status, envelope, error: envelope.ResponseMetadata?.Error as { Code: string; Message: string } | undefined };
}

/** A rejected signature: HTTP 401, failure envelope with that code, no Result. */
function expectRejected(res: { status: number; envelope: any; error?: { Code: string; Message: string } }, code = 'SignatureDoesNotMatch', message?: RegExp) {
  expect(res.status).toBe(401);
  expect(res.error?.Code).toBe(code);
  expect(res.error?.Message.length).toBeGreaterThan(10);
  if (message) expect(res.error?.Message).toMatch(message);
  expect(res.envelope).not.toHaveProperty('Result');
  expect(res.envelope.ResponseMetadata).toMatchObject({ Version: '2024-01-01', Service: 'ark', Region: 'cn-beijing' });
}

const minutes = (n: number) => new Date(Date.now() + n * 60_000);

describe('a correctly signed request', () => {
  it('is accepted when signed by an independent implementation of the service text', async () => {
    const res = await send(await signRaw());
    expect(res.status).toBe(200);
    expect(res.error).toBeUndefined();
    expect(res.envelope.Result).toHaveProperty('Items');
  });

  it('is accepted for the second default account with its own key pair', async () => {
    const res = await send(await signRaw({ accessKeyId: OTHER.accessKeyId, secret: OTHER.secretAccessKey }));
    expect(res.status).toBe(200);
    expect(res.error).toBeUndefined();
  });

  it('is accepted with a clock skew of 14 minutes, in the past and in the future', async () => {
    expect((await api('ListAssetGroups', {}, { date: minutes(-14) })).status).toBe(200);
    expect((await api('ListAssetGroups', {}, { date: minutes(14) })).status).toBe(200);
    expect((await send(await signRaw({ date: minutes(-14) }))).error).toBeUndefined();
  });
});

describe('a rejected signature: HTTP 401', () => {
  it('SignatureDoesNotMatch when one body byte is changed after signing (and the operation does not run)', async () => {
    const name = uniqueTag('tampered');
    const res = await api('CreateAssetGroup', { Name: name }, {
      tamper: (req) => {
        const i = req.body.indexOf('t'.charCodeAt(0));
        req.body = Uint8Array.from(req.body);
        req.body[i] = 'T'.charCodeAt(0);
      },
    });
    expectRejected(res);
    const listed = await api('ListAssetGroups', { Filter: { Name: name.slice(1) } });
    expect(listed.result.TotalCount).toBe(0);
  });

  it('SignatureDoesNotMatch when the body and its X-Content-Sha256 are both replaced after signing', async () => {
    const req = await signRaw({ body: '{"PageSize":5}' });
    req.body = encoder.encode('{"PageSize":6}');
    req.headers['X-Content-Sha256'] = await sha256(req.body);
    expectRejected(await send(req));
  });

  it('SignatureDoesNotMatch when X-Date is another day than the credential scope', async () => {
    const req = await signRaw();
    req.headers['X-Date'] = xDate(new Date(Date.now() - 24 * 3600_000));
    const res = await send(req);
    expectRejected(res);
  });

  it('SignatureDoesNotMatch for a scope date other than the X-Date day, even when signed consistently', async () => {
    const yesterday = xDate(new Date(Date.now() - 24 * 3600_000)).slice(0, 8);
    expectRejected(await send(await signRaw({ scopeDate: yesterday })), undefined, /scope date/);
  });

  it('SignatureDoesNotMatch when X-Date is changed by one second after signing (same day as the scope)', async () => {
    const signedAt = new Date();
    const req = await signRaw({ date: signedAt });
    // One second earlier, unless that is yesterday; then one second later.
    const sameDayEarlier = xDate(new Date(signedAt.getTime() - 1000)).slice(0, 8) === xDate(signedAt).slice(0, 8);
    req.headers['X-Date'] = xDate(new Date(signedAt.getTime() + (sameDayEarlier ? -1000 : 1000)));
    expect(req.headers['X-Date']!.slice(0, 8)).toBe(xDate(signedAt).slice(0, 8));
    expectRejected(await send(req));
  });

  it('SignatureDoesNotMatch for a scope whose region is not cn-beijing, even when signed consistently', async () => {
    expectRejected(await send(await signRaw({ region: 'cn-shanghai' })), undefined, /scope/);
  });

  it('SignatureDoesNotMatch for a scope whose service is not ark, even when signed consistently', async () => {
    expectRejected(await send(await signRaw({ service: 'iam' })), undefined, /scope/);
  });

  it('SignatureDoesNotMatch for a scope that does not end in request', async () => {
    expectRejected(await send(await signRaw({ terminal: 'aws4_request' })));
  });

  it('SignatureDoesNotMatch when the region of a valid scope is edited after signing', async () => {
    const req = await signRaw();
    req.headers.Authorization = req.headers.Authorization!.replace('/cn-beijing/', '/cn-shanghai/');
    expectRejected(await send(req));
  });

  it('SignatureDoesNotMatch when signed 16 minutes ago (clock skew over 15 minutes)', async () => {
    expectRejected(await api('ListAssetGroups', {}, { date: minutes(-16) }), undefined, /15 minutes/);
    expectRejected(await send(await signRaw({ date: minutes(-16) })));
  });

  it('SignatureDoesNotMatch when signed 16 minutes in the future', async () => {
    expectRejected(await api('ListAssetGroups', {}, { date: minutes(16) }), undefined, /15 minutes/);
  });

  it('InvalidAccessKey for an unknown access key', async () => {
    expectRejected(await send(await signRaw({ accessKeyId: 'AKUNKNOWN', secret: 'whatever' })), 'InvalidAccessKey');
  });

  it('SignatureDoesNotMatch for a known access key signed with the wrong secret', async () => {
    expectRejected(await send(await signRaw({ secret: OTHER.secretAccessKey })));
  });

  it('SignatureDoesNotMatch when the Authorization header is missing', async () => {
    const req = await signRaw();
    delete req.headers.Authorization;
    const res = await send(req);
    expectRejected(res);
    expect(res.error!.Message).toMatch(/Authorization/);
  });

  it('SignatureDoesNotMatch for a bearer API key on /api/v3 (an API key cannot replace the access key)', async () => {
    const req = await signRaw();
    req.headers.Authorization = `Bearer ${DEV.apiKey}`;
    expectRejected(await send(req));
  });

  it('SignatureDoesNotMatch when SignedHeaders leave out x-content-sha256, even when signed consistently', async () => {
    expectRejected(await send(await signRaw({ signedHeaders: ['content-type', 'host', 'x-date'] })), undefined, /SignedHeaders/);
  });

  it('SignatureDoesNotMatch when SignedHeaders are in another order, even when signed consistently', async () => {
    expectRejected(await send(await signRaw({ signedHeaders: ['host', 'content-type', 'x-content-sha256', 'x-date'] })), undefined, /SignedHeaders/);
  });

  it('SignatureDoesNotMatch when SignedHeaders is edited after signing', async () => {
    const req = await signRaw();
    req.headers.Authorization = req.headers.Authorization!.replace('SignedHeaders=content-type;host;', 'SignedHeaders=host;content-type;');
    expectRejected(await send(req));
  });

  it('SignatureDoesNotMatch when the Host header differs from the signed host', async () => {
    const res = await api('ListAssetGroups', {}, { tamper: (req) => void (req.headers.Host = 'evil.example') });
    expectRejected(res);
  });

  it('SignatureDoesNotMatch when the request goes to another host than the one signed', async () => {
    const res = await api('ListAssetGroups', {}, { tamper: (req) => void (req.url.host = 'other-host.test') });
    expectRejected(res);
  });

  it('SignatureDoesNotMatch when the query is changed after signing (Action)', async () => {
    const res = await api('ListAssetGroups', {}, { tamper: (req) => req.url.searchParams.set('Action', 'ListAssets') });
    expectRejected(res);
  });

  it('SignatureDoesNotMatch when Content-Type is changed after signing', async () => {
    const res = await api('ListAssetGroups', {}, { tamper: (req) => void (req.headers['Content-Type'] = 'text/plain') });
    expectRejected(res);
  });

  it('SignatureDoesNotMatch when X-Date is missing', async () => {
    const req = await signRaw();
    delete req.headers['X-Date'];
    expectRejected(await send(req));
  });

  it('SignatureDoesNotMatch when the signature is not lowercase hex of 64 digits', async () => {
    const req = await signRaw();
    req.headers.Authorization = req.headers.Authorization!.replace(/Signature=([0-9a-f]+)/, (_m, s: string) => `Signature=${s.toUpperCase()}`);
    expectRejected(await send(req));
  });
});
