import { afterEach, describe, expect, it, vi } from 'vitest';
import { call, sandbox, type Member } from '../../testing/proxy-test-client';
import { create } from '../../testing/gateway-test-steps';
import { member, staleRecord, upstream } from '../../testing/proxy-test-steps';

/**
 * Polling still collapses while the service fails (docs/budgets.md, "Polling collapses"): a failed
 * query counts as a check for readers too. The tracker's clock (Date, faked) is set an hour ahead
 * of real time, so that the object's real alarm stays out of the count, and moved by the test.
 */

/** TRACK_INTERVAL_SECONDS of the test bindings. */
const INTERVAL = 1000;

afterEach(() => {
  vi.useRealTimers();
});

const get = (m: Member, id: string) => call(m, 'GET', `/v1/video/generations/${id}`);

describe('polling under a failing service', () => {
  it.each([
    // The first failure waits twice the interval (the backoff doubles from there).
    ['500', { status: 500 }, 2 * INTERVAL],
    ['429 with Retry-After: 60', { status: 429, retryAfter: 60 }, 60_000],
  ])('%s: 20 concurrent and 20 sequential reads make one upstream query; one more once the wait is over', async (_what, fault, wait) => {
    const m = await member();
    const created = await create(m);
    expect(created.status).toBe(200);
    const T = Date.now() + 3_600_000;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T);
    await staleRecord(m, created.body.id);
    // Two queries will fail: the first, and the one after the wait.
    await sandbox.fault({ target: 'v1-get', count: 2, ...fault });

    const concurrent = await upstream(() => Promise.all(Array.from({ length: 20 }, () => get(m, created.body.id))));
    expect(concurrent.calls('v1-get')).toBe(1);
    // Readers that shared the one query get its answer; those after it, the record.
    for (const r of concurrent.value) {
      if (r.status === 200) expect(r.body).toEqual(created.body);
      else expect(r.status).toBe(fault.status);
    }

    const sequential = await upstream(async () => {
      const answers = [];
      for (let i = 0; i < 20; i++) answers.push(await get(m, created.body.id));
      return answers;
    });
    expect(sequential.calls('v1-get')).toBe(0);
    // Meanwhile readers get the last known answer: the record, with the arkbridge member.
    for (const r of sequential.value) {
      expect(r.status).toBe(200);
      expect(r.body).toEqual(created.body);
    }

    vi.setSystemTime(T + wait - 1);
    expect((await upstream(() => get(m, created.body.id))).calls('v1-get')).toBe(0);
    vi.setSystemTime(T + wait);
    const after = await upstream(() => Promise.all(Array.from({ length: 20 }, () => get(m, created.body.id))));
    expect(after.calls('v1-get')).toBe(1);
  });
});
