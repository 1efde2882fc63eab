import { createExecutionContext } from 'cloudflare:test';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import app from '../../index';
import { call, proxyEnv, recordSeen, type Member } from '../../testing/proxy-test-client';
import { member, runTracking } from '../../testing/proxy-test-steps';
import { create, finishTasks } from '../../testing/gateway-test-steps';
import { inbox, outboxRows, runMemberWebhooks, type Inbox, type Received } from '../../testing/webhook-test-steps';
import { RETRY_WINDOW_MS } from './webhook-outbox';

/**
 * A member's webhook (docs/webhooks.md): set, shown, rotated, removed; task events delivered by the
 * member's object with Standard Webhooks signatures (checked with the independent `standardwebhooks`
 * package, in workerd: it is plain JavaScript), retried with the same id, given up after 24 hours;
 * and nothing of one member's reaches another. The receiver is a real HTTP server (webhook-receiver.ts).
 */

afterEach(() => {
  vi.useRealTimers();
});

const setHook = (m: Member, body: unknown) => call(m, 'PUT', '/proxy/webhook', body);

/** Verifies a delivery with `secret` as a receiver would; answers the event. */
const verify = (secret: string, d: Received) => new Webhook(secret).verify(d.body, d.headers) as { type: string; timestamp: string; data: any };

/** A member with a webhook on a fresh inbox for `events`; answers its secret. */
async function hooked(events = ['task.completed', 'task.failed']): Promise<{ m: Member; box: Inbox; secret: string }> {
  const m = await member('hooked');
  const box = inbox();
  const r = await setHook(m, { url: box.url, events });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return { m, box, secret: r.body.secret };
}

/** A task of `m` brought to `completed`: the member's alarm settles it, writes its event and makes the first attempt. */
async function completedTask(m: Member): Promise<string> {
  const created = await create(m, 5);
  expect(created.status).toBe(200);
  await finishTasks(m);
  return created.body.id;
}

describe('setting a webhook', () => {
  it('shows a whsec_ secret of 24 random bytes on the first set only; GET shows url and events; DELETE removes it', async () => {
    const m = await member();
    const box = inbox();
    const first = await setHook(m, { url: box.url, events: ['task.completed', 'budget.alert'] });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ url: box.url, events: ['task.completed', 'budget.alert'], format: 'standard' });
    expect(first.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(atob(first.body.secret.slice(6))).toHaveLength(24);
    const shown = await call(m, 'GET', '/proxy/webhook');
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ url: box.url, events: ['task.completed', 'budget.alert'] });
    expect(shown.body.secret).toBeUndefined();
    const again = await setHook(m, { url: box.url, events: ['task.failed'] });
    expect(again.status).toBe(200);
    expect(again.body.events).toEqual(['task.failed']);
    expect(again.body.secret, 'a later set keeps the secret and does not show it').toBeUndefined();
    expect((await call(m, 'DELETE', '/proxy/webhook')).status).toBe(204);
    expect((await call(m, 'GET', '/proxy/webhook')).body.error.code).toBe('webhook_not_found');
    expect((await call(m, 'POST', '/proxy/webhook/secret')).status).toBe(404);
  });

  it.each([
    [{ url: 'ftp://example.com/hook', events: ['task.completed'] }, 'url'],
    [{ url: `https://example.com/${'a'.repeat(2100)}`, events: ['task.completed'] }, 'url'],
    [{ url: 'https://user:pw@example.com/hook', events: ['task.completed'] }, 'url'],
    [{ url: 'https://example.com/hook', events: ['task.completed', 'task.exploded'] }, 'events[1]'],
    [{ url: 'https://example.com/hook', events: [] }, 'events'],
    [{ url: 'https://example.com/hook', events: ['task.failed', 'task.failed'] }, 'events'],
    [{ url: 'https://example.com/hook' }, 'events'],
    [{ url: 'https://example.com/hook', events: ['task.failed'], format: 'telegram' }, 'format'],
    [{ url: 'https://example.com/hook', events: ['task.failed'], secret: 'whsec_mine' }, 'secret'],
    ['not json', 'body'],
  ])('refuses %j with 400 naming %s, and sets nothing', async (body, field) => {
    const m = await member();
    const r = await setHook(m, body);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_parameter', param: field });
    expect(r.body.error.message).toMatch(new RegExp(`^${field.replace(/[[\]]/g, '\\$&')}: `));
    expect((await call(m, 'GET', '/proxy/webhook')).status).toBe(404);
  });

  it('takes http:// only while ALLOW_HTTP_MEDIA is on', async () => {
    const m = await member();
    const r = await app.fetch(
      new Request('https://proxy.test/proxy/webhook', { method: 'PUT', headers: { Authorization: `Bearer ${m.token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ url: 'http://example.com/hook', events: ['task.failed'] }) }),
      { ...proxyEnv, ALLOW_HTTP_MEDIA: 'off' },
      createExecutionContext(),
    );
    const text = await r.text();
    recordSeen(text);
    expect(r.status).toBe(400);
    expect(JSON.parse(text).error).toMatchObject({ param: 'url', message: 'url: must be an https:// URL.' });
    expect((await setHook(m, { url: 'http://example.com/hook', events: ['task.failed'] })).status).toBe(200);
  });

  it('needs the member token', async () => {
    expect((await call(null, 'GET', '/proxy/webhook')).status).toBe(401);
    expect((await call(null, 'PUT', '/proxy/webhook', { url: 'https://example.com/h', events: ['task.failed'] })).status).toBe(401);
  });
});

describe('task events', () => {
  it('task.completed is delivered once, signed, its data the task as the proxy answers it', async () => {
    const { m, box, secret } = await hooked();
    const id = await completedTask(m);
    // More alarm runs and readers change nothing: the event was raised once.
    await Promise.all([runTracking(m), call(m, 'GET', `/v1/video/generations/${id}`), runMemberWebhooks(m.id)]);
    await runMemberWebhooks(m.id);
    const received = await box.received();
    expect(received).toHaveLength(1);
    const event = verify(secret, received[0]!);
    expect(event.type).toBe('task.completed');
    expect(received[0]!.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(received[0]!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    const answered = (await call(m, 'GET', `/v1/video/generations/${id}`)).body;
    // The same task, as answered then (the kept copy of its video was still on its way).
    const { arkbridge: a, ...task } = answered;
    const { arkbridge: b, ...delivered } = event.data;
    expect(delivered).toEqual(task);
    expect({ cost: b.cost, estimate: b.estimate, currency: b.currency, priced: b.priced }).toEqual({ cost: a.cost, estimate: a.estimate, currency: a.currency, priced: a.priced });
    expect((await outboxRows(m.id)).filter((r) => r.source === `task:${id}`)).toHaveLength(2); // own, and handed to the team
  });

  it('an event the webhook does not take is not sent', async () => {
    const { m, box } = await hooked(['task.failed']);
    await completedTask(m);
    expect(await box.received()).toEqual([]);
    expect((await outboxRows(m.id)).filter((r) => r.destination === 'own')).toEqual([]);
  });

  it('a failing receiver gets the same webhook-id again with a later timestamp, validly signed; the log shows each attempt', async () => {
    const { m, box, secret } = await hooked();
    await box.answer(500, 503);
    await completedTask(m);
    let log = (await call(m, 'GET', '/proxy/webhook/deliveries')).body.deliveries;
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ type: 'task.completed', attempt: 1, status: 'retrying', code: 500 });
    expect(Date.parse(log[0].nextRetryAt)).toBeGreaterThan(Date.parse(log[0].at));
    // Later attempts, each a minute on (the proxy's clock faked; the receiver checks timestamps within 5 minutes).
    const start = Date.now();
    for (const minutes of [1, 2]) {
      vi.setSystemTime(start + minutes * 60_000);
      await runMemberWebhooks(m.id);
    }
    const received = await box.received();
    expect(received.map((d) => d.status)).toEqual([500, 503, 204]);
    expect(new Set(received.map((d) => d.headers['webhook-id'])).size).toBe(1);
    const stamps = received.map((d) => Number(d.headers['webhook-timestamp']));
    expect(stamps[1]).toBeGreaterThan(stamps[0]!);
    expect(stamps[2]).toBeGreaterThan(stamps[1]!);
    for (const d of received) expect(verify(secret, d).type).toBe('task.completed');
    // The body is the one event, unchanged between attempts.
    expect(new Set(received.map((d) => d.body)).size).toBe(1);
    log = (await call(m, 'GET', '/proxy/webhook/deliveries')).body.deliveries;
    expect(log.map((a: any) => [a.attempt, a.status, a.code])).toEqual([[3, 'delivered', 204], [2, 'retrying', 503], [1, 'retrying', 500]]);
    expect(log[0].nextRetryAt).toBeNull();
  });

  it('gives up after 24 hours of failures, recorded in the log, and tries no more', async () => {
    const { m, box } = await hooked();
    await box.answer(500, 500, 500, 500);
    await completedTask(m);
    vi.setSystemTime(Date.now() + RETRY_WINDOW_MS - 60_000);
    await runMemberWebhooks(m.id);
    expect((await call(m, 'GET', '/proxy/webhook/deliveries')).body.deliveries[0]).toMatchObject({ attempt: 2, status: 'retrying' });
    vi.setSystemTime(Date.now() + 120_000);
    await runMemberWebhooks(m.id);
    const log = (await call(m, 'GET', '/proxy/webhook/deliveries')).body.deliveries;
    expect(log[0]).toMatchObject({ attempt: 3, status: 'failed', code: 500, nextRetryAt: null });
    const own = (await outboxRows(m.id)).filter((r) => r.destination === 'own');
    expect(own).toMatchObject([{ state: 'failed', next_at: null, attempts: 3 }]);
    await runMemberWebhooks(m.id);
    expect(await box.received()).toHaveLength(3);
  });

  it('a rotated secret signs what follows; the old one no longer verifies', async () => {
    const { m, box, secret } = await hooked();
    const rotated = await call(m, 'POST', '/proxy/webhook/secret');
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(secret);
    await completedTask(m);
    const [delivery] = await box.received();
    expect(verify(rotated.body.secret, delivery!).type).toBe('task.completed');
    expect(() => verify(secret, delivery!)).toThrow('No matching signature found');
  });

  it('another member sees none of the deliveries and receives none of the events', async () => {
    const { m, box } = await hooked();
    const other = await hooked();
    await completedTask(m);
    await runMemberWebhooks(other.m.id);
    expect(await box.received()).toHaveLength(1);
    expect(await other.box.received()).toEqual([]);
    expect((await call(m, 'GET', '/proxy/webhook/deliveries')).body.deliveries).toHaveLength(1);
    expect((await call(other.m, 'GET', '/proxy/webhook/deliveries')).body).toEqual({ deliveries: [] });
  });

  it('a chat format gets the chat\'s JSON, signed all the same', async () => {
    const m = await member('Chatty');
    const box = inbox();
    const set = await setHook(m, { url: box.url, events: ['task.completed'], format: 'slack' });
    expect(set.body.format).toBe('slack');
    const id = await completedTask(m);
    const [delivery] = await box.received();
    const body = verify(set.body.secret, delivery!) as unknown as { text: string };
    expect(body).toEqual({ text: expect.stringContaining(`video task ${id}`) });
  });

  it('the secret never reaches a log line', async () => {
    const logs = vi.spyOn(console, 'log');
    const errors = vi.spyOn(console, 'error');
    const { m, secret } = await hooked();
    await completedTask(m);
    expect([...logs.mock.calls, ...errors.mock.calls].flat().join('\n')).not.toContain(secret.slice(6));
  });
});
