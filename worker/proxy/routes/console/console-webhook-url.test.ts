import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import app from '../../index';
import type { ProxyEnv } from '../../infra/settings/proxy-env';
import { ORIGIN, proxyEnv, recordSeen } from '../../testing/proxy-test-client';
import { admin } from '../../testing/gateway-test-steps';

/**
 * The console's webhook page under the outbound rule (docs/webhooks.md): the form shows the API's
 * refusal of a host the proxy does not post to, and the page says when ALERT_WEBHOOK_URL is refused.
 */

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded', Origin: ORIGIN };
let ip = 60;

async function fetchWith(env: Partial<ProxyEnv>, path: string, init: RequestInit = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const r = await app.fetch(new Request(new URL(path, ORIGIN), { redirect: 'manual', ...init }), { ...proxyEnv, ...env }, ctx);
  await waitOnExecutionContext(ctx);
  recordSeen(await r.clone().text());
  return r;
}

async function session(env: Partial<ProxyEnv> = {}) {
  const r = await fetchWith(env, '/console/signin', { method: 'POST', headers: { ...FORM, 'CF-Connecting-IP': `192.0.2.${++ip % 250}` }, body: new URLSearchParams({ token: proxyEnv.ADMIN_TOKEN }).toString() });
  expect(r.status).toBe(303);
  const cookie = `arkbridge_console=${/arkbridge_console=([^;]+)/.exec(r.headers.get('set-cookie') ?? '')![1]!}`;
  const page = await (await fetchWith(env, '/console/webhook', { headers: { Cookie: cookie } })).text();
  return { cookie, csrf: /name="_csrf" value="([^"]+)"/.exec(page)![1]!, page };
}

describe('the webhook page and the outbound rule', () => {
  it('shows the refusal of a private, metadata or local host, and sets nothing', async () => {
    await admin('DELETE', '/admin/webhook');
    const s = await session();
    for (const [url, why] of [['https://169.254.169.254/latest', 'a link-local address'], ['https://10.1.2.3/hook', 'a private address'], ['https://ci.internal/hook', 'a host under .internal']] as const) {
      const page = await (await fetchWith({}, '/console/webhook', { method: 'POST', headers: { ...FORM, Cookie: s.cookie }, body: new URLSearchParams([['_csrf', s.csrf], ['url', url], ['event', 'task.completed']]).toString() })).text();
      expect(page, url).toContain(`url: must not be ${why}`);
      expect(page, url).toContain('role="alert"');
    }
    expect((await admin('GET', '/admin/webhook')).status).toBe(404);
  });

  it('says when ALERT_WEBHOOK_URL is refused, naming the reason, and nothing when it is fine', async () => {
    const refused = await session({ ALERT_WEBHOOK_URL: 'https://10.0.0.1/alerts' });
    expect(refused.page).toContain('Budget alerts are not sent to ALERT_WEBHOOK_URL: it must not be a private address (10.0.0.1)');
    expect(refused.page).not.toContain('https://10.0.0.1/alerts');
    const fine = await session();
    expect(fine.page).not.toContain('not sent to ALERT_WEBHOOK_URL');
  });
});
