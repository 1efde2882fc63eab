import { describe, expect, it } from 'vitest';
import { appFetch, ORIGIN, proxyEnv } from '../../testing/proxy-test-client';
import { admin } from '../../testing/gateway-test-steps';
import { inbox } from '../../testing/webhook-test-steps';

/** The console's webhook page (docs/console.md, docs/webhooks.md): the team's webhook set, rotated and removed through forms, and its deliveries. */

let ip = 10;
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded', Origin: ORIGIN };

async function session() {
  const r = await appFetch('/console/signin', { method: 'POST', headers: { ...FORM, 'CF-Connecting-IP': `192.0.2.${++ip % 250}` }, body: new URLSearchParams({ token: proxyEnv.ADMIN_TOKEN }).toString(), redirect: 'manual' });
  expect(r.status).toBe(303);
  const cookie = `arkbridge_console=${/arkbridge_console=([^;]+)/.exec(r.headers.get('set-cookie') ?? '')![1]!}`;
  const page = await (await appFetch('/console/webhook', { headers: { Cookie: cookie } })).text();
  return { cookie, csrf: /name="_csrf" value="([^"]+)"/.exec(page)![1]!, page };
}

const post = (s: { cookie: string; csrf: string }, path: string, fields: [string, string][] = []) =>
  appFetch(path, { method: 'POST', headers: { ...FORM, Cookie: s.cookie }, body: new URLSearchParams([['_csrf', s.csrf], ...fields]).toString() });

describe('the webhook page', () => {
  it('sets the team webhook with its events (the secret shown once), rotates, lists deliveries and removes it', async () => {
    await admin('DELETE', '/admin/webhook');
    const s = await session();
    expect(s.page).toContain('No webhook is set.');
    expect(s.page).toContain('href="/console/webhook" aria-current="page"');
    const box = inbox();
    const set = await (await post(s, '/console/webhook', [['url', box.url], ['event', 'task.completed'], ['event', 'budget.alert'], ['format', 'standard']])).text();
    const secret = /The secret, shown this once: (whsec_[A-Za-z0-9+/=]+)/.exec(set)?.[1];
    expect(secret).toBeTruthy();
    expect((await admin('GET', '/admin/webhook')).body).toMatchObject({ url: box.url, events: ['task.completed', 'budget.alert'] });
    // Shown once: the page read again does not hold it.
    const again = await (await appFetch('/console/webhook', { headers: { Cookie: s.cookie } })).text();
    expect(again).not.toContain(secret!);
    expect(again).toMatch(/value="task.completed" checked/);
    const rotated = await (await post(s, '/console/webhook/secret')).text();
    expect(rotated).toMatch(/shown this once: whsec_/);
    expect(rotated).not.toContain(secret!);
    const refused = await post(s, '/console/webhook', [['url', 'ftp://example.com/x'], ['event', 'task.completed']]);
    expect(await refused.text()).toContain('url: must be an');
    const forged = await appFetch('/console/webhook/remove', { method: 'POST', headers: { ...FORM, Cookie: s.cookie }, body: '_csrf=wrong' });
    expect(forged.status).toBe(403);
    const removed = await (await post(s, '/console/webhook/remove')).text();
    expect(removed).toContain('Removed.');
    expect((await admin('GET', '/admin/webhook')).status).toBe(404);
  });
});
