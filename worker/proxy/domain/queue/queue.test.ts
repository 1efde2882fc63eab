import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call } from '../../testing/proxy-test-client';
import { finishTasks, priceModel, resetPrices, usage } from '../../testing/gateway-test-steps';
import { member, upstream } from '../../testing/proxy-test-steps';
import { createAt, freezeSandbox } from '../../testing/queue-test-steps';

/**
 * The queue over HTTP (docs/queue.md), with UPSTREAM_MAX_RUNNING at 1 for the Worker's calls. The
 * sandbox's clock is stopped, so the running task holds the one slot until the test ends it: on the
 * machine's clock it would end within seconds, and the members' tracking would free the slot and
 * launch the queued create between two steps of a stalled run.
 */

beforeEach(() => freezeSandbox(true));
afterEach(() => freezeSandbox(false));

describe('at the cap', () => {
  it('without Prefer: 429 upstream_busy with Retry-After and no call to the service; with it: 202 queued, reservation held; cancel releases it', async () => {
    await priceModel(1);
    try {
      const [a, b] = [await member('qa'), await member('qb')];
      expect((await createAt('1', a)).status).toBe(200);
      const { value: busy, calls } = await upstream(() => createAt('1', b));
      expect(calls('v1-create')).toBe(0);
      expect(busy.status).toBe(429);
      expect(busy.body.error).toMatchObject({ code: 'upstream_busy', type: 'rate_limit_error', running: 1, cap: 1 });
      expect(busy.headers.get('retry-after')).toBe('1');

      const queued = await createAt('1', b, { Prefer: 'respond-async', 'Idempotency-Key': 'q-1' });
      expect(queued.status).toBe(202);
      expect(queued.body).toMatchObject({ object: 'queued_create', status: 'queued', position: 1, arkbridge: { cost: 5, currency: 'CNY', priced: true } });
      expect((await usage(b)).reserved).toBe(5);
      // The same key answers the same item.
      expect((await createAt('1', b, { Prefer: 'respond-async', 'Idempotency-Key': 'q-1' })).body.id).toBe(queued.body.id);

      const id = queued.body.id as string;
      expect((await call(b, 'GET', `/proxy/queue/${id}`)).body).toMatchObject({ id, status: 'queued', position: 1, taskId: null, error: null });
      expect((await call(b, 'GET', '/proxy/queue')).body.items.map((i: { id: string }) => i.id)).toContain(id);
      // Another member's item is as none; a malformed id is refused before any lookup.
      expect((await call(a, 'GET', `/proxy/queue/${id}`)).status).toBe(404);
      expect((await call(a, 'DELETE', `/proxy/queue/${id}`)).status).toBe(404);
      const bad = await call(b, 'GET', '/proxy/queue/abq_NOT');
      expect(bad.status).toBe(400);
      expect(bad.body.error.param).toBe('id');

      const cancelled = await call(b, 'DELETE', `/proxy/queue/${id}`);
      expect(cancelled.status).toBe(200);
      expect(cancelled.body).toMatchObject({ id, status: 'cancelled', position: null });
      expect((await usage(b)).reserved).toBe(0);
      expect((await call(b, 'DELETE', `/proxy/queue/${id}`)).status).toBe(409);
      await finishTasks(a);
    } finally {
      await resetPrices();
    }
  });
});
