import { afterEach, describe, expect, it } from 'vitest';
import { call, mediaUrl, sandbox, waitFor } from '../../testing/proxy-test-client';
import { admin, create, finishTasks, priceModel, resetPrices, usage } from '../../testing/gateway-test-steps';
import { advanceSandbox, member, memberRows, MODEL, runTracking, staleRecord, upstream } from '../../testing/proxy-test-steps';

/** The proxy follows every task to its end (docs/budgets.md, "Tracking"), and polling collapses. */

afterEach(resetPrices);

const get = (m: Parameters<typeof call>[0], id: string) => call(m, 'GET', `/v1/video/generations/${id}`);

describe('tracking', () => {
  it('a task ends and is settled with no client polling: charged, with the tokens the service reports', async () => {
    await priceModel(0.1);
    const m = await member();
    const created = await create(m, 5);
    expect(created.status).toBe(200);
    expect(created.body.arkbridge).toEqual({ cost: 0.5, estimate: 0.5, currency: 'CNY', priced: true });
    expect((await usage(m)).reserved).toBe(0.5);
    await advanceSandbox(60);
    // Nobody asks for the task: the member's alarm (every second in tests) follows it to its end.
    const settled = await waitFor(() => usage(m), (u) => u.spent === 0.5);
    expect(settled).toMatchObject({ spent: 0.5, reserved: 0, running: 0 });
    const tasks = await admin('GET', `/admin/tasks?member=${m.id}`);
    expect(tasks.body.tasks).toEqual([expect.objectContaining({ id: created.body.id, member: m.id, model: MODEL, status: 'completed', cost: 0.5, endedAt: expect.any(String) })]);
    const report = await admin('GET', '/admin/usage');
    const row = report.body.rows.find((r: { member: string }) => r.member === m.id);
    // 720p (the model's default), 16:9, 5 s: 1248 x 704 x 120 / 1024 tokens.
    expect(row).toMatchObject({ tasks: 1, completed: 1, failed: 0, seconds: 5, cost: 0.5, tokens: 102_960 });
  });

  it('an ended task is answered from the record, however old the record', async () => {
    const m = await member();
    const created = await create(m);
    await finishTasks(m);
    await staleRecord(m, created.body.id);
    const { value: r, calls } = await upstream(() => get(m, created.body.id));
    expect(calls('v1-get')).toBe(0);
    expect(r.body).toMatchObject({ id: created.body.id, status: 'completed', metadata: { url: expect.any(String) }, arkbridge: { priced: false, cost: 0 } });
  });

  it('a failed task costs nothing and releases its reservation', async () => {
    await priceModel(1);
    const m = await member();
    const created = await call(m, 'POST', '/v1/video/generations', {
      model: MODEL,
      duration: 4,
      content: [{ type: 'text', text: 'x' }, { type: 'image_url', image_url: { url: `${mediaUrl}/status/404` }, role: 'reference_image' }],
    });
    expect(created.status).toBe(200);
    expect((await usage(m)).reserved).toBe(4);
    await finishTasks(m);
    expect(await usage(m)).toMatchObject({ spent: 0, reserved: 0, running: 0 });
    const tasks = await admin('GET', `/admin/tasks?member=${m.id}&status=failed`);
    expect(tasks.body.tasks).toEqual([expect.objectContaining({ id: created.body.id, status: 'failed', cost: 0 })]);
  });

  it('5xx, 429 and unknown answers mean query again later, backing off', async () => {
    const m = await member();
    const created = await create(m);
    await sandbox.fault({ target: 'v1-get', status: 503, count: 1 });
    const before = Date.now();
    await runTracking(m);
    const [row] = await memberRows<{ failures: number; next_check_at: number; tracking: string }>(m, 'SELECT failures, next_check_at, tracking FROM tasks WHERE id = ?', created.body.id);
    expect(row).toMatchObject({ failures: 1, tracking: 'tracking' });
    // Twice the interval (1 s in tests) after the failed query started.
    expect(row!.next_check_at).toBeGreaterThanOrEqual(before + 2000);
    await sandbox.fault({ target: 'v1-get', status: 200, taskStatus: 'unknown', count: 1 });
    await runTracking(m);
    const [unknown] = await memberRows<{ failures: number; status: string }>(m, 'SELECT failures, status FROM tasks WHERE id = ?', created.body.id);
    expect(unknown).toEqual({ failures: 2, status: 'unknown' });
    await finishTasks(m);
    const [done] = await memberRows<{ failures: number; tracking: string; settled: number }>(m, 'SELECT failures, tracking, settled FROM tasks WHERE id = ?', created.body.id);
    expect(done).toEqual({ failures: 0, tracking: 'ended', settled: 1 });
  });

  it('stops following a task older than the 7 days the service keeps it, and says so', async () => {
    await priceModel(0.2);
    const m = await member();
    const created = await create(m, 5);
    await memberRows(m, 'UPDATE tasks SET created_at = created_at - ? WHERE id = ?', 8 * 86_400_000, created.body.id);
    const { calls } = await upstream(() => runTracking(m));
    expect(calls('v1-get')).toBe(0);
    const r = await get(m, created.body.id);
    expect(r.body.arkbridge).toEqual({ cost: 1, estimate: 1, currency: 'CNY', priced: true, tracking: 'expired' });
    // Its outcome is unknown: charged as reserved rather than forgotten.
    expect(await usage(m)).toMatchObject({ spent: 1, reserved: 0, running: 0 });
    const tasks = await admin('GET', `/admin/tasks?member=${m.id}`);
    expect(tasks.body.tasks[0]).toMatchObject({ id: created.body.id, status: 'expired' });
  });

  it('a task created before tracking existed (no record) is still read from the service', async () => {
    const m = await member();
    const created = await create(m);
    await memberRows(m, 'DELETE FROM tasks WHERE id = ?', created.body.id);
    const { value: r, calls } = await upstream(() => get(m, created.body.id));
    expect(calls('v1-get')).toBe(1);
    expect(r.status).toBe(200);
    expect(r.body.id).toBe(created.body.id);
    expect(r.body.arkbridge).toBeUndefined();
  });
});

describe('polling collapses', () => {
  it('20 concurrent readers of one task make one upstream query; the record answers within the interval', async () => {
    const m = await member();
    const created = await create(m);
    await advanceSandbox(2); // in progress
    await staleRecord(m, created.body.id);
    const { value: answers, calls } = await upstream(() => Promise.all(Array.from({ length: 20 }, () => get(m, created.body.id))));
    expect(calls('v1-get')).toBe(1);
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    expect(answers[0]!.body.status).toBe('in_progress');
    // Again at once: at most one more query, and only if the interval has already passed.
    const again = await upstream(() => Promise.all(Array.from({ length: 20 }, () => get(m, created.body.id))));
    expect(again.calls('v1-get')).toBeLessThanOrEqual(1);
  });

  it('a task answer is the service’s bytes with one arkbridge member appended', async () => {
    const m = await member();
    const created = await create(m);
    await staleRecord(m, created.body.id);
    const r = await get(m, created.body.id);
    const { arkbridge, ...service } = r.body;
    expect(arkbridge).toMatchObject({ currency: 'CNY', priced: false });
    expect(service).toMatchObject({ id: created.body.id, object: 'video', model: MODEL });
  });
});
