import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import app from '../../index';
import type { ProxyEnv } from '../../infra/settings/proxy-env';
import { mediaUrl, proxyEnv, recordSeen } from '../../testing/proxy-test-client';
import { admin } from '../../testing/gateway-test-steps';
import { member } from '../../testing/proxy-test-steps';
import { memberTokens } from '../../testing/leak-guard';

/**
 * Member sign-in with Cloudflare Access (docs/identity.md): `/connect/access` behind the members'
 * Access application, with the media fixture server as the team domain (its keys, generated with
 * jose at start, at /cdn-cgi/access/certs; test/support/media-server.ts signs assertions).
 */

const MEMBER_AUD = 'arkbridge-member-aud';
const CHROME_REDIRECT = `https://${'a'.repeat(32)}.chromiumapp.org/`;
const FIREFOX_REDIRECT = `https://${'0123456789'.repeat(4)}.extensions.allizom.org/signed-in`;

const signinEnv = (vars: Partial<ProxyEnv> = {}): ProxyEnv => ({ ...proxyEnv, MEMBER_ACCESS_AUD: MEMBER_AUD, ...vars });

async function fetchWith(env: ProxyEnv, path: string, headers: Record<string, string> = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await app.fetch(new Request(new URL(path, 'https://proxy.test'), { headers, redirect: 'manual' }), env, ctx);
  await waitOnExecutionContext(ctx);
  recordSeen(`${response.status} ${JSON.stringify([...response.headers])} ${await response.clone().text()}`);
  return response;
}

async function assertion(claims: Record<string, unknown>, options: { key?: 'team' | 'other'; expiresIn?: string | number | null } = {}) {
  const r = await fetch(`${mediaUrl}/access/sign`, { method: 'POST', body: JSON.stringify({ claims, ...options }) });
  return ((await r.json()) as { jwt: string }).jwt;
}
const claims = (email: string) => ({ email, iss: mediaUrl, aud: [MEMBER_AUD] });

const signIn = async (jwt: string | null, query = `redirect=${encodeURIComponent(CHROME_REDIRECT)}`, env = signinEnv(), ua = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36') =>
  fetchWith(env, `/connect/access?${query}`, { ...(jwt ? { 'Cf-Access-Jwt-Assertion': jwt } : {}), 'User-Agent': ua });

/** The token a sign-in handed over, read from the redirect's fragment. */
function handedToken(r: Response, redirect = CHROME_REDIRECT): string {
  expect(r.status).toBe(302);
  const location = r.headers.get('location')!;
  expect(location.startsWith(`${redirect}#token=`)).toBe(true);
  const token = decodeURIComponent(location.slice(location.indexOf('#token=') + 7));
  memberTokens.push(token);
  return token;
}

const me = (token: string) => fetchWith(signinEnv(), '/proxy/me', { Authorization: `Bearer ${token}` });
const emailOf = () => `Member.${crypto.randomUUID().slice(0, 8)}@Example.com`;

async function memberWithEmail(email: string) {
  const m = await member('with-email');
  expect((await admin('PUT', `/admin/members/${m.id}/email`, { email })).status).toBe(200);
  return m;
}

describe('GET /connect/methods', () => {
  it('says whether member sign-in is set up, with no token', async () => {
    expect(await (await fetchWith(signinEnv(), '/connect/methods')).json()).toEqual({ token: true, access: true });
    expect(await (await fetchWith(signinEnv({ MEMBER_ACCESS_AUD: undefined }), '/connect/methods')).json()).toEqual({ token: true, access: false });
    const off = await signIn(await assertion(claims('a@example.com')), undefined, signinEnv({ MEMBER_ACCESS_AUD: undefined }));
    expect([off.status, ((await off.json()) as any).error.code]).toEqual([404, 'member_signin_not_configured']);
  });
});

describe('GET /connect/access', () => {
  it('finds the member by email whatever its letter case, mints a token labelled with the browser, and redirects with it in the fragment', async () => {
    const email = emailOf();
    const m = await memberWithEmail(email);
    const r = await signIn(await assertion(claims(email.toUpperCase())));
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('referrer-policy')).toBe('no-referrer');
    const token = handedToken(r);
    expect(token).toMatch(new RegExp(`^abk_${m.id}_`));
    expect(((await (await me(token)).json()) as any).id).toBe(m.id);
    // The member's first token keeps working; the new one is listed with the browser's label.
    expect((await me(m.token)).status).toBe(200);
    const tokens = (await admin('GET', `/admin/members/${m.id}/tokens`)).body.tokens.map((t: any) => t.label);
    expect(tokens).toEqual(['Added by the admin', 'Chrome on macOS']);
    const audit = (await admin('GET', '/admin/audit?limit=20')).body.entries.find((e: any) => e.action === 'member.signin' && e.target === m.id);
    expect(audit).toMatchObject({ actor: email.toUpperCase() });
  });

  it('takes a label, and Firefox\'s redirect URL', async () => {
    const email = emailOf();
    const m = await memberWithEmail(email);
    const r = await signIn(await assertion(claims(email)), `redirect=${encodeURIComponent(FIREFOX_REDIRECT)}&label=${encodeURIComponent('Studio PC')}`);
    handedToken(r, FIREFOX_REDIRECT);
    expect((await admin('GET', `/admin/members/${m.id}/tokens`)).body.tokens.map((t: any) => t.label)).toContain('Studio PC');
  });

  it.each([
    ['a wrong audience', () => assertion({ ...claims('ada@example.com'), aud: ['arkbridge-test-aud'] })],
    ['a wrong issuer', () => assertion({ ...claims('ada@example.com'), iss: 'https://evil.cloudflareaccess.com' })],
    ['a key not in the team’s set', () => assertion(claims('ada@example.com'), { key: 'other' })],
    ['an expired assertion', () => assertion(claims('ada@example.com'), { expiresIn: Math.floor(Date.now() / 1000) - 60 })],
    ['an assertion without exp', () => assertion(claims('ada@example.com'), { expiresIn: null })],
    ['no email', () => assertion({ iss: mediaUrl, aud: [MEMBER_AUD] })],
    ['not a JWT', async () => 'not-a-jwt'],
  ])('%s is 403, and no token is minted', async (_what, make) => {
    await memberWithEmail('ada@example.com').catch(() => undefined);
    const r = await signIn(await make());
    expect(r.status).toBe(403);
    expect(((await r.json()) as any).error.code).toBe('forbidden');
    expect(r.headers.get('location')).toBeNull();
  });

  it('no assertion is 401', async () => {
    const r = await signIn(null);
    expect([r.status, ((await r.json()) as any).error.code]).toEqual([401, 'unauthorized']);
  });

  it.each([
    ['missing', ''],
    ['another site', `redirect=${encodeURIComponent('https://evil.example/')}`],
    ['a look-alike host', `redirect=${encodeURIComponent(`https://${'a'.repeat(32)}.chromiumapp.org.evil.example/`)}`],
    ['plain http', `redirect=${encodeURIComponent(`http://${'a'.repeat(32)}.chromiumapp.org/`)}`],
    ['a user name', `redirect=${encodeURIComponent(`https://x@${'a'.repeat(32)}.chromiumapp.org/`)}`],
    ['a port', `redirect=${encodeURIComponent(`https://${'a'.repeat(32)}.chromiumapp.org:8443/`)}`],
    ['an extension origin', `redirect=${encodeURIComponent(`chrome-extension://${'a'.repeat(32)}/options.html`)}`],
  ])('a redirect URL that is %s is 400 naming redirect, before the assertion is read', async (_what, query) => {
    const r = await signIn(await assertion(claims('ada@example.com')), query);
    const body = (await r.json()) as any;
    expect([r.status, body.error.code, body.error.param]).toEqual([400, 'invalid_parameter', 'redirect']);
  });

  it('with ALLOWED_ORIGINS naming Chrome extensions, only their identity flow is handed a token', async () => {
    const email = emailOf();
    await memberWithEmail(email);
    const ours = signinEnv({ ALLOWED_ORIGINS: `chrome-extension://${'a'.repeat(32)}, moz-extension://0b6f1f57-0000-4000-8000-000000000000` });
    const other = `https://${'c'.repeat(32)}.chromiumapp.org/`;
    const refused = await signIn(await assertion(claims(email)), `redirect=${encodeURIComponent(other)}`, ours);
    const body = (await refused.json()) as any;
    expect([refused.status, body.error.param]).toEqual([400, 'redirect']);
    handedToken(await signIn(await assertion(claims(email)), undefined, ours));
    handedToken(await signIn(await assertion(claims(email)), `redirect=${encodeURIComponent(FIREFOX_REDIRECT)}`, ours), FIREFOX_REDIRECT);
  });

  it('an unknown email is 403 not_a_member; with ACCESS_AUTO_ENROLL=on it becomes a new member with the default budget', async () => {
    const email = emailOf();
    const refused = await signIn(await assertion(claims(email)));
    expect([refused.status, ((await refused.json()) as any).error.code]).toEqual([403, 'not_a_member']);
    expect((await admin('GET', '/admin/members')).body.members.some((x: any) => x.email === email)).toBe(false);

    const token = handedToken(await signIn(await assertion(claims(email)), undefined, signinEnv({ ACCESS_AUTO_ENROLL: 'on' })));
    const self = (await (await me(token)).json()) as any;
    const listed = (await admin('GET', '/admin/members')).body.members.find((x: any) => x.id === self.id);
    expect(listed).toMatchObject({ name: email.split('@')[0], email, revoked: false, scope: { models: null, expiresAt: null } });
    expect((await admin('GET', `/admin/members/${self.id}/budget`)).body).toMatchObject({ limit: null, maxRunning: null });
    // Signing in again finds the enrolled member: no second one.
    const again = handedToken(await signIn(await assertion(claims(email)), undefined, signinEnv({ ACCESS_AUTO_ENROLL: 'on' })));
    expect(((await (await me(again)).json()) as any).id).toBe(self.id);
    expect((await admin('GET', '/admin/members')).body.members.filter((x: any) => x.email === email)).toHaveLength(1);
  });

  it('a revoked member may not sign in, not even by enrolling again; an expired one is told so', async () => {
    const email = emailOf();
    const gone = await memberWithEmail(email);
    await admin('DELETE', `/admin/members/${gone.id}`);
    const r = await signIn(await assertion(claims(email)), undefined, signinEnv({ ACCESS_AUTO_ENROLL: 'on' }));
    expect([r.status, ((await r.json()) as any).error.code]).toEqual([403, 'member_revoked']);

    const late = emailOf();
    const expired = await memberWithEmail(late);
    await admin('PUT', `/admin/members/${expired.id}/scope`, { expiresAt: Math.floor(Date.now() / 1000) - 1 });
    const e = await signIn(await assertion(claims(late)));
    expect([e.status, ((await e.json()) as any).error.code]).toEqual([401, 'token_expired']);
  });
});

describe('at once', () => {
  it('many adds of one email make one member; many first sign-ins with auto-enrolment enrol one', async () => {
    const email = emailOf();
    const adds = await Promise.all(Array.from({ length: 6 }, (_, i) => admin('POST', '/admin/members', { name: `Twin ${i}`, email })));
    for (const a of adds) if (a.status === 201) memberTokens.push(a.body.token);
    expect(adds.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);

    const fresh = emailOf();
    const jwt = await assertion(claims(fresh));
    const signins = await Promise.all(Array.from({ length: 6 }, () => signIn(jwt, undefined, signinEnv({ ACCESS_AUTO_ENROLL: 'on' }))));
    const signedIn = signins.filter((r) => r.status === 302).map((r) => handedToken(r));
    expect(signedIn.length).toBeGreaterThanOrEqual(1);
    const ids = new Set(await Promise.all(signedIn.map(async (token) => ((await (await me(token)).json()) as any).id)));
    expect(ids.size).toBe(1);
    expect((await admin('GET', '/admin/members')).body.members.filter((x: any) => x.email === fresh)).toHaveLength(1);
  });
});

describe('members\' emails', () => {
  it('POST /admin/members takes an email; one email names one active member; PUT changes or clears it', async () => {
    const email = emailOf();
    const added = await admin('POST', '/admin/members', { name: 'Grace', email });
    expect(added.status).toBe(201);
    memberTokens.push(added.body.token);
    expect(added.body).toMatchObject({ name: 'Grace', email });
    const twin = await admin('POST', '/admin/members', { name: 'Twin', email: email.toLowerCase() });
    expect([twin.status, twin.body.error.code, twin.body.error.param]).toEqual([409, 'email_taken', 'email']);
    const bad = await admin('POST', '/admin/members', { name: 'Bad', email: 'not-an-email' });
    expect([bad.status, bad.body.error.param]).toEqual([400, 'email']);
    const other = await member('other');
    expect((await admin('PUT', `/admin/members/${other.id}/email`, { email })).status).toBe(409);
    expect((await admin('PUT', `/admin/members/${added.body.id}/email`, { email: null })).body).not.toHaveProperty('email');
    expect((await admin('PUT', `/admin/members/${other.id}/email`, { email })).body).toMatchObject({ id: other.id, email });
    const listed = (await admin('GET', '/admin/members')).body.members;
    expect(listed.find((x: any) => x.id === other.id).email).toBe(email);
    expect(listed.find((x: any) => x.id === added.body.id)).not.toHaveProperty('email');
  });
});
