import { describe, expect, it } from 'vitest';
import { proxyEnv, proxyFetch } from '../../testing/proxy-test-client';
import { member, MODEL, noUpstream } from '../../testing/proxy-test-steps';

/** Member tokens on every member route (docs/proxy-api.md, "Authentication"): missing, malformed or unknown -> 401. */

const ROUTES: [method: string, path: string, body?: unknown][] = [
  ['POST', '/api/v3?Action=ListAssetGroups&Version=2024-01-01', {}],
  ['POST', '/api/v3?Action=CreateAssetGroup&Version=2024-01-01', { Name: 'x' }],
  ['GET', '/v1/models'],
  ['POST', '/v1/video/generations', { model: MODEL, prompt: 'x' }],
  ['GET', '/v1/video/generations/task-1'],
  ['GET', '/proxy/me'],
  ['GET', '/proxy/consents'],
  ['POST', '/proxy/consents', { scope: 'portrait', rulesVersion: '1' }],
  ['GET', '/proxy/capabilities'],
];

async function authorizations(): Promise<[string, Record<string, string>][]> {
  const real = await member('real');
  // The real member's id with another secret: of the right form, but not the member's token.
  const forged = `abk_${real.id}_${'A'.repeat(43)}`;
  return [
    ['no Authorization header', {}],
    ['an empty bearer', { Authorization: 'Bearer ' }],
    ['a malformed token', { Authorization: 'Bearer not-a-member-token' }],
    ['another scheme', { Authorization: `Basic ${real.token}` }],
    ['the token without a scheme', { Authorization: real.token }],
    ['an unknown member of the right form', { Authorization: `Bearer abk_m0123456789abcdef_${'B'.repeat(43)}` }],
    ["a member's id with a wrong secret", { Authorization: `Bearer ${forged}` }],
    ['the admin token', { Authorization: `Bearer ${proxyEnv.ADMIN_TOKEN}` }],
  ];
}

describe('member authentication', () => {
  it.each(ROUTES)('%s %s answers 401 in the surface\'s own error form, without an upstream call', async (method, path, body) => {
    for (const [what, headers] of await authorizations()) {
      const response = await noUpstream(() =>
        proxyFetch(path, { method, headers: { 'Content-Type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) }),
      );
      expect(response.status, what).toBe(401);
      const json = (await response.json()) as any;
      if (path.startsWith('/api/v3')) {
        expect(json.ResponseMetadata.Error.Code, what).toBe('AuthenticationFailed');
        expect(json.ResponseMetadata.Action).toBe(new URL(path, 'https://x').searchParams.get('Action'));
        expect(json.Result).toBeUndefined();
      } else {
        expect(json.error.code, what).toBe('unauthorized');
        expect(json.error.message).toMatch(/member token/);
      }
    }
  });

  it('accepts the bearer scheme in any letter case', async () => {
    const m = await member('case');
    const r = await proxyFetch('/proxy/me', { headers: { Authorization: `bearer ${m.token}` } });
    expect(r.status).toBe(200);
  });

  it('the admin routes and /healthz are not member routes', async () => {
    const m = await member('not-admin');
    expect((await proxyFetch('/admin/members', { headers: { Authorization: `Bearer ${m.token}` } })).status).toBe(401);
    expect((await proxyFetch('/healthz')).status).toBe(200);
  });
});
