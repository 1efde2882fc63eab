import { afterEach, describe, expect, it } from 'vitest';
import { call, PAST_DEADLINE_MS, proxyEnv, sandbox, waitFor, type Member } from '../../testing/proxy-test-client';
import { admin, create, finishTasks, priceModel, resetPrices, setBudget, setTeamBudget, usage, webhookAlerts } from '../../testing/gateway-test-steps';
import { member, MODEL, upstream } from '../../testing/proxy-test-steps';

/** Budgets, reservations, alerts and reports (docs/budgets.md). */

/**
 * A create under its own Idempotency-Key, sent again with that key while the proxy says it is still
 * running, as a client is told to: its final answer. The member's wait is UPSTREAM_TIMEOUT_MS (1.5 s
 * in tests), which many creates queued at the ledger and the service reach on a loaded machine: the
 * create then goes on and is answered 504, then 409 until it has ended, then its outcome.
 */
const createToTheEnd = (m: Member, key: string) =>
  waitFor(
    () => create(m, 5, { 'Idempotency-Key': key }),
    (r) => r.status !== 504 && !(r.status === 409 && r.body?.error?.code === 'idempotency_in_progress'),
  );

afterEach(async () => {
  await setTeamBudget({ limit: null, period: 'month' });
  await resetPrices();
});

describe('reservation is atomic', () => {
  it('50 concurrent creates against a budget for exactly 7 create 7 upstream tasks and answer 402 to the rest', async () => {
    await priceModel(1); // 5 s: 5 CNY a task
    const m = await member();
    await setBudget(m, { limit: 35 });
    // Counted once every create has its final answer (a create answered 504 may reach the service later).
    const { value: answers, calls } = await upstream(() => Promise.all(Array.from({ length: 50 }, (_, i) => createToTheEnd(m, `burst-${i}`))));
    // Any answer other than 200 or 402 is printed, so that a failure says what happened instead.
    const others = answers.filter((a) => a.status !== 200 && a.status !== 402).map((a) => ({ status: a.status, error: a.body?.error }));
    expect(others, JSON.stringify(others.slice(0, 3))).toEqual([]);
    expect(calls('v1-create', 'POST')).toBe(7);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(7);
    const refused = answers.filter((a) => a.status === 402);
    expect(refused).toHaveLength(43);
    expect(refused[0]!.body.error).toMatchObject({ code: 'budget_exceeded', type: 'insufficient_quota', scope: 'member', remaining: 0, cost: 5, currency: 'CNY' });
    expect(refused[0]!.body.error.message).toBe(
      "This video would cost 5.00 CNY and your budget has 0.00 CNY left this month (limit 35.00 CNY); nothing was created. Ask the team's admin to raise the limit, or wait for next month.",
    );
    expect(await usage(m)).toMatchObject({ limit: 35, spent: 0, reserved: 35, remaining: 0, running: 7 });
    await finishTasks(m);
    expect(await usage(m)).toMatchObject({ spent: 35, reserved: 0, remaining: 0, running: 0 });
  });

  it("the team's budget holds across members", async () => {
    await priceModel(1);
    // Other tests spent from the team's month too: 4 tasks of 5 s more than that.
    const team = (await admin('GET', '/admin/budget')).body;
    await setTeamBudget({ limit: team.spent + team.reserved + 20 });
    const [a, b, c] = [await member('a'), await member('b'), await member('c')];
    const { value: answers, calls } = await upstream(() => Promise.all([a, b, c].flatMap((m) => Array.from({ length: 4 }, (_, i) => createToTheEnd(m, `team-${i}`)))));
    // Any answer other than 200 or 402 is printed, so that a failure says what happened instead.
    const others = answers.filter((r) => r.status !== 200 && r.status !== 402).map((r) => ({ status: r.status, error: r.body?.error }));
    expect(others, JSON.stringify(others.slice(0, 3))).toEqual([]);
    expect(calls('v1-create', 'POST'), `team before: ${JSON.stringify(team)}; after: ${JSON.stringify((await admin('GET', '/admin/budget')).body)}`).toBe(4);
    expect(answers.filter((r) => r.status === 200)).toHaveLength(4);
    const refused = answers.filter((r) => r.status === 402);
    expect(refused).toHaveLength(8);
    for (const r of refused) expect(r.body.error).toMatchObject({ code: 'budget_exceeded', scope: 'team', remaining: 0, cost: 5 });
    expect((await usage(a)).team).toMatchObject({ limit: team.spent + team.reserved + 20, remaining: 0, period: 'month' });
  });

  it('maxRunning: one more create is 429 too_many_running_tasks, with nothing sent upstream; allowed again once a task ended', async () => {
    const m = await member();
    await setBudget(m, { maxRunning: 2 });
    expect((await create(m)).status).toBe(200);
    expect((await create(m)).status).toBe(200);
    const { value: third, calls } = await upstream(() => create(m));
    expect(calls()).toBe(0);
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBeNull();
    expect(third.body.error).toMatchObject({ code: 'too_many_running_tasks', type: 'rate_limit_error', running: 2, maxRunning: 2 });
    await finishTasks(m);
    expect((await create(m)).status).toBe(200);
  });

  it('idempotent retries reserve once, sequential or concurrent', async () => {
    await priceModel(1);
    const m = await member();
    const first = await create(m, 5, { 'Idempotency-Key': 'k-1' });
    const replay = await create(m, 5, { 'Idempotency-Key': 'k-1' });
    expect(replay.body.id).toBe(first.body.id);
    await sandbox.fault({ target: 'v1-create', status: 200, delayMs: 600, count: 1 });
    const concurrent = await Promise.all(Array.from({ length: 10 }, () => create(m, 5, { 'Idempotency-Key': 'k-2' })));
    expect(concurrent.filter((r) => r.status === 200)).toHaveLength(1);
    expect(concurrent.filter((r) => r.status === 409)).toHaveLength(9);
    expect(await usage(m)).toMatchObject({ reserved: 10, running: 2 });
  });

  it('a create the service refuses, or that fails without a task, releases its reservation', async () => {
    await priceModel(1);
    const m = await member();
    await setBudget(m, { limit: 5 });
    await sandbox.fault({ target: 'v1-create', status: 500, count: 1 });
    expect((await create(m)).status).toBe(500);
    await sandbox.fault({ target: 'v1-create', status: 429, count: 1, retryAfter: 3 });
    expect((await create(m)).status).toBe(429);
    expect(await usage(m)).toMatchObject({ reserved: 0, remaining: 5 });
    // The client's wait ends first (504); the service then fails the create: released all the same.
    await sandbox.fault({ target: 'v1-create', status: 500, delayMs: PAST_DEADLINE_MS, count: 1 });
    expect((await create(m)).status).toBe(504);
    expect((await usage(m)).reserved).toBe(5);
    await waitFor(() => usage(m), (u) => u.reserved === 0);
    expect((await create(m)).status).toBe(200);
  });

  it('a refusal is in the audit log with the member as actor', async () => {
    await priceModel(1);
    const m = await member();
    await setBudget(m, { limit: 1 });
    expect((await create(m, 5)).status).toBe(402);
    const audit = await admin('GET', '/admin/audit?limit=5');
    expect(audit.body.entries).toContainEqual(
      expect.objectContaining({ actor: m.id, action: 'create.refused', target: `member:${m.id}`, detail: expect.objectContaining({ reason: 'budget_exceeded', cost: 5, remaining: 1 }) }),
    );
  });
});

describe('alerts', () => {
  it('at 80, 95 and 100 % once per period each: in /proxy/usage, the audit log and the webhook', async () => {
    await priceModel(0.5);
    const m = await member('Alice');
    await setBudget(m, { limit: 10 });
    expect((await create(m, 15)).status).toBe(200); // 7.5: 75 %
    await finishTasks(m);
    expect((await usage(m)).alerts).toEqual([]);
    expect((await create(m, 4)).status).toBe(200); // 9.5: 95 %, past 80 on the way
    await finishTasks(m);
    expect((await usage(m)).alerts.map((a) => a.threshold)).toEqual([80, 95]);
    // A lowered limit is crossed at once: 100 %.
    await setBudget(m, { limit: 9.5 });
    const alerts = (await usage(m)).alerts;
    expect(alerts.map((a) => a.threshold)).toEqual([80, 95, 100]);
    expect(alerts[2]).toMatchObject({ scope: 'member', member: m.id, limit: 9.5, spent: 9.5, periodKey: new Date().toISOString().slice(0, 7) });
    // Once each: setting the same limit again raises nothing new.
    await setBudget(m, { limit: 9.5 });
    expect((await usage(m)).alerts).toHaveLength(3);
    const hooks = await waitFor(() => webhookAlerts(m.id), (list) => list.length >= 3);
    expect(hooks.map((h) => h.threshold)).toEqual([80, 95, 100]);
    expect(hooks[0]).toMatchObject({ member: m.id, limit: 10, spent: 9.5, threshold: 80, currency: 'CNY' });
    expect(hooks[0].text).toBe(`Arkbridge: Alice (${m.id})'s budget has reached 80 % in ${new Date().toISOString().slice(0, 7)}: 9.50 CNY spent of 10.00 CNY.`);
    const audit = await admin('GET', '/admin/audit?limit=20');
    expect(audit.body.entries.filter((e: { action: string; target: string }) => e.action === 'budget.alert' && e.target === `member:${m.id}`)).toHaveLength(3);
  });
});

describe('reports and the audit log', () => {
  it('the CSV report holds the same rows as the JSON, and its sums equal them', async () => {
    await priceModel(0.3);
    const [a, b] = [await member(), await member()];
    for (const m of [a, b]) expect((await create(m, 5)).status).toBe(200);
    expect((await create(a, 7)).status).toBe(200);
    await finishTasks(a);
    await finishTasks(b);
    const json = await admin('GET', '/admin/usage');
    const csv = await admin<string>('GET', '/admin/usage?format=csv');
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const [header, ...lines] = csv.body.trimEnd().split('\r\n');
    expect(header).toBe('day,member,model,tasks,completed,failed,seconds,cost,tokens');
    const parsed = lines.map((line) => {
      const [day, memberId, model, ...numbers] = line.split(',');
      const [tasks, completed, failed, seconds, cost, tokens] = numbers.map(Number);
      return { day, member: memberId, model, tasks, completed, failed, seconds, cost, tokens };
    });
    expect(parsed).toEqual(json.body.rows);
    const sum = (rows: { cost?: number }[]) => rows.reduce((s, r) => s + Math.round(r.cost! * 1e6), 0);
    expect(sum(parsed)).toBe(sum(json.body.rows));
    const mine = json.body.rows.filter((r: { member: string }) => r.member === a.id);
    expect(mine).toEqual([expect.objectContaining({ model: MODEL, tasks: 2, completed: 2, seconds: 12, cost: 3.6 })]);
  });

  it('every admin change is in the audit log with its actor, and no secret is', async () => {
    const m = await member('Bob');
    await setBudget(m, { limit: 12, maxRunning: 3 });
    await priceModel(0.25);
    await admin('POST', `/admin/members/${m.id}/token`);
    const { body } = await admin('GET', '/admin/audit?limit=10');
    const actions = body.entries.map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['member.add', 'budget.set', 'prices.set', 'member.rotate']));
    expect(body.entries.find((e: { action: string }) => e.action === 'budget.set')).toMatchObject({ actor: 'admin', target: `member:${m.id}`, detail: { limit: 12, period: 'month', maxRunning: 3 } });
    const text = JSON.stringify(body);
    for (const secret of [proxyEnv.ADMIN_TOKEN, proxyEnv.VIDEO_API_KEY, proxyEnv.SECRET_ACCESS_KEY, m.token, proxyEnv.ALERT_WEBHOOK_URL!]) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/abk_m[0-9a-f]{16}_/);
  });
});

describe('admin input', () => {
  it.each([
    ['/admin/members/ID/budget', { limit: -1 }, 'limit'],
    ['/admin/members/ID/budget', { period: 'week' }, 'period'],
    ['/admin/members/ID/budget', { maxRunning: 1.5 }, 'maxRunning'],
    ['/admin/members/ID/budget', { limit: 1, owner: 'x' }, 'owner'],
    ['/admin/budget', { limit: '10' }, 'limit'],
    ['/admin/budget', { maxRunning: 2 }, 'maxRunning'],
    ['/admin/prices', { currency: 'CNY', models: { m: { '720p': 'cheap' } } }, 'models.m.720p'],
    ['/admin/prices', { models: {} }, 'currency'],
  ])('PUT %s %j is 400 naming %s', async (path, body, field) => {
    const m = await member();
    const r = await admin('PUT', path.replace('ID', m.id), body);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_parameter', param: field, message: expect.stringContaining(field) });
  });

  it.each([
    ['/admin/usage?from=2026-13-01', 'from'],
    ['/admin/usage?from=2026-11-05&to=2026-11-01', 'from'],
    ['/admin/usage?from=2024-01-01&to=2026-01-01', 'from'],
    ['/admin/usage?format=xml', 'format'],
    ['/admin/tasks?status=done', 'status'],
    ['/admin/tasks?limit=0', 'limit'],
    ['/admin/audit?limit=abc', 'limit'],
    ['/admin/audit?since=1', 'since'],
  ])('GET %s is 400 naming %s', async (path, field) => {
    const r = await admin('GET', path);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_parameter', param: field });
  });

  it('GET /admin/budgets: every member\'s budget, as GET of each, and the time of their latest task, in the members\' order', async () => {
    await priceModel(1);
    const idle = await member('no tasks yet');
    const busy = await member('one task');
    await setBudget(busy, { limit: 50, maxRunning: 3 });
    expect((await create(busy, 5)).status).toBe(200);
    const listed = (await admin('GET', '/admin/members')).body.members.map((m: { id: string }) => m.id);
    const { status, body } = await admin('GET', '/admin/budgets');
    expect(status).toBe(200);
    expect(body.budgets.map((b: { member: string }) => b.member)).toEqual(listed);
    const of = (id: string) => body.budgets.find((b: { member: string }) => b.member === id);
    const { lastTaskAt, ...busyBudget } = of(busy.id);
    expect(busyBudget).toEqual((await admin('GET', `/admin/members/${busy.id}/budget`)).body);
    expect(busyBudget).toMatchObject({ limit: 50, reserved: 5, running: 1, maxRunning: 3 });
    const [latest] = (await admin('GET', `/admin/tasks?member=${busy.id}&limit=1`)).body.tasks;
    expect(lastTaskAt).toBe(latest.createdAt);
    expect(of(idle.id)).toMatchObject({ member: idle.id, limit: null, running: 0, lastTaskAt: null });
    await finishTasks(busy);
  });

  it('a budget for a member that does not exist is 404', async () => {
    const r = await admin('PUT', '/admin/members/m0000000000000000/budget', { limit: 1 });
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('member_not_found');
  });

  it('prices: the default table is per million tokens, dated and sourced; PUT replaces it, DELETE restores it', async () => {
    const initial = await admin('GET', '/admin/prices');
    expect(initial.body).toMatchObject({ isDefault: true, updatedAt: null, currency: 'CNY', unit: 'million_tokens', note: expect.stringContaining('as of') });
    await priceModel(2);
    expect((await admin('GET', '/admin/prices')).body).toMatchObject({ isDefault: false, unit: 'second', models: { [MODEL]: { '*': 2 } } });
    await resetPrices();
    expect((await admin('GET', '/admin/prices')).body.isDefault).toBe(true);
  });

  it('prices round-trip: what GET answers, edited, is what PUT takes, and GET then answers the edit', async () => {
    const got = (await admin('GET', '/admin/prices')).body;
    const edited = { ...got, models: { ...got.models, [MODEL]: { '*': 20, silent: 10, 'silent+flex': 5 } } };
    const put = await admin('PUT', '/admin/prices', edited);
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const { isDefault, updatedAt, ...table } = (await admin('GET', '/admin/prices')).body;
    const { isDefault: _d, updatedAt: _u, ...expected } = edited;
    expect(table).toEqual(expected);
    expect([isDefault, typeof updatedAt]).toEqual([false, 'string']);
    // And once more, unedited: the same table.
    expect((await admin('PUT', '/admin/prices', (await admin('GET', '/admin/prices')).body)).status).toBe(200);
    const { isDefault: _d2, updatedAt: _u2, ...again } = (await admin('GET', '/admin/prices')).body;
    expect(again).toEqual(expected);
  });

  it('an unpriced model runs unpriced for a member with no budget, and is refused 402 price_unknown under one', async () => {
    const free = await member();
    const r = await create(free);
    expect(r.status).toBe(200);
    expect(r.body.arkbridge).toEqual({ cost: 0, estimate: 0, currency: 'CNY', priced: false });
    const held = await member();
    await setBudget(held, { limit: 0 });
    const refused = await create(held);
    expect(refused.status).toBe(402);
    expect(refused.body.error.code).toBe('price_unknown');
  });
});
