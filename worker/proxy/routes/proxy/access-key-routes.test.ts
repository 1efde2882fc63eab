import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { MEMBER_ACCESS_KEYS_MAX } from '../../../../shared';
import app from '../../index';
import { adminHeaders, call, ORIGIN, proxyFetch } from '../../testing/proxy-test-client';
import { member, memberRows } from '../../testing/proxy-test-steps';
import { mintAccessKey, type AccessKey } from '../../testing/signed-client';

/** `/proxy/access-keys` and the admin's `/admin/members/:id/access-keys` (docs/identity.md). */

const minted = async (token: string, label?: string): Promise<AccessKey> => {
  const key = await mintAccessKey(token, label);
  if (key instanceof Response) throw new Error(`not minted: ${key.status}`);
  return key;
};

describe('member access keys', () => {
  it('are minted with the secret shown once, listed without it, and deleted at once', async () => {
    const m = await member('keys-owner');
    const created = await call(m, 'POST', '/proxy/access-keys', { label: '  CI\u202E script ' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.stringMatching(/^k[0-9a-f]{16}$/), label: 'CI script', accessKeyId: expect.stringMatching(new RegExp(`^AKAB${m.id}K[0-9A-F]{16}$`)), secretAccessKey: expect.stringMatching(/^abks_[\w-]{40}$/), createdAt: expect.any(String) });
    const { secretAccessKey, ...shown } = created.body;
    const listed = await call(m, 'GET', '/proxy/access-keys');
    expect(listed.body).toEqual({ keys: [{ ...shown, lastUsedAt: null }] });
    const admin = await proxyFetch(`/admin/members/${m.id}/access-keys`, { headers: adminHeaders() });
    expect(await admin.json()).toEqual({ keys: [{ ...shown, lastUsedAt: null }] });
    expect(JSON.stringify(listed.body)).not.toContain(secretAccessKey);

    expect((await call(m, 'DELETE', `/proxy/access-keys/${shown.id}`)).status).toBe(204);
    expect((await call(m, 'DELETE', `/proxy/access-keys/${shown.id}`)).body.error).toMatchObject({ code: 'access_key_not_found', param: 'keyId' });
    expect((await call(m, 'GET', '/proxy/access-keys')).body).toEqual({ keys: [] });
  });

  it('keep only the encrypted secret at rest, and the audit log names keys without secrets', async () => {
    const m = await member('keys-at-rest');
    const key = await minted(m.token);
    const rows = await memberRows<{ secret_sealed: string }>(m, 'SELECT * FROM access_keys');
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(key.secretAccessKey);
    expect(JSON.stringify(rows)).not.toContain(key.secretAccessKey.slice(5));
    const audit = await (await proxyFetch('/admin/audit?limit=200', { headers: adminHeaders() })).text();
    expect(audit).toContain(key.id);
    expect(audit).not.toContain(key.secretAccessKey);
  });

  it(`are refused past ${MEMBER_ACCESS_KEYS_MAX} per member: 409 too_many_access_keys`, async () => {
    const m = await member('keys-full');
    for (let i = 0; i < MEMBER_ACCESS_KEYS_MAX; i++) await minted(m.token, `key ${i}`);
    const refused = await call(m, 'POST', '/proxy/access-keys', { label: 'one more' });
    expect([refused.status, refused.body.error.code]).toEqual([409, 'too_many_access_keys']);
  });

  it('without ACCESS_KEY_SECRET: minting is 503 access_keys_not_configured, everything else works', async () => {
    const m = await member('keys-off');
    const key = await minted(m.token);
    const without = async (path: string, init: RequestInit) => {
      const ctx = createExecutionContext();
      const response = await app.fetch(new Request(new URL(path, ORIGIN), init), { ...env, ACCESS_KEY_SECRET: undefined }, ctx);
      await waitOnExecutionContext(ctx);
      return response;
    };
    const headers = { Authorization: `Bearer ${m.token}`, 'Content-Type': 'application/json' };
    for (const secret of [undefined, 'x'.repeat(31)]) {
      const ctx = createExecutionContext();
      const r = await app.fetch(new Request(new URL('/proxy/access-keys', ORIGIN), { method: 'POST', headers, body: '{"label":"k"}' }), { ...env, ACCESS_KEY_SECRET: secret }, ctx);
      await waitOnExecutionContext(ctx);
      expect([r.status, ((await r.json()) as any).error.code]).toEqual([503, 'access_keys_not_configured']);
    }
    expect((await without('/proxy/access-keys', { headers })).status).toBe(200);
    expect((await without(`/proxy/access-keys/${key.id}`, { method: 'DELETE', headers })).status).toBe(204);
    expect((await without('/proxy/me', { headers })).status).toBe(200);
  });

  it('are refused to a token no longer valid, and the admin\'s routes answer 404 for no such member or key', async () => {
    const m = await member('keys-admin');
    const key = await minted(m.token);
    expect((await call('abk_m0000000000000000_' + 'x'.repeat(43), 'GET', '/proxy/access-keys')).status).toBe(401);
    expect((await proxyFetch('/admin/members/m0000000000000000/access-keys', { headers: adminHeaders() })).status).toBe(404);
    const noKey = await proxyFetch(`/admin/members/${m.id}/access-keys/k0000000000000000`, { method: 'DELETE', headers: adminHeaders() });
    expect([noKey.status, ((await noKey.json()) as any).error.code]).toEqual([404, 'access_key_not_found']);
    expect((await proxyFetch(`/admin/members/${m.id}/access-keys/${key.id}`, { method: 'DELETE', headers: adminHeaders() })).status).toBe(204);
    expect((await call(m, 'GET', '/proxy/access-keys')).body).toEqual({ keys: [] });
  });
});
