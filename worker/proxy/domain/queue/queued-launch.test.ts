import { abortAllDurableObjects, runInDurableObject } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ledgerObject, memberObject } from '../../objects/handles';
import { call, proxyEnv, sandbox, type Member } from '../../testing/proxy-test-client';
import { admin, finishTasks, priceModel, resetPrices, setBudget, usage } from '../../testing/gateway-test-steps';
import { advanceSandbox, count, member, MODEL, runTracking, upstream } from '../../testing/proxy-test-steps';
import { freezeSandbox, holdQueueClock, PREFER, createAt, queueItem, queueRows, queueState, runQueue, sandboxLimit, until } from '../../testing/queue-test-steps';
import { inbox, runMemberWebhooks } from '../../testing/webhook-test-steps';

/**
 * Queued creates launched over HTTP (docs/queue.md), through the real objects and the sandbox: a
 * queued create launches when a slot frees and is then a task like any other (followed, priced,
 * its reservation the task's, its webhook events); one the service refuses ends failed with its
 * error and its reservation released; the service's own 429 queues a create and backs the team
 * off; many creates at once never pass the cap and each launches once; a restart loses none.
 * Slots free only when a test ends tasks (the sandbox's clock, stopped for every test here, then the
 * members' tracking), and the team's backoff ends only when a test says (the queue's clock held, or
 * `endBackoff`): the objects' own alarms, which fire on the machine's clock, then find nothing to
 * launch however long a loaded machine stalls between two steps. No test waits on the wall clock.
 */

beforeEach(() => freezeSandbox(true));
afterEach(() => freezeSandbox(false));

const ledgerRows = (query: string, ...bindings: unknown[]) =>
  runInDurableObject(ledgerObject(proxyEnv), (_i, state) => state.storage.sql.exec(query, ...bindings).toArray() as any[]);

/** A member whose webhook takes task events, on a fresh inbox. */
async function hooked(name: string): Promise<{ m: Member; received: () => Promise<{ type: string; data: any }[]> }> {
  const m = await member(name);
  const box = inbox();
  expect((await call(m, 'PUT', '/proxy/webhook', { url: box.url, events: ['task.completed', 'task.failed'] })).status).toBe(200);
  return { m, received: async () => (await box.received()).map((d) => JSON.parse(d.body)) };
}

/** Ends every running task of `members` and runs the queue, until `done` holds. */
const drive = <T>(members: Member[], done: () => Promise<T>, timeout?: number) =>
  until(async () => {
    await advanceSandbox(60);
    for (const m of members) await runTracking(m);
    await runQueue({ endBackoff: true });
    return done();
  }, timeout);

describe('a queued create launches', () => {
  it('when the running task ends: launched with a taskId, followed and priced as any task, its reservation the task\'s, task.completed raised', async () => {
    await priceModel(1);
    try {
      const a = await member('ql-a');
      const { m: b, received } = await hooked('ql-b');
      expect((await createAt('1', a)).status).toBe(200);
      const queued = await createAt('1', b, PREFER);
      expect(queued.status).toBe(202);
      expect(queued.body).toMatchObject({ status: 'queued', position: 1 });
      const id = queued.body.id as string;

      // While the first task runs, the queue sends nothing.
      const { calls: held } = await upstream(() => runQueue());
      expect(held('v1-create')).toBe(0);
      expect(await queueItem(b, id)).toMatchObject({ status: 'queued', position: 1 });

      // The first task ends (its end nudges the queue): the next pass launches the create, once.
      const { value: launched, calls } = await upstream(async () => {
        await advanceSandbox(60);
        await runTracking(a);
        return until(async () => {
          await runQueue();
          const item = await queueItem(b, id);
          expect(item.status).toBe('launched');
          return item;
        });
      });
      expect(calls('v1-create')).toBe(1);
      expect(launched).toMatchObject({ status: 'launched', position: null, error: null, taskId: expect.stringMatching(/\S/) });
      const taskId = launched.taskId as string;

      // A task of b's like any other: b reads it with its price; the reservation is bound to it.
      const task = await call(b, 'GET', `/v1/video/generations/${taskId}`);
      expect(task.status).toBe(200);
      expect(task.body).toMatchObject({ id: taskId, arkbridge: { cost: 5, currency: 'CNY', priced: true } });
      expect(await ledgerRows("SELECT task_id, cost FROM charges WHERE member = ? AND state = 'reserved'", b.id)).toEqual([{ task_id: taskId, cost: 5_000_000 }]);
      expect(await usage(b)).toMatchObject({ reserved: 5, spent: 0, running: 1 });
      expect((await call(a, 'GET', `/v1/video/generations/${taskId}`)).status).toBe(404);

      // It ends: charged as any task, and its event raised.
      await finishTasks(b);
      expect(await usage(b)).toMatchObject({ reserved: 0, spent: 5, running: 0 });
      await runMemberWebhooks(b.id);
      const events = await received();
      expect(events.map((e) => [e.type, e.data.id])).toEqual([['task.completed', taskId]]);
      expect(events[0]!.data.arkbridge).toMatchObject({ cost: 5, currency: 'CNY' });
    } finally {
      await resetPrices();
    }
  });

  it('whose launch the service refuses: failed with the service\'s error, its reservation released, task.failed raised with the item', async () => {
    await priceModel(1);
    try {
      const a = await member('qf-a');
      const { m: b, received } = await hooked('qf-b');
      expect((await createAt('1', a)).status).toBe(200);
      const id = (await createAt('1', b, PREFER)).body.id as string;
      expect((await usage(b)).reserved).toBe(5);

      // The service will refuse the next create: the launch, once the first task ends.
      await sandbox.fault({ target: 'v1-create', status: 400 });
      await advanceSandbox(60);
      await runTracking(a);
      const failed = await until(async () => {
        await runQueue();
        const item = await queueItem(b, id);
        expect(item.status).toBe('failed');
        return item;
      });
      expect(failed).toMatchObject({ position: null, taskId: null, error: { code: 'internal_error', message: 'Injected fault: HTTP 400.' } });
      expect(await usage(b)).toMatchObject({ reserved: 0, spent: 0, running: 0 });
      expect(await ledgerRows('SELECT id FROM charges WHERE member = ?', b.id)).toEqual([]);

      await runMemberWebhooks(b.id);
      const events = await received();
      expect(events.map((e) => e.type)).toEqual(['task.failed']);
      expect(events[0]!.data).toEqual(failed);
    } finally {
      await resetPrices();
    }
  });
});

describe('a member revoked while their create waits', () => {
  it('has it end failed member_revoked when its turn comes, nothing sent, its reservation released', async () => {
    await priceModel(1);
    try {
      const [a, b] = [await member('qv-a'), await member('qv-b')];
      expect((await createAt('1', a)).status).toBe(200);
      const id = (await createAt('1', b, PREFER)).body.id as string;
      expect((await admin('DELETE', `/admin/members/${b.id}`)).status).toBe(204);
      const { value: item, calls } = await upstream(async () => {
        await advanceSandbox(60);
        await runTracking(a);
        return until(async () => {
          await runQueue();
          const item = (await admin('GET', '/admin/queue')).body.items.find((i: { id: string }) => i.id === id);
          expect(item.status).toBe('failed');
          return item;
        });
      });
      expect(item).toMatchObject({ memberId: b.id, taskId: null, error: { code: 'member_revoked' } });
      expect(calls('v1-create')).toBe(0);
      expect(await ledgerRows('SELECT id FROM charges WHERE member = ?', b.id)).toEqual([]);
    } finally {
      await resetPrices();
    }
  });
});

describe('the service\'s own 429', () => {
  it('queues the create (202), backs the team off by its Retry-After, lets one create probe, and launches once the service has room', async () => {
    await priceModel(1);
    // The service takes one task at a time, the proxy's cap is two. The team's wait ends only when the
    // test moves the queue's clock: the queue's alarm, due 4 s later on the machine's, never probes first.
    await sandboxLimit(1);
    const clock = await holdQueueClock();
    try {
      const [a, b, c] = [await member('q4-a'), await member('q4-b'), await member('q4-c')];
      expect((await createAt('2', a)).status).toBe(200);

      const { value: busy, calls: sent } = await upstream(() => createAt('2', b, PREFER));
      expect(sent('v1-create')).toBe(1);
      expect(busy.status).toBe(202);
      expect(busy.body).toMatchObject({ status: 'queued', position: 1 });
      expect((await usage(b)).reserved).toBe(5);
      // The sandbox's Retry-After: the 5 s task started at the same (frozen) instant ends in 4 s.
      expect(await queueState()).toEqual({ attempts: 1, backoff_until: clock.start + 4_000 });

      // Others are queued behind it, without a call to the service.
      const { value: behind, calls: none } = await upstream(() => createAt('2', c, PREFER));
      expect(none('v1-create')).toBe(0);
      expect(behind.body).toMatchObject({ status: 'queued', position: 2 });

      // The whole team waits the Retry-After: nothing is sent before it is over.
      clock.set(clock.start + 3_999);
      const { calls: early } = await upstream(() => runQueue());
      expect(early('v1-create')).toBe(0);

      // The wait is over but the service is still full: one create probes (sent by this pass or by the
      // queue's alarm, whichever runs first), the other stays, the team waits again.
      const { calls: probe } = await upstream(async () => {
        clock.set(clock.start + 4_000);
        await runQueue();
      });
      expect(probe('v1-create')).toBe(1);
      expect(await queueItem(b, busy.body.id)).toMatchObject({ status: 'queued', position: 1 });
      expect(await queueItem(c, behind.body.id)).toMatchObject({ status: 'queued', position: 2 });
      expect(await queueState()).toEqual({ attempts: 2, backoff_until: clock.start + 8_000 });

      // The first task ends at the service: both launch, each once.
      await advanceSandbox(60);
      await runTracking(a);
      await sandboxLimit(2);
      const { value: items, calls: launches } = await upstream(() =>
        until(async () => {
          await runQueue({ endBackoff: true });
          const items = [await queueItem(b, busy.body.id), await queueItem(c, behind.body.id)];
          expect(items.map((i) => i.status)).toEqual(['launched', 'launched']);
          return items;
        }),
      );
      expect(launches('v1-create')).toBe(2);
      expect(new Set(items.map((i) => i.taskId)).size).toBe(2);
      expect((await queueState()).attempts).toBe(0);
    } finally {
      await clock.release();
      await sandboxLimit(null);
      await resetPrices();
    }
  });
});

describe('many creates at once', () => {
  it('50 over HTTP with the cap at 3: never more than 3 at the service, each launched once or refused for its budget', async () => {
    await priceModel(1);
    // The service refuses a 4th running task (429, one more create call): a proxy past its cap would show.
    await sandboxLimit(3);
    try {
      const members = await Promise.all(Array.from({ length: 5 }, (_, i) => member(`q50-${i}`)));
      // Six 5 s tasks fit the first member's budget: four of its ten creates are refused.
      await setBudget(members[0]!, { limit: 30 });
      const before = await sandbox.stats();
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => createAt('3', members[i % 5]!, { ...PREFER, 'Idempotency-Key': `q50-${i}` }).then((r) => ({ r, m: members[i % 5]! }))),
      );
      const statuses = answers.map(({ r }) => r.status);
      expect(statuses.filter((s) => ![200, 202, 402].includes(s)), JSON.stringify(answers.map(({ r }) => r.body))).toEqual([]);
      expect(statuses.filter((s) => s === 402)).toHaveLength(4);
      const direct = answers.filter(({ r }) => r.status === 200).map(({ r }) => r.body.id as string);
      expect(direct.length).toBeLessThanOrEqual(3);
      const queued = answers.filter(({ r }) => r.status === 202);
      expect(direct.length + queued.length).toBe(46);

      // Followed in the queue's storage: one read a round (members' reads, below, once at the end).
      const ids = new Set(queued.map(({ r }) => r.body.id as string));
      await drive(members, async () => {
        const rows = await queueRows<{ id: string; status: string }>('SELECT id, status FROM queue_items');
        expect(rows.filter((row) => ids.has(row.id) && row.status !== 'launched')).toEqual([]);
      }, 100_000);
      const lists = await Promise.all(members.map(async (m) => (await call(m, 'GET', '/proxy/queue')).body.items as { id: string; status: string; taskId: string }[]));
      const launched = lists.flat().filter((i) => ids.has(i.id));
      expect(launched.map((i) => i.status)).toEqual(Array(queued.length).fill('launched'));
      const after = await sandbox.stats();
      const tasks = [...direct, ...launched.map((i) => i.taskId)];
      expect(new Set(tasks).size).toBe(46);
      // Each launched exactly once, and none refused by the service for too many running.
      expect(count(after, 'v1-create') - count(before, 'v1-create')).toBe(46);
    } finally {
      await sandboxLimit(null);
      await resetPrices();
    }
  }, 150_000);
});

describe('a restart', () => {
  it('loses no queued create, and each launches once', async () => {
    await priceModel(1);
    try {
      const [a, b, c] = [await member('qr-a'), await member('qr-b'), await member('qr-c')];
      expect((await createAt('1', a)).status).toBe(200);
      const items = [
        { m: b, id: (await createAt('1', b, PREFER)).body.id as string },
        { m: c, id: (await createAt('1', c, PREFER)).body.id as string },
      ];
      // The queue at rest first (its pass, which the creates' alarm starts at once, has ended): aborted
      // right after an enqueue that answers without a call to the ledger, workerd's test runtime never
      // ended the file (every test passed, then a hang with no timeout firing).
      await runQueue();
      // Every object starts afresh from its storage (the queue, the ledger, the members').
      await abortAllDurableObjects();
      expect(await queueItem(b, items[0]!.id)).toMatchObject({ status: 'queued', position: 1 });
      expect(await queueItem(c, items[1]!.id)).toMatchObject({ status: 'queued', position: 2 });
      expect((await usage(b)).reserved).toBe(5);

      const { calls } = await upstream(() =>
        drive([a, b, c], async () => {
          const now = await Promise.all(items.map(({ m, id }) => queueItem(m, id)));
          expect(now.map((i) => i.status)).toEqual(['launched', 'launched']);
        }),
      );
      // Restarted again once launched: nothing is sent again.
      await abortAllDurableObjects();
      const { calls: after } = await upstream(() => runQueue({ endBackoff: true }));
      expect(after('v1-create')).toBe(0);
      expect(calls('v1-create')).toBe(2);
      const launched = await Promise.all(items.map(({ m, id }) => queueItem(m, id)));
      expect(new Set(launched.map((i) => i.taskId)).size).toBe(2);
      await finishTasks(b);
      await finishTasks(c);
      expect((await usage(c)).spent).toBe(5);
    } finally {
      await resetPrices();
    }
  });
});

describe('the launch call', () => {
  it('abandoned at its deadline: failed create_outcome_unknown, the reservation released, never sent again; one that never reached the service may go again', async () => {
    await priceModel(1);
    const original = globalThis.fetch;
    let sent = 0;
    let failure = new Error('unset');
    // The service's create only: every other call of the objects goes out as usual.
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.endsWith('/v1/video/generations') && init?.method === 'POST') {
        sent += 1;
        throw failure;
      }
      return original(input, init);
    });
    try {
      const b = await member('qd-b');
      const reservation = await ledgerObject(proxyEnv).reserve(b.id, { model: MODEL, duration: 5 });
      if (!reservation.ok) throw new Error('not reserved');
      const order = { id: `abq_${'1'.repeat(24)}`, createdAt: Date.now(), model: MODEL, body: JSON.stringify({ model: MODEL, prompt: 'late kite', duration: 5 }), reservation };
      const launch = () => memberObject(proxyEnv, b.id).launchQueued(order);

      failure = new TypeError('Network connection lost.');
      expect(await launch()).toEqual({ kind: 'busy', retryAfter: null });
      expect((await usage(b)).reserved).toBe(5);

      failure = Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' });
      const timedOut = await launch();
      expect(timedOut).toMatchObject({ kind: 'failed', error: { code: 'create_outcome_unknown' } });
      expect(sent).toBe(2);
      expect((await usage(b)).reserved).toBe(0);
      // Asked again (a restarted queue): the same answer, nothing sent.
      expect(await launch()).toEqual(timedOut);
      expect(sent).toBe(2);
    } finally {
      spy.mockRestore();
      await resetPrices();
    }
  });
});
