import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import app from '../../index';
import { appFetch, mediaUrl, ORIGIN, proxyEnv, recordSeen } from '../../testing/proxy-test-client';
import { member } from '../../testing/proxy-test-steps';
import { create, finishTasks, priceModel, resetPrices } from '../../testing/gateway-test-steps';

/** The admin console (docs/console.md): sign-in, sessions, CSRF, Cloudflare Access, headers. */

const PAGES = ['members', 'usage', 'tasks', 'audit', 'prices', 'budget'] as const;
let ip = 0;
/** A fresh client address per sign-in, so that the throttle of one test does not meet another's. */
const source = () => ({ 'CF-Connecting-IP': `203.0.113.${++ip}` });

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded', Origin: ORIGIN };

async function signIn(token = proxyEnv.ADMIN_TOKEN, headers: Record<string, string> = source()) {
  return appFetch('/console/signin', { method: 'POST', headers: { ...FORM, ...headers }, body: form({ token }), redirect: 'manual' });
}

/** A signed-in session: its cookie and the CSRF token of its forms. */
async function session() {
  const r = await signIn();
  expect(r.status).toBe(303);
  const cookie = /arkbridge_console=([^;]+)/.exec(r.headers.get('set-cookie') ?? '')![1]!;
  const page = await (await appFetch('/console/members', { headers: { Cookie: `arkbridge_console=${cookie}` } })).text();
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page)![1]!;
  return { cookie: `arkbridge_console=${cookie}`, csrf };
}

async function accessJwt(claims: Record<string, unknown>, options: { key?: 'team' | 'other'; expiresIn?: string | number | null } = {}) {
  const r = await fetch(`${mediaUrl}/access/sign`, { method: 'POST', body: JSON.stringify({ claims, ...options }) });
  return ((await r.json()) as { jwt: string }).jwt;
}
const goodClaims = () => ({ email: 'ada@example.com', iss: mediaUrl, aud: ['arkbridge-test-aud'] });

describe('without a session, token or valid assertion nothing answers', () => {
  it.each(PAGES)('GET /console/%s redirects to sign-in', async (p) => {
    const r = await appFetch(`/console/${p}`, { redirect: 'manual' });
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe('/console/signin');
  });

  it('forms and the admin API answer 401', async () => {
    expect((await appFetch('/console/members', { method: 'POST', headers: FORM, body: form({ name: 'x' }) })).status).toBe(401);
    expect((await appFetch('/admin/members')).status).toBe(401);
    expect((await appFetch('/admin/members', { headers: { Cookie: 'arkbridge_console=forged' } })).status).toBe(401);
  });
});

describe('sign-in with the admin token', () => {
  it('opens a 12-hour HttpOnly, SameSite=Strict, Secure session; every page has the strict headers', async () => {
    const r = await signIn();
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe('/console/members');
    const cookie = r.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^arkbridge_console=[\w-]{43}; Max-Age=43200; Path=\/; HttpOnly; Secure; SameSite=Strict$/);
    const { cookie: c } = await session();
    for (const p of PAGES) {
      const page = await appFetch(`/console/${p}`, { headers: { Cookie: c } });
      expect(page.status, p).toBe(200);
      expect(page.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'");
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      // Not no-referrer: under it Chromium posts forms with `Origin: null`, which the same-origin check refuses.
      expect(page.headers.get('referrer-policy')).toBe('same-origin');
      const text = await page.text();
      expect(text).not.toMatch(/<script|\sstyle=|\son\w+=/i);
    }
    expect((await appFetch('/console/signin')).headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('a wrong token is refused and logged without the token; five failures from one address are throttled', async () => {
    const logs = vi.spyOn(console, 'log');
    const from = source();
    const wrong = await signIn('not-the-admin-token', from);
    expect(wrong.status).toBe(401);
    expect(logs.mock.calls.flat().join('\n')).not.toContain('not-the-admin-token');
    for (let i = 0; i < 4; i++) await signIn(`wrong-${i}`, from);
    const throttled = await signIn(proxyEnv.ADMIN_TOKEN, from);
    expect(throttled.status).toBe(429);
    expect((await signIn(proxyEnv.ADMIN_TOKEN, source())).status).toBe(303);
    logs.mockRestore();
  });

  it('a sign-in form posted from another site is refused', async () => {
    const r = await appFetch('/console/signin', { method: 'POST', headers: { ...FORM, Origin: 'https://evil.test', ...source() }, body: form({ token: proxyEnv.ADMIN_TOKEN }), redirect: 'manual' });
    expect(r.status).toBe(403);
    expect(r.headers.get('set-cookie')).toBeNull();
  });

  it('sign-out ends the session on the server', async () => {
    const { cookie, csrf } = await session();
    const out = await appFetch('/console/signout', { method: 'POST', headers: { ...FORM, Cookie: cookie }, body: form({ _csrf: csrf }), redirect: 'manual' });
    expect(out.status).toBe(303);
    expect((await appFetch('/console/members', { headers: { Cookie: cookie }, redirect: 'manual' })).status).toBe(303);
    expect((await appFetch('/admin/members', { headers: { Cookie: cookie } })).status).toBe(401);
  });
});

describe('CSRF', () => {
  const memberCount = async () => ((await (await appFetch('/admin/members', { headers: { Authorization: `Bearer ${proxyEnv.ADMIN_TOKEN}` } })).json()) as { members: unknown[] }).members.length;

  it('a cookie-carrying cross-origin POST creates nothing, with or without the CSRF token', async () => {
    const { cookie, csrf } = await session();
    const before = await memberCount();
    const evil = { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'https://evil.test', Cookie: cookie };
    expect((await appFetch('/console/members', { method: 'POST', headers: evil, body: form({ name: 'Mallory', _csrf: csrf }) })).status).toBe(403);
    expect((await appFetch('/console/members', { method: 'POST', headers: { ...FORM, Cookie: cookie }, body: form({ name: 'Mallory' }) })).status).toBe(403);
    const json = { 'Content-Type': 'application/json', Cookie: cookie };
    expect((await appFetch('/admin/members', { method: 'POST', headers: { ...json, Origin: 'https://evil.test', 'X-CSRF-Token': csrf }, body: '{"name":"Mallory"}' })).status).toBe(403);
    expect((await appFetch('/admin/members', { method: 'POST', headers: { ...json, Origin: ORIGIN }, body: '{"name":"Mallory"}' })).status).toBe(403);
    expect(await memberCount()).toBe(before);
  });

  it('the console adds a member through the admin API: the token shown once, with a connect link and its QR code', async () => {
    const { cookie, csrf } = await session();
    const r = await appFetch('/console/members', { method: 'POST', headers: { ...FORM, Cookie: cookie }, body: form({ name: 'Grace', _csrf: csrf }) });
    expect(r.status).toBe(200);
    const page = await r.text();
    const token = /id="token" class="secret" readonly value="(abk_m[0-9a-f]{16}_[\w-]{43})"/.exec(page)?.[1];
    expect(token).toBeDefined();
    expect(page).toContain(`${ORIGIN}/connect#token=${token}`);
    expect(page).toMatch(/<svg class="qr"[^>]*role="img"/);
    const me = await appFetch('/proxy/me', { headers: { Authorization: `Bearer ${token}` } });
    expect(await me.json()).toMatchObject({ name: 'Grace' });
    const audit = (await (await appFetch('/admin/audit?limit=5', { headers: { Authorization: `Bearer ${proxyEnv.ADMIN_TOKEN}` } })).json()) as { entries: { action: string; actor: string; detail: { name?: string } }[] };
    expect(audit.entries).toContainEqual(expect.objectContaining({ action: 'member.add', actor: 'admin', detail: { name: 'Grace' } }));
    // The page that shows the token is the only answer that holds it (and is never cached).
    expect(r.headers.get('cache-control')).toBe('no-store');
  });

  it('a budget set in the console is the admin API’s, and refused input is named', async () => {
    const m = await member('Budgeted');
    const { cookie, csrf } = await session();
    const ok = await appFetch(`/console/members/${m.id}/budget`, { method: 'POST', headers: { ...FORM, Cookie: cookie }, body: form({ limit: '25', period: 'month', maxRunning: '2', _csrf: csrf }) });
    expect(ok.status).toBe(200);
    const budget = await (await appFetch(`/admin/members/${m.id}/budget`, { headers: { Authorization: `Bearer ${proxyEnv.ADMIN_TOKEN}` } })).json();
    expect(budget).toMatchObject({ limit: 25, maxRunning: 2 });
    const bad = await appFetch(`/console/members/${m.id}/budget`, { method: 'POST', headers: { ...FORM, Cookie: cookie }, body: form({ limit: 'lots', period: 'month', maxRunning: '', _csrf: csrf }) });
    expect(await bad.text()).toContain('limit: must be a number or null');
  });

  it('prices show their unit and save back as shown; tasks show reserved against charged; usage shows the drift', async () => {
    const { cookie, csrf } = await session();
    const prices = await (await appFetch('/console/prices', { headers: { Cookie: cookie } })).text();
    expect(prices).toContain('per million output tokens');
    // The editor holds the table as GET answers it, less the read-only metadata: saved unchanged, it is accepted.
    const shown = /<textarea id="table" name="table" spellcheck="false">([^<]*)<\/textarea>/.exec(prices)![1]!.replaceAll('&quot;', '"');
    const saved = await appFetch('/console/prices', { method: 'POST', headers: { ...FORM, Cookie: cookie }, body: form({ table: shown, _csrf: csrf }) });
    expect(await saved.text()).toContain('Saved.');
    await priceModel(1);
    const m = await member('Priced');
    expect((await create(m, 5)).status).toBe(200);
    await finishTasks(m);
    const tasks = await (await appFetch(`/console/tasks?member=${m.id}`, { headers: { Cookie: cookie } })).text();
    expect(tasks).toContain('Reserved');
    expect(tasks).toMatch(/5\.00 CNY<\/td><td class="num">5\.00 CNY/);
    const usage = await (await appFetch('/console/usage', { headers: { Cookie: cookie } })).text();
    expect(usage).toMatch(/Charged [\d.]+ CNY for \d+ tasks against [\d.]+ CNY reserved for them: drift/);
    await resetPrices();
  });
});

describe('Cloudflare Access', () => {
  it('a valid assertion opens the console; the identity is the actor of its changes', async () => {
    const jwt = await accessJwt(goodClaims());
    const page = await appFetch('/console/members', { headers: { 'Cf-Access-Jwt-Assertion': jwt } });
    expect(page.status).toBe(200);
    expect(page.headers.get('set-cookie')).toMatch(/^arkbridge_console=/);
    const put = await appFetch('/admin/budget', { method: 'PUT', headers: { 'Cf-Access-Jwt-Assertion': jwt, 'Content-Type': 'application/json' }, body: '{"limit":null}' });
    expect(put.status).toBe(200);
    const audit = (await (await appFetch('/admin/audit?limit=3', { headers: { 'Cf-Access-Jwt-Assertion': jwt } })).json()) as { entries: { action: string; actor: string }[] };
    expect(audit.entries[0]).toMatchObject({ action: 'team_budget.set', actor: 'ada@example.com' });
  });

  it.each([
    ['a wrong audience', () => accessJwt({ ...goodClaims(), aud: ['another-app'] })],
    ['a wrong issuer', () => accessJwt({ ...goodClaims(), iss: 'https://evil.cloudflareaccess.com' })],
    ['a key not in the team’s set', () => accessJwt(goodClaims(), { key: 'other' })],
    ['an expired assertion', () => accessJwt(goodClaims(), { expiresIn: Math.floor(Date.now() / 1000) - 60 })],
    ['an assertion that never expires (no exp)', () => accessJwt(goodClaims(), { expiresIn: null })],
    ['junk', async () => 'not.a.jwt'],
  ])('%s is refused, never a pass', async (_what, make) => {
    const jwt = await make();
    expect((await appFetch('/console/members', { headers: { 'Cf-Access-Jwt-Assertion': jwt }, redirect: 'manual' })).status).toBe(403);
    expect((await appFetch('/admin/members', { headers: { 'Cf-Access-Jwt-Assertion': jwt } })).status).toBe(403);
    // Not even with a valid session beside it.
    const { cookie } = await session();
    expect((await appFetch('/admin/members', { headers: { 'Cf-Access-Jwt-Assertion': jwt, Cookie: cookie } })).status).toBe(403);
  });

  it('ADMIN_TOKEN_SIGNIN=off turns token sign-in off', async () => {
    const ctx = createExecutionContext();
    const r = await app.fetch(
      new Request(`${ORIGIN}/console/signin`, { method: 'POST', headers: { ...FORM, ...source() }, body: form({ token: proxyEnv.ADMIN_TOKEN }), redirect: 'manual' }),
      { ...proxyEnv, ADMIN_TOKEN_SIGNIN: 'off' },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    recordSeen(await r.clone().text());
    expect(r.status).toBe(403);
    expect(r.headers.get('set-cookie')).toBeNull();
  });
});

describe('the connect link', () => {
  it('GET /connect explains the link without reading the token (it stays in the fragment)', async () => {
    const r = await appFetch('/connect');
    expect(r.status).toBe(200);
    expect(await r.text()).toContain('Connect link');
    expect(r.headers.get('content-security-policy')).toContain("default-src 'none'");
  });
});

describe('the Prices page and the rules of a price table', () => {
  const S2 = 'doubao-seedance-2-0-260128';
  const S2_FAST = 'doubao-seedance-2-0-fast-260128';
  const unpricedRow = (page: string, model: string) => page.includes(`<tr class="unpriced"><td>${model}</td>`);

  it('marks each catalogued model the table has no price for, and no other', async () => {
    const { cookie } = await session();
    const page = async () => (await appFetch('/console/prices', { headers: { Cookie: cookie } })).text();
    const before = await page();
    expect([unpricedRow(before, S2), unpricedRow(before, S2_FAST), unpricedRow(before, 'doubao-seedance-1-5-pro-251215')]).toEqual([true, true, false]);
    expect(before).toContain('402 price_unknown');
    await priceModel(1, S2);
    const after = await page();
    expect([unpricedRow(after, S2), unpricedRow(after, S2_FAST), unpricedRow(after, 'doubao-seedance-1-5-pro-251215')]).toEqual([false, true, true]);
    await resetPrices();
  });

  it('a table the schema refuses, saved from the form, shows the field and leaves the stored table as it was', async () => {
    const { cookie, csrf } = await session();
    for (const [table, field] of [
      ['{"currency":"CNY","models":{"m":{}}}', 'models.m'],
      ['{"currency":"CNY","models":{"__proto__":{"*":1}}}', 'models.__proto__'],
      ['{"currency":"CNY","models":{"m":{"*":1e-7}}}', 'models.m.*'],
    ] as const) {
      const saved = await appFetch('/console/prices', { method: 'POST', headers: { ...FORM, Cookie: cookie }, body: form({ table, _csrf: csrf }) });
      expect(await saved.text()).toContain(`${field}:`);
    }
    const page = await (await appFetch('/console/prices', { headers: { Cookie: cookie } })).text();
    expect(page).toContain('The default table shipped with Arkbridge is in use.');
  });
});
