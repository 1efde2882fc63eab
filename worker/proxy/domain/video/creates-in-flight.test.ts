import { runInDurableObject } from 'cloudflare:test';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../../shared';
import { ledgerObject, memberObject } from '../../objects/handles';
import { ledgerPort } from '../../objects/object-stubs';
import { call, proxyEnv, sandbox, UPSTREAM_DEADLINE_MS } from '../../testing/proxy-test-client';
import { create, priceModel, resetPrices, usage } from '../../testing/gateway-test-steps';
import { member, memberRows, MODEL, upstream } from '../../testing/proxy-test-steps';
import type { Member } from '../../testing/proxy-test-client';
import * as idempotency from '../members/idempotency';
import { CreatesInFlight } from './creates-in-flight';

/**
 * Creates cut off mid-way (docs/budgets.md, "Orphaned creates"): what a stop of the proxy leaves
 * (the reservation, the row written before the call went upstream, the key's record in progress)
 * is made here as a create makes it, then the member's object starts over (a fresh instance has no
 * create running) and its alarm resolves it. The stop of a real proxy process: test/e2e/orphaned-creates.test.ts.
 */

afterEach(resetPrices);

/** UPSTREAM_TIMEOUT_MS + TRACK_INTERVAL_SECONDS (1 s) of the test bindings. */
const BOUND = UPSTREAM_DEADLINE_MS + 1000;
const BODY = { model: MODEL, prompt: 'a kite', duration: 5 };

/** A fresh CreatesInFlight over the member object's storage: the object as a restarted instance sees it. */
function inObject<T>(m: Member, fn: (creates: CreatesInFlight, sql: SqlStorage) => Promise<T> | T): Promise<T> {
  return runInDurableObject(memberObject(proxyEnv, m.id), (_instance, state) =>
    fn(new CreatesInFlight({ sql: state.storage.sql, env: proxyEnv, ledger: () => ledgerPort(proxyEnv), armAlarm: () => undefined }), state.storage.sql),
  );
}

/**
 * What a create with `key` leaves when the proxy stops while the service has not answered: its
 * reservation in the ledger, its key in progress, its row in flight, started `ago` ms ago.
 */
async function cutOff(m: Member, key: string | null, ago = BOUND + 1) {
  const reservation = await ledgerObject(proxyEnv).reserve(m.id, { model: MODEL, duration: 5 });
  if (!reservation.ok) throw new Error('not reserved');
  const record = key === null ? null : idempotency.recordKey('video', key);
  const hash = await idempotency.bodyHash(BODY);
  await inObject(m, (creates, sql) => {
    if (record) expect(idempotency.begin(sql, record, hash).kind).toBe('new');
    creates.begin(reservation.id, record, MODEL, Date.now() - ago);
  });
  return reservation;
}

/** The member object's alarm, run now (the real object, as after a restart: nothing of the create runs in it). */
const alarm = (m: Member) => runInDurableObject(memberObject(proxyEnv, m.id), (instance) => instance.alarm());

const unknownEntries = async (m: Member) =>
  ((await ledgerObject(proxyEnv).auditEntries(1000)) as unknown as AuditEntry[]).filter((e) => e.action === 'create.unknown' && e.actor === m.id);

describe('creates cut off mid-way', () => {
  it('the alarm releases the reservation, the running count drops, and create.unknown is audited', async () => {
    await priceModel(1);
    const m = await member();
    const reservation = await cutOff(m, `k-${crypto.randomUUID()}`);
    expect(await usage(m)).toMatchObject({ reserved: 5, running: 1 });
    await alarm(m);
    expect(await usage(m)).toMatchObject({ reserved: 0, running: 0 });
    expect(await unknownEntries(m)).toEqual([
      expect.objectContaining({ target: `member:${m.id}`, detail: expect.objectContaining({ reservation: reservation.id, model: MODEL, cost: 5, keyed: true }) }),
    ]);
    expect(await memberRows(m, 'SELECT * FROM creates_in_flight')).toEqual([]);
    // Resolving twice changes nothing.
    await alarm(m);
    expect(await unknownEntries(m)).toHaveLength(1);
  });

  it('a retry with the same key is told once that the outcome is unknown, then creates afresh', async () => {
    const m = await member();
    const key = `k-${crypto.randomUUID()}`;
    await cutOff(m, key);
    // Before the alarm: still in progress.
    expect((await create(m, 5, { 'Idempotency-Key': key })).body.error.code).toBe('idempotency_in_progress');
    await alarm(m);
    const told = await upstream(() => call(m, 'POST', '/v1/video/generations', BODY, { 'Idempotency-Key': key }));
    expect(told.value.status).toBe(409);
    expect(told.value.body.error).toMatchObject({ code: 'create_outcome_unknown', message: expect.stringContaining('safe to retry') });
    expect(told.calls('v1-create')).toBe(0);
    const again = await upstream(() => call(m, 'POST', '/v1/video/generations', BODY, { 'Idempotency-Key': key }));
    expect(again.value.status).toBe(200);
    expect(again.calls('v1-create')).toBe(1);
    // And that create is kept under the key as any other.
    const replay = await upstream(() => call(m, 'POST', '/v1/video/generations', BODY, { 'Idempotency-Key': key }));
    expect(replay.value.body.id).toBe(again.value.body.id);
    expect(replay.calls('v1-create')).toBe(0);
  });

  it('not before its deadline (UPSTREAM_TIMEOUT_MS + one tracking interval), and the alarm is armed for it', async () => {
    await priceModel(1);
    const m = await member();
    await cutOff(m, null, 0);
    const [row] = await memberRows<{ started_at: number; deadline_at: number }>(m, 'SELECT started_at, deadline_at FROM creates_in_flight');
    expect(row!.deadline_at - row!.started_at).toBe(BOUND);
    await alarm(m);
    expect(await usage(m)).toMatchObject({ reserved: 5, running: 1 });
    const armed = await runInDurableObject(memberObject(proxyEnv, m.id), (_i, state) => state.storage.getAlarm());
    expect(armed).toBe(row!.deadline_at);
    await memberRows(m, 'UPDATE creates_in_flight SET deadline_at = ?', Date.now() - 1);
    await alarm(m);
    expect(await usage(m)).toMatchObject({ reserved: 0, running: 0 });
  });

  it('a create still running in this instance is not resolved; once it ends without its release, it is', async () => {
    await priceModel(1);
    const m = await member();
    const reservation = await ledgerObject(proxyEnv).reserve(m.id, { model: MODEL, duration: 5 });
    if (!reservation.ok) throw new Error('not reserved');
    await inObject(m, async (creates) => {
      creates.begin(reservation.id, null, MODEL, Date.now() - BOUND - 1);
      await creates.sweep();
      expect(await ledgerObject(proxyEnv).memberBudget(m.id)).toMatchObject({ reserved: 5, running: 1 });
      // Its release failed (the ledger was out of reach): the row stays for the alarm.
      creates.end(reservation.id, false);
      await creates.sweep(Date.now() + BOUND);
    });
    expect(await usage(m)).toMatchObject({ reserved: 0, running: 0 });
  });

  it('a create the service accepted before the stop is not unknown: the key answers its task, the reservation stays', async () => {
    await priceModel(1);
    const m = await member();
    const key = `k-${crypto.randomUUID()}`;
    const reservation = await cutOff(m, key);
    const body = '{"id":"cgt-accepted","object":"video","status":"queued"}';
    await memberRows(
      m,
      "INSERT INTO tasks (id, reservation, cost, currency, priced, status, body, refreshed_at, next_check_at, tracking, created_at) VALUES ('cgt-accepted', ?, 5000000, 'CNY', 1, 'queued', ?, ?, NULL, 'tracking', ?)",
      reservation.id, body, Date.now(), Date.now(),
    );
    await memberRows(m, "INSERT INTO owned (kind, id, created_at) VALUES ('task', 'cgt-accepted', ?)", Date.now());
    await alarm(m);
    expect(await unknownEntries(m)).toEqual([]);
    expect(await usage(m)).toMatchObject({ reserved: 5, running: 1 });
    const replay = await upstream(() => call(m, 'POST', '/v1/video/generations', BODY, { 'Idempotency-Key': key }));
    expect(replay.value.status).toBe(200);
    expect(replay.value.body).toMatchObject({ id: 'cgt-accepted', arkbridge: { cost: 5, currency: 'CNY', priced: true } });
    expect(replay.calls('v1-create')).toBe(0);
    await ledgerObject(proxyEnv).release(reservation.id);
  });

  it('creates that end leave nothing in flight: accepted, refused by the service', async () => {
    const m = await member();
    expect((await create(m, 5, { 'Idempotency-Key': `k-${crypto.randomUUID()}` })).status).toBe(200);
    await sandbox.fault({ target: 'v1-create', status: 500, count: 1 });
    expect((await create(m, 5)).status).toBe(500);
    expect(await memberRows(m, 'SELECT * FROM creates_in_flight')).toEqual([]);
    expect(await usage(m)).toMatchObject({ running: 1 });
  });
});
