import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import app from '../index';
import type { ProxyEnv } from '../infra/settings/proxy-env';
import { proxyEnv, recordSeen } from '../testing/proxy-test-client';

/** `GET /healthz` names a refused ALERT_WEBHOOK_URL (docs/webhooks.md, docs/operating.md), never its value. */

async function health(env: Partial<ProxyEnv>, origin = 'https://proxy.test') {
  const ctx = createExecutionContext();
  const r = await app.fetch(new Request(`${origin}/healthz`), { ...proxyEnv, ...env }, ctx);
  await waitOnExecutionContext(ctx);
  const text = await r.text();
  recordSeen(text);
  return { status: r.status, text, body: JSON.parse(text) };
}

describe('GET /healthz and ALERT_WEBHOOK_URL', () => {
  it.each([
    ['https://10.0.0.1/alerts', {}],
    ['https://metadata.google.internal/alerts', {}],
    ['https://127.0.0.1:9000/alerts', { ALLOW_HTTP_MEDIA: 'off' }],
    ['http://hooks.example.com/alerts', { ALLOW_HTTP_MEDIA: 'off' }],
    ['https://proxy.test/admin/members', {}],
  ])('%s: refused, named without its value', async (url, env) => {
    const r = await health({ ALERT_WEBHOOK_URL: url, ...env });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'ok', refused: ['ALERT_WEBHOOK_URL'] });
    expect(r.text).not.toContain(new URL(url).hostname);
  });

  it('a refused one sits beside missing settings', async () => {
    const r = await health({ ALERT_WEBHOOK_URL: 'https://192.168.1.2/a', MEDIA_URL_SECRET: '' });
    expect(r.body).toEqual({ status: 'ok', config: 'incomplete', missing: ['MEDIA_URL_SECRET'], refused: ['ALERT_WEBHOOK_URL'] });
  });

  it.each([['https://hooks.example.com/alerts', {}], ['', {}], [proxyEnv.ALERT_WEBHOOK_URL!, {}]])('%s: nothing to say', async (url, env) => {
    expect((await health({ ALERT_WEBHOOK_URL: url, ...env })).body).toEqual({ status: 'ok' });
  });
});
