import { describe, expect, it } from 'vitest';
import { appFetch, call, ORIGIN, proxyEnv } from '../../testing/proxy-test-client';
import { admin } from '../../testing/gateway-test-steps';
import { member, MODEL } from '../../testing/proxy-test-steps';
import { memberTokens } from '../../testing/leak-guard';
import { mintAccessKey } from '../../testing/signed-client';

/** The console's side of member identity (docs/console.md, docs/identity.md): email, scope and tokens of a member, shown and edited. */

let ip = 30;
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded', Origin: ORIGIN };

async function session() {
  const r = await appFetch('/console/signin', { method: 'POST', headers: { ...FORM, 'CF-Connecting-IP': `192.0.2.${++ip % 250}` }, body: form({ token: proxyEnv.ADMIN_TOKEN }), redirect: 'manual' });
  expect(r.status).toBe(303);
  const cookie = `arkbridge_console=${/arkbridge_console=([^;]+)/.exec(r.headers.get('set-cookie') ?? '')![1]!}`;
  const page = await (await appFetch('/console/members', { headers: { Cookie: cookie } })).text();
  return { cookie, csrf: /name="_csrf" value="([^"]+)"/.exec(page)![1]! };
}

const post = (s: { cookie: string; csrf: string }, path: string, fields: Record<string, string>) =>
  appFetch(path, { method: 'POST', headers: { ...FORM, Cookie: s.cookie }, body: form({ ...fields, _csrf: s.csrf }) });

describe('a member\'s sign-in and access in the console', () => {
  it('adds a member with an email; the list shows the email and the access', async () => {
    const s = await session();
    const email = `grace.${crypto.randomUUID().slice(0, 6)}@example.com`;
    const page = await (await post(s, '/console/members', { name: 'Grace', email })).text();
    const token = /id="token" class="secret" readonly value="([^"]+)"/.exec(page)![1]!;
    memberTokens.push(token);
    const list = await (await appFetch('/console/members', { headers: { Cookie: s.cookie } })).text();
    expect(list).toContain(email);
    expect(list).toContain('All models · no expiry');
    expect(list).toContain('for="new-email"');
  });

  it('edits email and scope, lists the tokens and revokes one', async () => {
    const s = await session();
    const m = await member('Console');
    const laptop = await call(m, 'POST', '/proxy/tokens', { label: 'Laptop of Console' });
    memberTokens.push(laptop.body.token);
    let page = await (await appFetch(`/console/members/${m.id}`, { headers: { Cookie: s.cookie } })).text();
    expect(page).toContain('Laptop of Console');
    expect(page).toContain('Added by the admin');
    expect(page).not.toContain(laptop.body.token);
    expect(page).not.toMatch(/<script|\sstyle=|\son\w+=/i);

    const email = `console.${crypto.randomUUID().slice(0, 6)}@example.com`;
    expect((await post(s, `/console/members/${m.id}/email`, { email })).status).toBe(200);
    const saved = await (await post(s, `/console/members/${m.id}/scope`, { models: `${MODEL}, doubao-seedance-1-0-pro-250528`, expires: '2099-12-31' })).text();
    expect(saved).toContain('2 models · expires 2099-12-31');
    const listed = (await admin('GET', '/admin/members')).body.members.find((x: any) => x.id === m.id);
    expect(listed).toMatchObject({ email, scope: { models: [MODEL, 'doubao-seedance-1-0-pro-250528'], expiresAt: Date.parse('2099-12-31T00:00:00Z') / 1000 } });

    const bad = await (await post(s, `/console/members/${m.id}/scope`, { models: 'bad!model', expires: '' })).text();
    expect(bad).toContain('models[0]');

    page = await post(s, `/console/members/${m.id}/tokens/${laptop.body.id}/revoke`, {}).then((r) => r.text());
    expect(page).toContain('Token revoked');
    expect((await call(laptop.body.token, 'GET', '/proxy/me')).status).toBe(401);
    expect((await call(m, 'GET', '/proxy/me')).status).toBe(200);

    // Cleared: every model again, no expiry.
    expect(await (await post(s, `/console/members/${m.id}/scope`, { models: '', expires: '' })).text()).toContain('All models · no expiry');
  });

  it('lists the member\'s access keys without their secrets, and revokes one', async () => {
    const s = await session();
    const m = await member('Scripted');
    const key = await mintAccessKey(m.token, 'Nightly export');
    if (key instanceof Response) throw new Error('no key');
    let page = await (await appFetch(`/console/members/${m.id}`, { headers: { Cookie: s.cookie } })).text();
    expect(page).toContain('Nightly export');
    expect(page).toContain(key.accessKeyId);
    expect(page).not.toContain(key.secretAccessKey);
    page = await post(s, `/console/members/${m.id}/access-keys/${key.id}/revoke`, {}).then((r) => r.text());
    expect(page).toContain('Access key revoked');
    expect((await call(m, 'GET', '/proxy/access-keys')).body).toEqual({ keys: [] });
  });

  it('a form without the session\'s CSRF token changes nothing', async () => {
    const s = await session();
    const m = await member('Guarded');
    const r = await appFetch(`/console/members/${m.id}/scope`, { method: 'POST', headers: { ...FORM, Cookie: s.cookie }, body: form({ models: MODEL }) });
    expect(r.status).toBe(403);
    expect((await admin('GET', '/admin/members')).body.members.find((x: any) => x.id === m.id).scope.models).toBeNull();
  });
});
