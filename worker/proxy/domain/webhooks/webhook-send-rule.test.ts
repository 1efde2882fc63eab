import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { memberObject } from '../../objects/handles';
import { call, proxyEnv } from '../../testing/proxy-test-client';
import { member } from '../../testing/proxy-test-steps';
import { create, finishTasks } from '../../testing/gateway-test-steps';
import { inbox, outboxRows, runMemberWebhooks } from '../../testing/webhook-test-steps';

/**
 * The outbound rule again at send time (docs/webhooks.md): a URL stored before the rule (written
 * here straight into the member's object) is not posted to; the attempt is logged as failed with
 * the reason, and never retried.
 */

describe('a stored webhook URL the rule refuses', () => {
  it.each(['https://169.254.169.254/latest/meta-data', 'https://10.0.0.1/hook', 'https://metadata.google.internal/x'])('%s: not sent, logged failed with the reason, not retried', async (stored) => {
    const m = await member('old-hook');
    const box = inbox();
    expect((await call(m, 'PUT', '/proxy/webhook', { url: box.url, events: ['task.completed'] })).status).toBe(200);
    // As a webhook set before the rule existed.
    await runInDurableObject(memberObject(proxyEnv, m.id), (_instance, state) => {
      state.storage.sql.exec('UPDATE webhook SET url = ?', stored);
    });
    const created = await create(m, 5);
    expect(created.status).toBe(200);
    await finishTasks(m);
    // More alarm runs: nothing is due again.
    await runMemberWebhooks(m.id);
    await runMemberWebhooks(m.id);
    const log = (await call(m, 'GET', '/proxy/webhook/deliveries')).body.deliveries;
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ type: 'task.completed', attempt: 1, status: 'failed', code: null, nextRetryAt: null });
    expect(log[0].error).toMatch(/^Not sent: the webhook's url must not be a (link-local address|private address|host under \.internal)/);
    expect(log[0].error).not.toContain(stored);
    const own = (await outboxRows(m.id)).filter((r) => r.destination === 'own');
    expect(own.map((r) => [r.state, r.attempts, r.next_at])).toEqual([['failed', 1, null]]);
    expect(await box.received()).toEqual([]);
  });
});
