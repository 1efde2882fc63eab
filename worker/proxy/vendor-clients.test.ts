import { describe, expect, it } from 'vitest';
import { adminHeaders, api, call, proxyFetch, type Member } from './testing/proxy-test-client';
import { group, member, memberRows, noUpstream, upstream } from './testing/proxy-test-steps';
import { mintAccessKey, vendorSign, type AccessKey } from './testing/signed-client';

/**
 * The service's own Node SDK signer (`@volcengine/openapi`, unmodified) against the proxy with a
 * member access key (contract section 20): a script changes only the endpoint and the key pair.
 * Every refusal is a 401 in the service's own shape with no call to the service.
 */

async function keyed(name: string): Promise<{ m: Member; key: AccessKey }> {
  const m = await member(name);
  const key = await mintAccessKey(m.token);
  if (key instanceof Response) throw new Error(`no access key: ${key.status} ${await key.text()}`);
  return { m, key };
}

interface SignedOptions {
  date?: Date;
  /** Changes the request after it was signed. */
  tamper?: (request: { headers: Record<string, string>; body: string }) => void;
}

/** A POST /api/v3 signed by the vendor's signer with `key`. */
async function signed(key: Pick<AccessKey, 'accessKeyId' | 'secretAccessKey'>, action: string, body: unknown, options: SignedOptions = {}) {
  const path = `/api/v3?Action=${action}&Version=2024-01-01`;
  const request = { headers: { 'Content-Type': 'application/json' } as Record<string, string>, body: JSON.stringify(body) };
  vendorSign(key, path, request.headers, request.body, options.date);
  options.tamper?.(request);
  const response = await proxyFetch(path, { method: 'POST', headers: request.headers, body: request.body });
  const envelope = (await response.json()) as { ResponseMetadata: { Action: string; Error?: { Code: string; Message: string } }; Result?: any };
  return { status: response.status, authorization: request.headers.Authorization!, error: envelope.ResponseMetadata.Error, action: envelope.ResponseMetadata.Action, result: envelope.Result };
}

describe("the vendor's Node signer with a member access key", () => {
  it('creates a group and lists it, as the member: 200 with the service\'s answer, the group the member\'s', async () => {
    const { m, key } = await keyed('vendor-script');
    const created = await signed(key, 'CreateAssetGroup', { Name: 'from the SDK' });
    expect(created.authorization).toContain('SignedHeaders=host;x-content-sha256;x-date,');
    expect(created).toMatchObject({ status: 200, error: undefined });
    const id = created.result.Id as string;

    const listed = await signed(key, 'ListAssetGroups', { PageSize: 100 });
    expect(listed).toMatchObject({ status: 200, error: undefined });
    expect(listed.result.Items.map((g: { Id: string }) => g.Id)).toEqual([id]);
    // The same group through the member's bearer token: one member, two ways in.
    expect((await api(m, 'GetAssetGroup', { Id: id })).result).toMatchObject({ Id: id, Name: 'from the SDK' });
    expect(await memberRows(m, "SELECT id FROM owned WHERE kind = 'group'")).toEqual([{ id }]);
  });

  it("another member's id: 403 AccessDenied as on the bearer path, nothing sent upstream", async () => {
    const owner = await member('vendor-owner');
    const theirs = await group(owner, 'not yours');
    const { key } = await keyed('vendor-intruder');
    const r = await noUpstream(() => signed(key, 'GetAssetGroup', { Id: theirs }));
    expect([r.status, r.error?.Code, r.action]).toEqual([403, 'AccessDenied', 'GetAssetGroup']);
  });

  it('a tampered body or signature, or a wrong secret: 401 SignatureDoesNotMatch, nothing sent upstream', async () => {
    const { key } = await keyed('vendor-tamper');
    const tampered = [
      (r: { body: string }) => void (r.body = JSON.stringify({ Name: 'changed after signing' })),
      (r: { headers: Record<string, string> }) => void (r.headers.Authorization = r.headers.Authorization!.replace(/Signature=(.)/, (_, c: string) => `Signature=${c === '0' ? '1' : '0'}`)),
    ];
    for (const tamper of tampered) {
      const r = await noUpstream(() => signed(key, 'CreateAssetGroup', { Name: 'x' }, { tamper }));
      expect([r.status, r.error?.Code, r.action]).toEqual([401, 'SignatureDoesNotMatch', 'CreateAssetGroup']);
    }
    const wrong = await noUpstream(() => signed({ ...key, secretAccessKey: 'abks_the-wrong-secret' }, 'ListAssetGroups', {}));
    expect([wrong.status, wrong.error?.Code]).toEqual([401, 'SignatureDoesNotMatch']);
  });

  it('a signature over 15 minutes old (or ahead): 401 SignatureDoesNotMatch naming the skew, nothing sent upstream', async () => {
    const { key } = await keyed('vendor-stale');
    for (const offset of [-16 * 60_000, 16 * 60_000]) {
      const r = await noUpstream(() => signed(key, 'ListAssetGroups', {}, { date: new Date(Date.now() + offset) }));
      expect([r.status, r.error?.Code]).toEqual([401, 'SignatureDoesNotMatch']);
      expect(r.error?.Message).toMatch(/15 minutes/);
    }
    // Within the window: accepted.
    expect((await signed(key, 'ListAssetGroups', {}, { date: new Date(Date.now() - 5 * 60_000) })).status).toBe(200);
  });

  it('a key the member deleted, the admin revoked, or that never existed: 401 InvalidAccessKey at once, nothing sent upstream', async () => {
    const { m, key } = await keyed('vendor-deleted');
    const other = await mintAccessKey(m.token, 'second');
    if (other instanceof Response) throw new Error('no second key');
    expect((await signed(key, 'ListAssetGroups', {})).status).toBe(200);
    expect((await call(m, 'DELETE', `/proxy/access-keys/${key.id}`)).status).toBe(204);
    const deleted = await noUpstream(() => signed(key, 'ListAssetGroups', {}));
    expect([deleted.status, deleted.error?.Code]).toEqual([401, 'InvalidAccessKey']);

    expect((await signed(other, 'ListAssetGroups', {})).status).toBe(200);
    expect((await proxyFetch(`/admin/members/${m.id}/access-keys/${other.id}`, { method: 'DELETE', headers: adminHeaders() })).status).toBe(204);
    const revoked = await noUpstream(() => signed(other, 'ListAssetGroups', {}));
    expect([revoked.status, revoked.error?.Code]).toEqual([401, 'InvalidAccessKey']);

    const unknown = await noUpstream(() => signed({ accessKeyId: `AKAB${m.id}K0123456789ABCDEF`, secretAccessKey: 'abks_x' }, 'ListAssetGroups', {}));
    expect([unknown.status, unknown.error?.Code]).toEqual([401, 'InvalidAccessKey']);
    const foreign = await noUpstream(() => signed({ accessKeyId: 'AKLTnotOneOfOurs', secretAccessKey: 'x' }, 'ListAssetGroups', {}));
    expect([foreign.status, foreign.error?.Code]).toEqual([401, 'InvalidAccessKey']);
  });

  it("the member's revocation and rotation end every key of theirs", async () => {
    for (const end of ['rotate', 'revoke'] as const) {
      const { m, key } = await keyed(`vendor-${end}`);
      expect((await signed(key, 'ListAssetGroups', {})).status).toBe(200);
      const r = await proxyFetch(end === 'rotate' ? `/admin/members/${m.id}/token` : `/admin/members/${m.id}`, { method: end === 'rotate' ? 'POST' : 'DELETE', headers: adminHeaders() });
      expect(r.status, end).toBeLessThan(300);
      const refused = await noUpstream(() => signed(key, 'ListAssetGroups', {}));
      expect([refused.status, refused.error?.Code], end).toEqual([401, 'InvalidAccessKey']);
      // Gone, not only refused: nothing is left to work again.
      expect(await (await proxyFetch(`/admin/members/${m.id}/access-keys`, { headers: adminHeaders() })).json(), end).toEqual({ keys: [] });
    }
  });

  it("a key of a member past their expiry is refused while they are expired, and works again once extended", async () => {
    const { m, key } = await keyed('vendor-expiry');
    const scope = (expiresAt: number | null) => proxyFetch(`/admin/members/${m.id}/scope`, { method: 'PUT', headers: adminHeaders(), body: JSON.stringify({ expiresAt }) });
    expect((await scope(Math.floor(Date.now() / 1000) - 60)).status).toBe(200);
    const expired = await noUpstream(() => signed(key, 'ListAssetGroups', {}));
    expect([expired.status, expired.error?.Code]).toEqual([401, 'token_expired']);
    expect((await scope(null)).status).toBe(200);
    expect((await signed(key, 'ListAssetGroups', {})).status).toBe(200);
  });

  it('/v1 takes only the bearer token: a signed call there is 401', async () => {
    const { key } = await keyed('vendor-v1');
    const headers: Record<string, string> = {};
    vendorSign(key, '/v1/models', headers, '');
    const r = await noUpstream(() => proxyFetch('/v1/models', { headers }));
    expect(r.status).toBe(401);
  });

  it('malformed Authorization headers: 401 SignatureDoesNotMatch in the service\'s shape, bounded, nothing sent upstream', async () => {
    const { key } = await keyed('vendor-malformed');
    const good = { headers: { 'Content-Type': 'application/json' } as Record<string, string>, body: '{}' };
    vendorSign(key, '/api/v3?Action=ListAssetGroups&Version=2024-01-01', good.headers, good.body);
    const auth = good.headers.Authorization!;
    const variants = [
      'HMAC-SHA256 ',
      auth.replace(/, Signature=[0-9a-f]+/, ''),
      auth.replace('SignedHeaders=', 'SignedHeaders=host;host;'),
      auth.replace(/SignedHeaders=[^,]+/, `SignedHeaders=${Array.from({ length: 10_000 }, (_, i) => `x-h${i}`).join(';')}`),
      auth.replace(/Signature=[0-9a-f]+/, `Signature=${'z'.repeat(64)}`),
      auth.replace(/\/\d{8}\//, '/2026-01-01/'),
    ];
    for (const authorization of variants) {
      const r = await noUpstream(() => proxyFetch('/api/v3?Action=ListAssetGroups&Version=2024-01-01', { method: 'POST', headers: { ...good.headers, Authorization: authorization }, body: good.body }));
      const envelope = (await r.json()) as { ResponseMetadata: { Error: { Code: string } } };
      expect([r.status, envelope.ResponseMetadata.Error.Code], authorization.slice(0, 80)).toEqual([401, 'SignatureDoesNotMatch']);
    }
  });
});

describe('a key\'s last use', () => {
  it('is listed after a verified call, never with the secret', async () => {
    const { m, key } = await keyed('vendor-last-used');
    await signed(key, 'ListAssetGroups', {});
    const listed = await call(m, 'GET', '/proxy/access-keys');
    expect(listed.body.keys).toEqual([{ id: key.id, label: 'script', accessKeyId: key.accessKeyId, createdAt: expect.any(String), lastUsedAt: expect.any(String) }]);
    expect(JSON.stringify(listed.body)).not.toContain(key.secretAccessKey);
    const { calls } = await upstream(async () => undefined);
    expect(calls()).toBe(0);
  });
});
