/**
 * Member sign-in end to end in Firefox ESR (the Firefox MV3 build, puppeteer-core over WebDriver
 * BiDi): the options page's "Sign in with your team account" runs Firefox's real
 * `browser.identity.launchWebAuthFlow`, with nothing stood in for in the page. Firefox opens the
 * proxy's `/connect/access` in a window of its own and ends the flow when that window is sent to
 * the extension's identity redirect URL (`https://<hash>.extensions.allizom.org/`), which it never
 * loads.
 *
 * Cloudflare Access is played by a local forwarder in front of the proxy (`accessStandIn`): it
 * passes every request on, adding the signed `Cf-Access-Jwt-Assertion` Access adds (keys of the
 * media fixture server, the proxy's ACCESS_TEAM_DOMAIN). The member connects to the forwarder's
 * address, as a member connects to the Access-protected hostname of their team's proxy.
 */
import { createServer, request as httpRequest, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, expect, test } from 'vitest';
import { TEST_PROXY_SECRETS } from '../support/sandbox';
import { clickButton, textOf } from './support/firefox';
import { useLocalStack } from './support/local-stack';
import { watch } from '../support/poll-until';

const MEMBER_AUD = 'arkbridge-e2e-members';
const EMAIL = 'dora@example.com';

const stack = useLocalStack({
  browser: 'firefox',
  member: 'Owner',
  proxyVars: (media) => ({ ACCESS_TEAM_DOMAIN: media.url, MEMBER_ACCESS_AUD: MEMBER_AUD }),
});
const pageErrors: string[] = [];

interface AccessStandIn {
  url: string;
  /** The paths (with queries) of the requests it passed on to `/connect/access`. */
  signins: string[];
  close(): Promise<void>;
}

/** A forwarder to `target` that adds an Access assertion for `email` to every request, as Access does behind its application. */
async function accessStandIn(target: string, mediaUrl: string, email: string): Promise<AccessStandIn> {
  const signed = await fetch(`${mediaUrl}/access/sign`, { method: 'POST', body: JSON.stringify({ claims: { email, iss: mediaUrl, aud: [MEMBER_AUD] } }) });
  const { jwt } = (await signed.json()) as { jwt: string };
  const upstream = new URL(target);
  const signins: string[] = [];
  const server: HttpServer = createServer((req, res) => {
    if (req.url?.startsWith('/connect/access')) signins.push(req.url);
    const headers = { ...req.headers, host: upstream.host, 'cf-access-jwt-assertion': jwt };
    const out = httpRequest({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', (error) => res.writeHead(502).end(String(error)));
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    signins,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let access: AccessStandIn | undefined;
afterAll(() => access?.close());

test('a member signs in with the team account in Firefox: launchWebAuthFlow runs /connect/access and hands the token back', async () => {
  const { firefox, proxy, media } = stack();
  const admin = { Authorization: `Bearer ${TEST_PROXY_SECRETS.ADMIN_TOKEN}`, 'Content-Type': 'application/json' };
  const added = (await (await fetch(`${proxy.url}/admin/members`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Dora', email: EMAIL }) })).json()) as { id: string; token: string };
  access = await accessStandIn(proxy.url, media.url, EMAIL.toUpperCase());

  const options = await firefox.openExtensionPage('options.html', pageErrors);
  const redirectUrl = await options.evaluate(() => (globalThis as unknown as { browser: { identity: { getRedirectURL(): string } } }).browser.identity.getRedirectURL());
  expect(redirectUrl).toMatch(/^https:\/\/[0-9a-f]{40}\.extensions\.allizom\.org\/$/);

  await options.waitForSelector('#proxy-url', { timeout: 15_000 });
  await options.$eval('#proxy-url', (el) => ((el as HTMLInputElement).value = ''));
  await options.type('#proxy-url', access.url);
  // `change` (what makes the page ask the proxy whether it signs members in) fires when the field is left.
  await options.keyboard.press('Tab');
  await clickButton(options, 'Sign in with your team account', 15_000);

  const connected = await watch(async () => (await textOf(options, 'main')).replace(/\s+/g, ' '), (text) => text.includes('Connected as Dora') || text.includes('Sign-in did not'), 30_000);
  expect(connected.last, `the page shows: ${connected.last.slice(0, 1500)}`).toContain('Connected as Dora');

  // Firefox's flow opened /connect/access with the extension's own redirect URL, once.
  expect(access.signins).toHaveLength(1);
  expect(new URL(access.signins[0]!, access.url).searchParams.get('redirect')).toBe(redirectUrl);

  // A token of its own, labelled with the browser; the admin's first token is still Dora's other one.
  const tokens = (await (await fetch(`${proxy.url}/admin/members/${added.id}/tokens`, { headers: admin })).json()) as { tokens: { label: string }[] };
  expect(tokens.tokens.map((t) => t.label)).toEqual(['Added by the admin', expect.stringMatching(/^Firefox on /)]);
  // The extension works with it: its library call went through (the default group list was read).
  await options.waitForSelector('#groups-note', { timeout: 30_000 });
  expect(pageErrors).toEqual([]);
  await options.close();
});
