import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { objectStub } from '../../objects/object-stubs';
import { proxyEnv } from '../../testing/proxy-test-client';
import type { Reservation } from '../ledger/ledger-port';
import { backoffMs, retryAfterSeconds } from './backoff';
import { fairOrder } from './fair-order';
import { prefersRespondAsync } from './prefer';
import { addItem, itemById, openQueue, readState } from './queue-book';
import { QueueLauncher } from './queue-launcher';
import type { LaunchOrder, LaunchResult } from './queue-port';

/**
 * The queue's rules on a queue object of its own (real storage) with the ledger and the members'
 * objects played by fakes: the fair order, the backoff and its one probe, launches exactly once
 * across a restart, the cap. Time is a counter the test moves, never the wall clock.
 */

const reservation = (id: string): Reservation => ({ ok: true, id, cost: 1, currency: 'CNY', priced: true, unit: 'second', tokens: null });

interface World {
  cap: number;
  running: number;
  launches: Record<string, number>;
  /** Item ids sent to the service, in order (a second send of one would show). */
  sent: string[];
  /** What the service answers each send; default launched. */
  answer: (order: LaunchOrder) => LaunchResult;
  clock: number;
  /** The next launch is made, but its answer never reaches the queue (it stopped). */
  loseAnswer?: boolean;
  /** Runs once the ledger answered a claim, before the launcher hears it (a task ending meanwhile). */
  afterClaim?: () => void;
  /** Passes that read the ledger's launch times (one each); bounded by STEPS_MAX. */
  steps: number;
}

/**
 * More items looked at than any test here needs: a pass that loops (an item that never leaves the
 * queue nor stops the pass) fails with this rather than spinning forever on the fakes' microtasks,
 * where no timer, the test's timeout included, would ever fire.
 */
const STEPS_MAX = 500;

/** Runs `fn` with a fresh queue's storage and a launcher over fakes. */
async function withQueue(fn: (sql: SqlStorage, world: World, launcher: () => QueueLauncher) => Promise<void>): Promise<void> {
  const stub = objectStub(proxyEnv.QUEUE, `scratch-${crypto.randomUUID()}`);
  await runInDurableObject(stub, async (_instance, state) => {
    const sql = state.storage.sql;
    openQueue(sql);
    const world: World = { cap: 1, running: 0, launches: {}, sent: [], answer: (o) => ({ kind: 'launched', taskId: `task-${o.id}` }), clock: 1_000, steps: 0 };
    const byItem = new Map<string, LaunchResult>();
    const launcher = () =>
      new QueueLauncher({
        sql,
        pollMs: 1_000,
        arm: () => undefined,
        random: () => 0.5,
        slots: () => ({
          claimSlot: async () => {
            const claim = world.running < world.cap ? (world.running++, 'ok' as const) : ('busy' as const);
            world.afterClaim?.();
            return claim;
          },
          holdSlot: async () => void world.running--,
          release: async () => undefined,
          lastLaunches: async (members) => {
            if (++world.steps > STEPS_MAX) throw new Error(`the launcher looked at ${STEPS_MAX} items without stopping: a pass loops (sent: ${world.sent.length})`);
            return Object.fromEntries(members.filter((m) => m in world.launches).map((m) => [m, world.launches[m]!]));
          },
        }),
        member: (memberId) => ({
          launchQueued: async (order) => {
            // The member's object keeps what came of each item: asked again, it answers the same.
            const known = byItem.get(order.id);
            if (known) return known;
            world.sent.push(order.id);
            const result = world.answer(order);
            if (result.kind === 'launched') world.launches[memberId] = world.clock++;
            if (result.kind !== 'busy') byItem.set(order.id, result);
            if (world.loseAnswer) {
              world.loseAnswer = false;
              throw new Error('the queue stopped before it heard the answer');
            }
            return result;
          },
        }),
      });
    await fn(sql, world, launcher);
  });
}

const add = (sql: SqlStorage, member: string, n: number) => addItem(sql, { member, model: 'm', body: '{}', reservation: reservation(`r-${member}-${n}`) }, n).id;

describe('fair order', () => {
  it('three members: who never launched first, then the oldest last launch; oldest create first within a member', () => {
    const items = [
      { id: 'c1', member: 'carol', seq: 1 },
      { id: 'c2', member: 'carol', seq: 2 },
      { id: 'b1', member: 'bob', seq: 3 },
      { id: 'a1', member: 'alice', seq: 4 },
      { id: 'a2', member: 'alice', seq: 5 },
      { id: 'c3', member: 'carol', seq: 6 },
    ];
    // Alice never launched; Bob launched long ago, Carol a moment ago.
    const order = fairOrder(items, { bob: 100, carol: 900 }).map((i) => i.id);
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'c2', 'c3']);
  });

  it('launches in that order, each member\'s turn after its last launch', async () => {
    await withQueue(async (sql, world, launcher) => {
      world.cap = 100;
      world.launches = { bob: 1, carol: 2 };
      for (const [member, n] of [['carol', 1], ['carol', 2], ['bob', 3], ['alice', 4], ['alice', 5]] as const) add(sql, member, n);
      await launcher().run(() => world.clock);
      expect(world.sent.map((id) => itemById(sql, id)!.member)).toEqual(['alice', 'bob', 'carol', 'alice', 'carol']);
    });
  });
});

describe('launch times', () => {
  it('a pass asks the ledger for the launch times once, however many it launches, and keeps the fair order', async () => {
    await withQueue(async (sql, world, launcher) => {
      world.cap = 100;
      world.launches = { m0: 1 };
      for (let i = 0; i < 20; i++) add(sql, `m${i % 5}`, i);
      await launcher().run(() => world.clock);
      expect(world.sent).toHaveLength(20);
      expect(world.steps).toBe(1);
      // m0 launched before (directly): it goes last in each round of the five members.
      expect(world.sent.slice(0, 5).map((id) => itemById(sql, id)!.member)).toEqual(['m1', 'm2', 'm3', 'm4', 'm0']);
      expect(world.sent.slice(5, 10).map((id) => itemById(sql, id)!.member)).toEqual(['m1', 'm2', 'm3', 'm4', 'm0']);
    });
  });
});

describe('slots', () => {
  it('never more launched than the cap; the rest wait queued for a slot', async () => {
    await withQueue(async (sql, world, launcher) => {
      world.cap = 3;
      const ids = Array.from({ length: 50 }, (_, i) => add(sql, `m${i % 7}`, i));
      // A slot freeing (a nudge) during a pass joins it rather than running a second one beside it.
      const queue = launcher();
      await Promise.all([queue.run(() => world.clock), queue.run(() => world.clock)]);
      expect(world.sent).toHaveLength(3);
      expect(world.running).toBe(3);
      expect(ids.filter((id) => itemById(sql, id)!.status === 'queued')).toHaveLength(47);
      // Two slots free: two more launch.
      world.running -= 2;
      await queue.run(() => world.clock);
      expect(world.sent).toHaveLength(5);
    });
  });
});

describe('a slot freeing during a pass', () => {
  it('is used by that pass, though the ledger answered it busy just before', async () => {
    await withQueue(async (sql, world, launcher) => {
      world.cap = 1;
      world.running = 1;
      add(sql, 'alice', 1);
      add(sql, 'bob', 2);
      const queue = launcher();
      world.afterClaim = () => {
        world.afterClaim = undefined;
        // The running task ends while the busy answer is on its way: its member's object nudges the queue.
        world.running--;
        expect(queue.wake()).toBe(true);
      };
      await queue.run(() => world.clock);
      expect(world.sent.map((id) => itemById(sql, id)!.member)).toEqual(['alice']);
      expect(queue.wake()).toBe(false);
    });
  });
});

describe('backoff after the service is busy', () => {
  it('429 with Retry-After: the whole team waits it, then one create probes before the rest go', async () => {
    await withQueue(async (sql, world, launcher) => {
      world.cap = 10;
      for (let i = 0; i < 4; i++) add(sql, `m${i}`, i);
      let busy = true;
      world.answer = (o) => (busy ? { kind: 'busy', retryAfter: 5 } : { kind: 'launched', taskId: `t-${o.id}` });
      let now = 10_000;
      const queue = launcher();
      await queue.run(() => now);
      // One call, answered 429: nothing else is sent, and the item is queued again in its place.
      expect(world.sent).toHaveLength(1);
      expect(readState(sql).backoffUntil).toBe(15_000);
      expect(world.running).toBe(0);
      now = 14_999;
      await queue.run(() => now);
      expect(world.sent).toHaveLength(1);
      // After the wait, still busy: the probe is the only call, and the team waits again (backoff grows).
      now = 15_000;
      await queue.run(() => now);
      expect(world.sent).toHaveLength(2);
      expect(world.sent[1]).toBe(world.sent[0]);
      // The service is free again: the probe launches, then the rest.
      busy = false;
      now = 20_000;
      await queue.run(() => now);
      expect(world.sent).toHaveLength(6);
      expect(readState(sql).attempts).toBe(0);
    });
  });

  it('without Retry-After: exponential with jitter, 1 s doubling to at most 60 s', () => {
    expect(backoffMs(null, 1, 0)).toBe(500);
    expect(backoffMs(null, 1, 0.999)).toBeLessThanOrEqual(1000);
    expect(backoffMs(null, 3, 0)).toBe(2000);
    expect(backoffMs(null, 30, 0.999)).toBeLessThanOrEqual(60_000);
    expect(backoffMs(7, 9, 0.3)).toBe(7000);
    expect(retryAfterSeconds('12')).toBe(12);
    expect(retryAfterSeconds('Wed, 21 Oct 2015 07:28:00 GMT')).toBeNull();
    expect(retryAfterSeconds('99999999')).toBe(3600);
  });
});

describe('restarts', () => {
  it('an item left launching by a restart is asked about again and launched once', async () => {
    await withQueue(async (sql, world, launcher) => {
      world.cap = 5;
      const ids = [add(sql, 'alice', 1), add(sql, 'bob', 2)];
      // The first launch is made by the member's object, then the queue stops before marking it.
      world.loseAnswer = true;
      await launcher().run(() => world.clock);
      expect(itemById(sql, ids[0]!)!.status).toBe('launching');
      // A new instance over the same storage: the item is launching, not queued, and asked about again.
      await launcher().run(() => world.clock);
      for (const id of ids) expect(itemById(sql, id)!.status).toBe('launched');
      expect(new Set(world.sent).size).toBe(world.sent.length);
    });
  });
});

describe('Prefer header (RFC 7240)', () => {
  it('respond-async among other preferences; malformed or absent is ignored', () => {
    expect(prefersRespondAsync('respond-async')).toBe(true);
    expect(prefersRespondAsync('wait=10, Respond-Async; x=1')).toBe(true);
    expect(prefersRespondAsync('respond-asynchronously')).toBe(false);
    expect(prefersRespondAsync('=;,,')).toBe(false);
    expect(prefersRespondAsync(null)).toBe(false);
    expect(prefersRespondAsync(`respond-async,${'x'.repeat(2000)}`)).toBe(false);
  });
});
