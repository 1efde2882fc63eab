import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { call, waitFor } from '../../testing/proxy-test-client';
import { member } from '../../testing/proxy-test-steps';
import { admin, create, finishTasks, priceModel, resetPrices, setBudget, webhookAlerts } from '../../testing/gateway-test-steps';
import { inbox, outboxRows, runMemberWebhooks, runTeamWebhooks } from '../../testing/webhook-test-steps';

/**
 * The team's webhook (`/admin/webhook`, kept and sent by the team ledger, docs/webhooks.md): every
 * member's events reach it, handed from their objects; budget alerts are raised into it by the ledger,
 * and an alert of a member's budget also into that member's own webhook; the chat alert webhook
 * (ALERT_WEBHOOK_URL) goes on as before.
 */

afterEach(async () => {
  await admin('DELETE', '/admin/webhook');
  await resetPrices();
});

describe('the team webhook', () => {
  it('is set, shown and rotated by the admin only, with its changes audited and never its secret', async () => {
    const box = inbox();
    const m = await member();
    expect((await call(m, 'PUT', '/admin/webhook', { url: box.url, events: ['task.completed'] })).status).toBe(401);
    const set = await admin('PUT', '/admin/webhook', { url: box.url, events: ['task.completed', 'budget.alert'] });
    expect(set.status).toBe(200);
    expect(set.body.secret).toMatch(/^whsec_/);
    const shown = await admin('GET', '/admin/webhook');
    expect(shown.body).toMatchObject({ url: box.url, events: ['task.completed', 'budget.alert'] });
    expect(shown.body.secret).toBeUndefined();
    const rotated = await admin('POST', '/admin/webhook/secret');
    expect(rotated.body.secret).not.toBe(set.body.secret);
    const bad = await admin('PUT', '/admin/webhook', { url: 'https://proxy.test/admin/members', events: ['task.completed'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('url');
    const audit = JSON.stringify((await admin('GET', '/admin/audit?limit=10')).body.entries);
    expect(audit).toContain('webhook.set');
    expect(audit).toContain('webhook.rotate');
    expect(audit).not.toContain(set.body.secret);
    expect(audit).not.toContain(rotated.body.secret);
    expect(audit).not.toContain(box.url);
  });

  it('receives every member\'s task events, handed from their objects; a member sees none of the team\'s deliveries', async () => {
    const box = inbox();
    const secret = (await admin('PUT', '/admin/webhook', { url: box.url, events: ['task.completed', 'task.failed'] })).body.secret;
    const [a, b] = [await member(), await member()];
    const tasks = [];
    for (const m of [a, b]) {
      const created = await create(m, 5);
      tasks.push(created.body.id);
      await finishTasks(m);
    }
    await runTeamWebhooks();
    const received = await box.received();
    const events = received.map((d) => new Webhook(secret).verify(d.body, d.headers) as any);
    expect(events.map((e) => e.data.id).sort()).toEqual([...tasks].sort());
    expect(events.every((e) => e.type === 'task.completed')).toBe(true);
    expect((await admin('GET', '/admin/webhook/deliveries')).body.deliveries.slice(0, 2).map((d: any) => d.status)).toEqual(['delivered', 'delivered']);
    expect((await call(a, 'GET', '/proxy/webhook/deliveries')).body).toEqual({ deliveries: [] });
  });

  it('budget.alert: to the team, to the member whose budget it is, to nobody else; ALERT_WEBHOOK_URL as before', async () => {
    const teamBox = inbox();
    const teamSecret = (await admin('PUT', '/admin/webhook', { url: teamBox.url, events: ['budget.alert'] })).body.secret;
    await priceModel(0.6);
    const [alice, bob] = [await member('Alice'), await member('Bob')];
    const [aliceBox, bobBox] = [inbox(), inbox()];
    const aliceSecret = (await call(alice, 'PUT', '/proxy/webhook', { url: aliceBox.url, events: ['budget.alert'] })).body.secret;
    expect((await call(bob, 'PUT', '/proxy/webhook', { url: bobBox.url, events: ['budget.alert'] })).status).toBe(200);
    await setBudget(alice, { limit: 10 });
    expect((await create(alice, 15)).status).toBe(200); // 9: 90 %, past 80
    await finishTasks(alice);
    await runTeamWebhooks();
    await runMemberWebhooks(alice.id);
    const [toTeam] = await teamBox.received();
    const teamEvent = new Webhook(teamSecret).verify(toTeam!.body, toTeam!.headers) as any;
    expect(teamEvent.type).toBe('budget.alert');
    expect(teamEvent.data).toMatchObject({ scope: 'member', member: alice.id, threshold: 80, limit: 10, spent: 9 });
    const [toAlice] = await aliceBox.received();
    expect((new Webhook(aliceSecret).verify(toAlice!.body, toAlice!.headers) as any).data).toEqual(teamEvent.data);
    // One event, one id, wherever it is delivered.
    expect(toAlice!.headers['webhook-id']).toBe(toTeam!.headers['webhook-id']);
    await runMemberWebhooks(bob.id);
    expect(await bobBox.received()).toEqual([]);
    expect((await outboxRows(null)).filter((r) => r.type === 'budget.alert' && r.destination === `member:${alice.id}`)).toHaveLength(1);
    // The chat alert webhook still gets its `text`.
    const chat = await waitFor(() => webhookAlerts(alice.id), (list) => list.length >= 1);
    expect(chat[0].text).toContain('has reached 80 %');
  });
});
