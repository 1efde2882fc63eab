/**
 * Member sign-in end to end in Chromium: a proxy with member sign-in set up (Cloudflare Access
 * played by the media fixture server: its key set at the team domain's certs URL, and assertions
 * it signs), the built extension's options page offering "Sign in with your team account", and the
 * extension then working with the token it was handed (its library listed, its browsers shown).
 *
 * Headless Chromium cannot drive `browser.identity.launchWebAuthFlow` (it opens a browser window
 * for a person). So the test stands in for that one call, in the options page itself: it receives
 * the very URL the page builds (the proxy's `/connect/access` with the extension's real redirect
 * URL, `https://<id>.chromiumapp.org/`), requests it as the browser would behind Access (with the
 * signed `Cf-Access-Jwt-Assertion` Access adds, and the page's User-Agent), and hands the page the
 * redirect the proxy answers. Everything before and after is the page's own code.
 */
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { AdminClient } from '../../scripts/lib/admin-client';
import { TEST_PROXY_SECRETS } from '../support/sandbox';
import { openExtensionPage } from './support/extension';
import { useLocalStack } from './support/local-stack';

const MEMBER_AUD = 'arkbridge-e2e-members';
const EMAIL = 'cleo@example.com';
const GROUP = 'Cleo’s storyboards';

const stack = useLocalStack({
  member: 'Owner',
  proxyVars: (media) => ({ ACCESS_TEAM_DOMAIN: media.url, MEMBER_ACCESS_AUD: MEMBER_AUD }),
});
const pageErrors: string[] = [];

/** What Cloudflare Access does in front of `/connect/access`: the request, with a signed assertion for `email`. */
async function throughAccess(url: string, userAgent: string, email: string): Promise<{ status: number; location: string | null; seen: string }> {
  const { media } = stack();
  const signed = await fetch(`${media.url}/access/sign`, { method: 'POST', body: JSON.stringify({ claims: { email, iss: media.url, aud: [MEMBER_AUD] } }) });
  const { jwt } = (await signed.json()) as { jwt: string };
  const r = await fetch(url, { headers: { 'Cf-Access-Jwt-Assertion': jwt, 'User-Agent': userAgent }, redirect: 'manual' });
  return { status: r.status, location: r.headers.get('location'), seen: url };
}

/** The options page, with the identity flow's one call played by `throughAccess` (the rest is the page's code). */
async function optionsWithAccess(email: string, asked: string[]): Promise<Page> {
  const page = await openExtensionPage(stack().browser, 'options.html', pageErrors);
  await page.exposeFunction('arkbridgeTestAccess', async (url: string, userAgent: string) => {
    asked.push(url);
    const answer = await throughAccess(url, userAgent, email);
    if (answer.status !== 302 || !answer.location) throw new Error(`/connect/access answered ${answer.status}`);
    return answer.location;
  });
  await page.evaluate(() => {
    const identity = (globalThis as unknown as { chrome: { identity: { launchWebAuthFlow: unknown } } }).chrome.identity;
    identity.launchWebAuthFlow = (details: { url: string }) =>
      (globalThis as unknown as { arkbridgeTestAccess(url: string, ua: string): Promise<string> }).arkbridgeTestAccess(details.url, navigator.userAgent);
  });
  return page;
}

test('a member signs in with the team account in the options page, and the extension works with the token it was handed', async () => {
  const { proxy, browser } = stack();
  const admin = new AdminClient(proxy.url, TEST_PROXY_SECRETS.ADMIN_TOKEN);
  // Cleo has an email on record, and a group made earlier with the admin's token.
  const added = await (await fetch(`${proxy.url}/admin/members`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${TEST_PROXY_SECRETS.ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Cleo', email: EMAIL }),
  })).json() as { id: string; token: string };
  const made = await fetch(`${proxy.url}/api/v3?Action=CreateAssetGroup&Version=2024-01-01`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${added.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ Name: GROUP }),
  });
  expect(made.status).toBe(200);

  const asked: string[] = [];
  const options = await optionsWithAccess(EMAIL.toUpperCase(), asked);
  // Not connected, the proxy URL preset: the page asks the proxy, which offers sign-in.
  const signIn = options.getByRole('button', { name: 'Sign in with your team account' });
  await signIn.waitFor({ state: 'visible', timeout: 15_000 });
  await signIn.click();
  await options.getByText('Connected as Cleo').waitFor({ state: 'visible', timeout: 30_000 });

  // The page asked for the proxy's /connect/access with the extension's own redirect URL.
  expect(asked).toHaveLength(1);
  const redirect = new URL(asked[0]!).searchParams.get('redirect')!;
  expect(redirect).toBe(`https://${browser.extensionId}.chromiumapp.org/`);

  // The extension works with the minted token: it listed Cleo's library (the default group choices hold her group).
  await options.locator('#groups-note').waitFor({ state: 'visible', timeout: 30_000 });
  await expect.poll(() => options.getByLabel('Default group').locator('option').allTextContents(), { timeout: 15_000 }).toContain(GROUP);

  // A token of its own, labelled with the browser; the admin's first token is still Cleo's other one.
  const tokens = (await (await fetch(`${proxy.url}/admin/members/${added.id}/tokens`, { headers: { Authorization: `Bearer ${TEST_PROXY_SECRETS.ADMIN_TOKEN}` } })).json()) as { tokens: { label: string }[] };
  expect(tokens.tokens.map((t) => t.label)).toEqual(['Added by the admin', expect.stringMatching(/^Chrome on /)]);

  // Her browsers: this one marked; the admin's token revoked from here stops working at once.
  await options.getByText('Your browsers').click();
  await options.getByText('This browser').waitFor({ state: 'visible', timeout: 15_000 });
  await options.getByRole('button', { name: 'Revoke Added by the admin' }).click();
  await options.getByText('Added by the admin can no longer use your account.').waitFor({ state: 'visible', timeout: 15_000 });
  expect((await fetch(`${proxy.url}/proxy/me`, { headers: { Authorization: `Bearer ${added.token}` } })).status).toBe(401);
  expect((await admin.list()).find((m) => m.id === added.id)).toMatchObject({ name: 'Cleo', revoked: false });
  expect(pageErrors).toEqual([]);
  await options.close();
});
