import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { Reservation } from '../domain/ledger/ledger-port';
import { addItem } from '../domain/queue/queue-book';
import { proxyEnv } from '../testing/proxy-test-client';
import { objectStub } from './object-stubs';
import { TeamQueue } from './team-queue';

/**
 * The queue object's cost per enqueue: while many creates arrive, each launch waits behind the
 * enqueues in the ledger's object, so an enqueue must not ask the ledger about every waiting member.
 */

const reservation = (id: string): Reservation => ({ ok: true, id, cost: 1, currency: 'CNY', priced: true, unit: 'second', tokens: null });

/** A ledger that counts what it is asked (calls, and members asked about) and answers nothing known. */
function countingLedger() {
  const count = { calls: 0, membersAsked: 0 };
  const ledger = {
    lastLaunches: async (members: string[]) => (count.calls++, (count.membersAsked += members.length), {}),
    claimSlot: async () => (count.calls++, 'busy'),
    holdSlot: async () => void count.calls++,
    release: async () => void count.calls++,
  };
  const namespace = { idFromName: (name: string) => name, get: () => ledger } as unknown as DurableObjectNamespace;
  return { count, namespace };
}

/** What one enqueue costs the ledger, into a queue already holding `waiting` creates of 100 members. */
async function enqueueCost(waiting: number): Promise<{ calls: number; membersAsked: number; position: number | null }> {
  const stub = objectStub(proxyEnv.QUEUE, `scratch-${crypto.randomUUID()}`);
  return runInDurableObject(stub, async (_instance, state) => {
    const { count, namespace } = countingLedger();
    // A second instance over the same storage, whose ledger is the counting one.
    const queue = new TeamQueue(state, { ...proxyEnv, LEDGER: namespace });
    for (let i = 0; i < waiting; i++) addItem(state.storage.sql, { member: `m${i % 100}`, model: 'm', body: '{}', reservation: reservation(`r${i}`) }, i);
    const enqueued = await queue.enqueue({ member: 'late', model: 'm', body: '{}', reservation: reservation('r-late') }, 10, null);
    // Nothing of this scratch queue is left to launch.
    await state.storage.deleteAlarm();
    state.storage.sql.exec('DELETE FROM queue_items');
    return { ...count, position: enqueued.ok ? enqueued.item.position : null };
  });
}

describe('enqueue', () => {
  it('costs the ledger the same, at most one call, whether the queue is empty or holds 500 creates of 100 members', async () => {
    const empty = await enqueueCost(0);
    const full = await enqueueCost(500);
    expect(full.calls).toBeLessThanOrEqual(1);
    expect(full.calls).toBe(empty.calls);
    expect(full.membersAsked).toBe(empty.membersAsked);
    // The answer still places the item: a member who never launched goes in the first round (after
    // the 100 members whose oldest creates are older).
    expect(empty.position).toBe(1);
    expect(full.position).toBe(101);
  });
});
