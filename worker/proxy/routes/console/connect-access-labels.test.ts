import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import app from '../../index';
import type { ProxyEnv } from '../../infra/settings/proxy-env';
import { mediaUrl, proxyEnv, recordSeen } from '../../testing/proxy-test-client';
import { admin } from '../../testing/gateway-test-steps';
import { member } from '../../testing/proxy-test-steps';
import { memberTokens } from '../../testing/leak-guard';

/**
 * Member sign-in with Cloudflare Access (docs/identity.md) and the label rule: auto-enrolment
 * checks the assertion's email as `POST /admin/members` checks one, and a sign-in's `label` is
 * cleaned as every stored label is (shared/labels.ts). The media fixture server is the team domain.
 */

const MEMBER_AUD = 'arkbridge-member-aud';
const CHROME_REDIRECT = `https://${'a'.repeat(32)}.chromiumapp.org/`;
const enrolEnv = (): ProxyEnv => ({ ...proxyEnv, MEMBER_ACCESS_AUD: MEMBER_AUD, ACCESS_AUTO_ENROLL: 'on' });

async function signIn(email: string, query = ''): Promise<Response> {
  const signed = await fetch(`${mediaUrl}/access/sign`, { method: 'POST', body: JSON.stringify({ claims: { email, iss: mediaUrl, aud: [MEMBER_AUD] } }) });
  const jwt = ((await signed.json()) as { jwt: string }).jwt;
  const ctx = createExecutionContext();
  const path = `/connect/access?redirect=${encodeURIComponent(CHROME_REDIRECT)}${query}`;
  const response = await app.fetch(new Request(new URL(path, 'https://proxy.test'), { headers: { 'Cf-Access-Jwt-Assertion': jwt }, redirect: 'manual' }), enrolEnv(), ctx);
  await waitOnExecutionContext(ctx);
  recordSeen(`${response.status} ${JSON.stringify([...response.headers])} ${await response.clone().text()}`);
  return response;
}

const members = async (): Promise<any[]> => (await admin('GET', '/admin/members')).body.members;

describe('auto-enrolment checks the email as POST /admin/members does', () => {
  it.each([
    ['no @ at all', 'admin1'],
    ['nothing before the @', '@acme.test'],
    ['a right-to-left override', 'eve\u202Etset.emca@acme.test'],
  ])('%s: 403 email_not_accepted, no member enrolled, as the admin could not add it', async (_what, email) => {
    const before = await members();
    const r = await signIn(email);
    expect(r.status).toBe(403);
    expect(r.headers.get('location')).toBeNull();
    const error = ((await r.json()) as any).error;
    expect(error.code).toBe('email_not_accepted');
    expect(error.message).not.toContain(email);
    const after = await members();
    expect(after.filter((m) => !before.some((b) => b.id === m.id)).filter((m) => m.email?.toLowerCase() === email.toLowerCase() || m.name === (email.split('@')[0] || email))).toEqual([]);
    // The same email is what POST /admin/members refuses.
    const added = await admin('POST', '/admin/members', { name: 'Eve', email });
    expect([added.status, added.body.error?.param]).toEqual([400, 'email']);
  });

  it('a good email is still enrolled', async () => {
    const email = `enrol.${crypto.randomUUID().slice(0, 8)}@acme.test`;
    const r = await signIn(email);
    expect(r.status).toBe(302);
    memberTokens.push(decodeURIComponent(r.headers.get('location')!.split('#token=')[1]!));
    expect((await members()).filter((m) => m.email === email).map((m) => m.name)).toEqual([email.split('@')[0]]);
  });
});

describe('a sign-in label follows the label rule', () => {
  it('is stored cleaned of NUL, BEL and right-to-left overrides; nothing left is 400 naming it', async () => {
    const m = await member('labels-signin');
    const email = `signin.${crypto.randomUUID().slice(0, 8)}@acme.test`;
    expect((await admin('PUT', `/admin/members/${m.id}/email`, { email })).status).toBe(200);
    const r = await signIn(email, `&label=${encodeURIComponent(' \u202EHome\u0000 P\u0007C ')}`);
    expect(r.status).toBe(302);
    memberTokens.push(decodeURIComponent(r.headers.get('location')!.split('#token=')[1]!));
    expect((await admin('GET', `/admin/members/${m.id}/tokens`)).body.tokens.map((t: any) => t.label)).toEqual(['Added by the admin', 'Home PC']);

    const empty = await signIn(email, `&label=${encodeURIComponent('\u202E\u0007')}`);
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as any).error.param).toBe('label');
    expect((await admin('GET', `/admin/members/${m.id}/tokens`)).body.tokens).toHaveLength(2);
  });
});
