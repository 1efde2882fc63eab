import { runInDurableObject } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PriceTable } from '../../../../shared';
import { videoCall } from '../../infra/upstream/fetch';
import type { LedgerPort } from '../ledger/ledger-port';
import { proxyEnv, sandbox } from '../../testing/proxy-test-client';
import { advanceSandbox, MODEL, upstream } from '../../testing/proxy-test-steps';
import { scratchLedger, scratchLedgerPort, scratchMember } from '../../testing/scratch-objects';
import { MAX_BACKOFF_MS, TASK_RETENTION_MS, TaskTracker } from './task-tracker';

/**
 * The tracker's rules, on a member object and a ledger of the test's own, against the real sandbox:
 * when a task is next checked (interval, backoff, Retry-After), how it ends, when it expires. The
 * clock is Date faked: each check is run by calling `runDue` at the time the test names.
 */

/** TRACK_INTERVAL_SECONDS of the test bindings. */
const INTERVAL = 1000;
const T0 = Date.parse('2026-05-01T12:00:00Z');
const PRICES: PriceTable = { currency: 'CNY', models: { [MODEL]: { '*': 1 } } };

interface Row {
  tracking: string;
  status: string;
  failures: number;
  next_check_at: number | null;
  settled: number;
}

/** A task the sandbox really has, recorded by a fresh tracker at T0 under a 5 CNY reservation of a fresh ledger. */
async function tracked() {
  vi.setSystemTime(T0);
  const ledgerName = `scratch-${crypto.randomUUID()}`;
  const ledger = scratchLedger(ledgerName);
  await ledger.setPrices(PRICES, 'test');
  const member = scratchMember();
  const reservation = await ledger.reserve(member.id, { model: MODEL, duration: 5 });
  if (!reservation.ok) throw new Error('not reserved');
  const up = await videoCall(proxyEnv, 'POST', '/v1/video/generations', JSON.stringify({ model: MODEL, prompt: 'a kite', duration: 5 }));
  const task = JSON.parse(up.body) as { id: string; status: string };
  const alarms: (number | null)[] = [];
  /** Runs `fn` with the member object's storage and a tracker over it (as the object builds one). */
  const inObject = <T>(fn: (tracker: TaskTracker, sql: SqlStorage) => Promise<T> | T, ledgerPort: (port: LedgerPort) => LedgerPort = (port) => port) =>
    runInDurableObject(member.stub, (_instance, state) => {
      const tracker = new TaskTracker({
        sql: state.storage.sql,
        env: proxyEnv,
        ledger: () => ledgerPort(scratchLedgerPort(ledgerName)),
        setAlarm: (at) => void alarms.push(at),
        memberId: () => member.id,
        memberName: () => null,
      });
      return fn(tracker, state.storage.sql);
    });
  await inObject((tracker) => tracker.record(task, up.body, reservation, T0));
  const row = () => inObject((_t, sql) => sql.exec('SELECT tracking, status, failures, next_check_at, settled FROM tasks WHERE id = ?', task.id).one() as unknown as Row);
  /** The alarm at `at`: what is due is checked. */
  const runAt = (at: number) => {
    vi.setSystemTime(at);
    return inObject((tracker) => tracker.runDue());
  };
  return { ledger, member, task, alarms, row, runAt, inObject };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('task tracker: when a task is checked next', () => {
  it('once per interval while the service answers; the object alarm points at the next check', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const t = await tracked();
    expect(await t.row()).toMatchObject({ tracking: 'tracking', failures: 0, next_check_at: T0 + INTERVAL });
    expect(t.alarms.at(-1)).toBe(T0 + INTERVAL);
    // Not due yet: nothing is asked.
    const early = await upstream(() => t.runAt(T0 + INTERVAL - 1));
    expect(early.calls('v1-get')).toBe(0);
    await sandbox.fault({ target: 'v1-get', status: 200, taskStatus: 'in_progress', count: 1 });
    const due = await upstream(() => t.runAt(T0 + INTERVAL));
    expect(due.calls('v1-get')).toBe(1);
    expect(await t.row()).toMatchObject({ failures: 0, next_check_at: T0 + 2 * INTERVAL });
    expect(t.alarms.at(-1)).toBe(T0 + 2 * INTERVAL);
  });

  it('backs off, doubling, while the service fails; a longer Retry-After is waited; never past the cap', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const t = await tracked();
    await sandbox.fault({ target: 'v1-get', status: 500, count: 2 });
    let at = T0 + INTERVAL;
    for (const failures of [1, 2]) {
      await t.runAt(at);
      const row = await t.row();
      expect(row).toMatchObject({ tracking: 'tracking', failures, next_check_at: at + INTERVAL * 2 ** failures });
      at = row.next_check_at!;
    }
    await sandbox.fault({ target: 'v1-get', status: 503, count: 1, retryAfter: 120 });
    await t.runAt(at);
    expect(await t.row()).toMatchObject({ failures: 3, next_check_at: at + 120_000 });
    at += 120_000;
    await sandbox.fault({ target: 'v1-get', status: 503, count: 1, retryAfter: 86_400 });
    await t.runAt(at);
    expect(await t.row()).toMatchObject({ failures: 4, next_check_at: at + MAX_BACKOFF_MS });
    at += MAX_BACKOFF_MS;
    // An answer again: back to the interval.
    await sandbox.fault({ target: 'v1-get', status: 200, taskStatus: 'in_progress', count: 1 });
    await t.runAt(at);
    expect(await t.row()).toMatchObject({ failures: 0, next_check_at: at + INTERVAL });
  });
});

describe('task tracker: how a task ends', () => {
  it('completed: recorded as ended, charged once in the ledger, never checked again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const t = await tracked();
    await advanceSandbox(60);
    await t.runAt(T0 + INTERVAL);
    expect(await t.row()).toMatchObject({ tracking: 'ended', status: 'completed', settled: 1, next_check_at: null });
    expect(await t.ledger.memberBudget(t.member.id)).toMatchObject({ spent: 5, reserved: 0, running: 0 });
    const later = await upstream(() => t.runAt(T0 + 60 * INTERVAL));
    expect(later.calls('v1-get')).toBe(0);
    expect(t.alarms.at(-1)).toBeNull();
  });

  it('a reader while the ending is finished (charged, video copied) is answered once it is: with the kept copy, not keep pending', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const t = await tracked();
    await advanceSandbox(60);
    // The ledger's settlement held: the alarm has recorded the ending and waits in its finishing.
    let settles = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const holding = (port: LedgerPort): LedgerPort =>
      Object.assign(Object.create(port) as LedgerPort, {
        settle: async (...args: Parameters<LedgerPort['settle']>) => {
          settles++;
          await held;
          return port.settle(...args);
        },
      });
    const answered = await t.inObject(async (tracker) => {
      vi.setSystemTime(T0 + INTERVAL);
      const alarm = tracker.runDue();
      await vi.waitFor(() => expect(settles).toBe(1));
      const reading = tracker.answer(t.task.id, 'https://proxy.test');
      release();
      await alarm;
      return reading;
    }, holding);
    const body = JSON.parse((answered as { body: string }).body);
    expect(body.status).toBe('completed');
    expect(body.arkbridge.keep).toBeUndefined();
    expect(body.arkbridge.keptUrl).toMatch(new RegExp(`^https://proxy\\.test/media/o-${t.member.id}-${t.task.id}\\?`));
  });

  it('failed: ended, and its reservation released: it costs nothing', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const t = await tracked();
    await sandbox.fault({ target: 'v1-get', status: 200, taskStatus: 'failed', count: 1 });
    await t.runAt(T0 + INTERVAL);
    expect(await t.row()).toMatchObject({ tracking: 'ended', status: 'failed', settled: 1, next_check_at: null });
    expect(await t.ledger.memberBudget(t.member.id)).toMatchObject({ spent: 0, reserved: 0, running: 0 });
  });

  it('older than the service keeps tasks: expired without a query, and charged as reserved', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const t = await tracked();
    await sandbox.fault({ target: 'v1-get', status: 200, taskStatus: 'in_progress', count: 1 });
    const still = await upstream(() => t.runAt(T0 + TASK_RETENTION_MS - 1));
    expect(still.calls('v1-get')).toBe(1);
    expect((await t.row()).tracking).toBe('tracking');
    const expired = await upstream(() => t.runAt(T0 + TASK_RETENTION_MS + 1));
    expect(expired.calls('v1-get')).toBe(0);
    expect(await t.row()).toMatchObject({ tracking: 'expired', settled: 1, next_check_at: null });
    expect(await t.ledger.memberBudget(t.member.id)).toMatchObject({ spent: 5, reserved: 0 });
  });
});
