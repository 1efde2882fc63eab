import { describe, expect, it } from 'vitest';
import { api, appFetch, ORIGIN, proxyEnv } from '../../testing/proxy-test-client';
import { group, member } from '../../testing/proxy-test-steps';
import { revoke, shared } from '../../testing/sharing-test-steps';

/** The console's member page (docs/console.md, docs/team-library.md): groups with their sharing, and the transfer of a revoked member's. */

let ip = 100;
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded', Origin: ORIGIN };

async function session() {
  const r = await appFetch('/console/signin', { method: 'POST', headers: { ...FORM, 'CF-Connecting-IP': `198.51.100.${++ip % 250}` }, body: form({ token: proxyEnv.ADMIN_TOKEN }), redirect: 'manual' });
  expect(r.status).toBe(303);
  const cookie = `arkbridge_console=${/arkbridge_console=([^;]+)/.exec(r.headers.get('set-cookie') ?? '')![1]!}`;
  const page = await (await appFetch('/console/members', { headers: { Cookie: cookie } })).text();
  return { cookie, csrf: /name="_csrf" value="([^"]+)"/.exec(page)![1]! };
}

async function leaverWithGroups() {
  const a = await member('Leaver');
  const heir = await member('Heir');
  const b = await member('Grantee');
  const g = await group(a, 'Characters');
  await shared(a, g, { members: { [b.id]: 'editor' } });
  return { a, heir, b, g };
}

describe("a member's page", () => {
  it('lists the groups with their sharing, and is linked from the members list', async () => {
    const { a, b, g } = await leaverWithGroups();
    const s = await session();
    expect(await (await appFetch('/console/members', { headers: { Cookie: s.cookie } })).text()).toContain(`href="/console/members/${a.id}"`);
    const page = await (await appFetch(`/console/members/${a.id}`, { headers: { Cookie: s.cookie } })).text();
    expect(page).toContain('Characters');
    expect(page).toContain(g);
    expect(page).toContain(`${b.name}: editor`);
    // An active member's groups cannot be transferred from here.
    expect(page).not.toContain('/transfer');
  });

  it("offers the transfer on a revoked member's page; the form moves the groups", async () => {
    const { a, heir, g } = await leaverWithGroups();
    await revoke(a);
    const s = await session();
    const page = await (await appFetch(`/console/members/${a.id}`, { headers: { Cookie: s.cookie } })).text();
    expect(page).toContain(`action="/console/members/${a.id}/transfer"`);
    const r = await appFetch(`/console/members/${a.id}/transfer`, { method: 'POST', headers: { ...FORM, Cookie: s.cookie }, body: form({ _csrf: s.csrf, to: heir.id }) });
    expect(r.status).toBe(200);
    expect(await r.text()).toContain('Moved 1 groups and 0 assets.');
    expect((await api(heir, 'GetAssetGroup', { Id: g })).error).toBeUndefined();
  });

  it.each([
    ['without the CSRF token', (csrf: string) => ({ headers: FORM, fields: { to: '' }, csrf }), 403],
    ['from a foreign Origin', (csrf: string) => ({ headers: { ...FORM, Origin: 'https://evil.example' }, fields: { _csrf: csrf }, csrf }), 403],
  ])('refuses a transfer %s, moving nothing', async (_what, make, status) => {
    const { a, heir, g } = await leaverWithGroups();
    await revoke(a);
    const s = await session();
    const { headers, fields } = make(s.csrf);
    const r = await appFetch(`/console/members/${a.id}/transfer`, { method: 'POST', headers: { ...headers, Cookie: s.cookie }, body: form({ ...fields, to: heir.id }) });
    expect(r.status).toBe(status);
    expect((await api(heir, 'GetAssetGroup', { Id: g })).error?.Code).toBe('AccessDenied');
  });
});
