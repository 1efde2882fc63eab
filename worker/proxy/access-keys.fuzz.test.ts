import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { accessKeyCreateSchema } from '../../shared';
import { assertNoViolations, encodeParam, FuzzReport, fuzzRoute, fuzzSettings, fuzzTimeoutMs, hostileBody, hostileHeaders, hostileParam, schemaFields, type FuzzAnswer } from '../../test/support/fuzz';
import { adminHeaders, appFetch, proxyEnv, sandbox, type Member } from './testing/proxy-test-client';
import { count, member } from './testing/proxy-test-steps';
import { mintAccessKey, vendorSign, type AccessKey } from './testing/signed-client';

/**
 * Property tests, as fuzz.test.ts's, of member access keys (docs/identity.md): their routes, and
 * hostile `Authorization` headers of the signed `/api/v3` path (missing parts, repeated or
 * 10,000 SignedHeaders, non-hex signatures, dates in other forms, a real header cut or changed).
 * Whatever is sent: no 5xx, an answer within the hang bound, no call to the service for a refusal,
 * and no secret in any answer (a secret access key only in the answer that mints it).
 */

const settings = fuzzSettings();
const report = new FuzzReport('proxy (access keys)', settings);
const timeout = fuzzTimeoutMs(settings);
const NO_KEY = 'k0000000000000000';
const SECRETS = ['SECRET_ACCESS_KEY', 'VIDEO_API_KEY', 'ADMIN_TOKEN', 'MEDIA_URL_SECRET', 'ACCESS_KEY_SECRET'] as const;

let holder: Member;
let key: AccessKey;

beforeAll(async () => {
  holder = await member('fuzz-keys');
  const minted = await mintAccessKey(holder.token, 'fuzz');
  if (minted instanceof Response) throw new Error(`no key: ${minted.status}`);
  key = minted;
});
afterAll(() => report.print());

const bearer = () => ({ Authorization: `Bearer ${holder.token}` });
const calls = async () => count(await sandbox.stats());

function leak(answer: FuzzAnswer, mints: boolean): string | null {
  const text = `${answer.text}\n${[...answer.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}`;
  for (const name of SECRETS) if (proxyEnv[name] && text.includes(proxyEnv[name]!)) return `the answer holds ${name}`;
  if (text.includes(key.secretAccessKey)) return 'the answer holds a secret access key';
  if (!(mints && answer.status === 201) && /abks_/.test(text)) return `HTTP ${answer.status} holds a secret access key`;
  return null;
}

const run = <T>(name: string, cases: fc.Arbitrary<T>, send: (input: T) => Promise<Response>, mints = false) =>
  fuzzRoute(report, { name, cases, send, upstream: calls, check: (_input, answer) => leak(answer, mints) }).then(assertNoViolations);

/** A real signed header, cut, or with one part replaced by hostile text. */
function hostileAuthorization(): fc.Arbitrary<string> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  vendorSign(key, '/api/v3?Action=ListAssetGroups&Version=2024-01-01', headers, '{}');
  const real = headers.Authorization!;
  const part = fc.oneof(hostileParam(), fc.constant(Array.from({ length: 10_000 }, (_, i) => `x-h${i}`).join(';')), fc.constant('host;host;x-date'), fc.constant('2026-01-01'), fc.constant('z'.repeat(64)));
  return fc.oneof(
    fc.nat(real.length).map((n) => real.slice(0, n)),
    fc.tuple(fc.constantFrom(/Credential=[^/]+/, /\/\d{8}\//, /SignedHeaders=[^,]+/, /Signature=[0-9a-f]+/, /cn-beijing/), part).map(([where, text]) => real.replace(where, (m) => `${m.split('=')[0]}${m.includes('=') ? '=' : ''}${text}`)),
    part.map((text) => `HMAC-SHA256 ${text}`),
  );
}

describe('fuzz: member access keys', () => {
  it('POST /proxy/access-keys: hostile bodies (a valid one mints a key)', { timeout }, async () => {
    await run('POST /proxy/access-keys', hostileBody({ fields: schemaFields(accessKeyCreateSchema) }), (b) =>
      appFetch('/proxy/access-keys', { method: 'POST', headers: { ...bearer(), 'Content-Type': 'application/json' }, body: b.bytes }), true);
  });

  it('GET /proxy/access-keys and DELETE /proxy/access-keys/{keyId}: hostile ids and headers', { timeout }, async () => {
    const headers = fc.tuple(fc.boolean(), hostileHeaders(['Authorization', 'Accept', 'Origin'])).map(([own, h]) => ({ ...(own ? bearer() : {}), ...h }));
    await run('/proxy/access-keys[/{keyId}]', fc.tuple(fc.option(hostileParam([NO_KEY]), { nil: undefined }), headers), ([keyId, h]) =>
      appFetch(`/proxy/access-keys${keyId === undefined ? '' : `/${encodeParam(keyId)}`}`, { method: keyId === undefined ? 'GET' : 'DELETE', headers: h }));
  });

  it('GET /admin/members/{id}/access-keys and DELETE /admin/members/{id}/access-keys/{keyId}: hostile ids', { timeout }, async () => {
    const id = fc.oneof(fc.constant(null), hostileParam()).map((x) => x ?? holder.id);
    await run('/admin/members/{id}/access-keys[/{keyId}]', fc.tuple(id, fc.option(hostileParam([NO_KEY]), { nil: undefined })), ([memberId, keyId]) =>
      appFetch(`/admin/members/${encodeParam(memberId)}/access-keys${keyId === undefined ? '' : `/${encodeParam(keyId)}`}`, { method: keyId === undefined ? 'GET' : 'DELETE', headers: adminHeaders() }));
  });

  it('POST /api/v3 signed: hostile Authorization headers are 401 in the service\'s shape, with no call to the service', { timeout }, async () => {
    await run('POST /api/v3 <hostile signatures>', hostileAuthorization(), async (authorization) => {
      const headers: Record<string, string> = { 'Content-Type': 'application/json' };
      vendorSign(key, '/api/v3?Action=ListAssetGroups&Version=2024-01-01', headers, '{}');
      return appFetch('/api/v3?Action=ListAssetGroups&Version=2024-01-01', { method: 'POST', headers: { ...headers, Authorization: authorization }, body: '{}' });
    });
  });
});
