import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import app from '../../index';
import type { ProxyEnv } from '../../infra/settings/proxy-env';
import { adminHeaders, call, proxyEnv, recordSeen, type Member } from '../../testing/proxy-test-client';
import { member } from '../../testing/proxy-test-steps';
import { admin } from '../../testing/gateway-test-steps';
import { inbox } from '../../testing/webhook-test-steps';

/**
 * Where a webhook may point (docs/webhooks.md): the member's (`PUT /proxy/webhook`) and the team's
 * (`PUT /admin/webhook`) refuse a host the proxy does not post to with 400 `webhook_url_not_allowed`
 * naming `url`, and the proxy's own origin always; loopback receivers only with ALLOW_HTTP_MEDIA=on.
 */

const REFUSED = [
  'http://0.0.0.0/hook',
  'https://169.254.169.254/latest/meta-data',
  'https://10.0.0.1/hook',
  'https://[fd00::1]/hook',
  'https://metadata.google.internal/computeMetadata/v1/',
  'https://printer.local/hook',
  'https://100.64.0.1/hook',
  'https://[::ffff:a9fe:a9fe]/latest/meta-data',
];

/** Loopback spellings: refused unless ALLOW_HTTP_MEDIA=on (the tests' setting). */
const LOOPBACK = ['https://127.0.0.1:9443/hook', 'https://[::1]:9443/hook', 'https://[::ffff:7f00:1]/hook', 'https://2130706433/hook', 'https://localhost./hook'];

/** PUT of a webhook as `who` (a member, or the admin for the team's) on `origin` with `env`. */
async function put(who: Member | 'admin', url: string, o: { origin?: string; env?: Partial<ProxyEnv> } = {}) {
  const path = who === 'admin' ? '/admin/webhook' : '/proxy/webhook';
  const origin = o.origin ?? 'https://proxy.test';
  const auth = who === 'admin' ? adminHeaders() : { Authorization: `Bearer ${who.token}` };
  const ctx = createExecutionContext();
  const r = await app.fetch(
    new Request(`${origin}${path}`, { method: 'PUT', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ url, events: ['task.completed'] }) }),
    { ...proxyEnv, ...o.env },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  const text = await r.text();
  recordSeen(text);
  return { status: r.status, body: JSON.parse(text) };
}

const current = async (who: Member | 'admin') => (who === 'admin' ? admin('GET', '/admin/webhook') : call(who, 'GET', '/proxy/webhook'));

describe.each(['member', 'team'] as const)('the %s webhook', (whose) => {
  const owner = async (): Promise<Member | 'admin'> => {
    if (whose === 'member') return member('hook-url');
    await admin('DELETE', '/admin/webhook');
    return 'admin';
  };

  it.each(REFUSED)('refuses %s with 400 webhook_url_not_allowed naming url, and sets nothing', async (url) => {
    const who = await owner();
    const r = await put(who, url);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'webhook_url_not_allowed', param: 'url' });
    expect(r.body.error.message).toMatch(/^url: must not be .*: the proxy posts only to public hosts\.$/);
    expect((await current(who)).status).toBe(404);
  });

  it('refuses a loopback receiver while ALLOW_HTTP_MEDIA is off, takes it while on', async () => {
    const who = await owner();
    for (const url of LOOPBACK) {
      const off = await put(who, url, { env: { ALLOW_HTTP_MEDIA: 'off' } });
      expect(off.status, url).toBe(400);
      expect(off.body.error, url).toMatchObject({ code: 'webhook_url_not_allowed', param: 'url', message: expect.stringMatching(/^url: must not be a loopback host \(.+\): the proxy posts only to public hosts\.$/) });
    }
    expect((await current(who)).status).toBe(404);
    const box = inbox();
    expect((await put(who, box.url)).status).toBe(200);
  });

  it('refuses the proxy\'s own origin in any loopback spelling, even with ALLOW_HTTP_MEDIA=on; another port of the machine is fine', async () => {
    const who = await owner();
    const origin = 'http://127.0.0.1:8787';
    for (const url of ['http://127.0.0.1:8787/admin/members', 'http://localhost:8787/proxy/me', 'http://[::1]:8787/x', 'http://0x7f.1:8787/x']) {
      const r = await put(who, url, { origin });
      expect(r.status, url).toBe(400);
      expect(r.body.error, url).toMatchObject({ code: 'webhook_url_not_allowed', param: 'url', message: 'url: must not be the proxy itself (its own origin).' });
    }
    expect((await current(who)).status).toBe(404);
    expect((await put(who, 'http://127.0.0.1:8788/hooks', { origin })).status).toBe(200);
  });

  it('takes a public https host', async () => {
    const who = await owner();
    const r = await put(who, 'https://hooks.example.com/arkbridge');
    expect(r.status).toBe(200);
    expect(r.body.url).toBe('https://hooks.example.com/arkbridge');
    if (who === 'admin') await admin('DELETE', '/admin/webhook');
  });
});
