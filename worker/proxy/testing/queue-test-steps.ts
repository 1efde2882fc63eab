import { createExecutionContext, runInDurableObject, waitOnExecutionContext } from 'cloudflare:test';
import { expect, vi } from 'vitest';
import app from '../index';
import { queueObject } from '../objects/handles';
import { call, proxyEnv, recordSeen, sandboxUrl, type Member } from './proxy-test-client';
import { MODEL } from './proxy-test-steps';

/** Steps of the queue's HTTP tests (docs/queue.md): creates at a cap, the queue object's storage and alarm. */

export const PREFER = { Prefer: 'respond-async' } as const;

/** A create through the Worker with UPSTREAM_MAX_RUNNING at `cap` for this call (the queue keeps the cap it was last given). */
export async function createAt(cap: string, m: Member, headers: Record<string, string> = {}) {
  const ctx = createExecutionContext();
  const request = new Request('https://proxy.test/v1/video/generations', {
    method: 'POST',
    headers: { Authorization: `Bearer ${m.token}`, 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ model: MODEL, prompt: 'queued kite', duration: 5 }),
  });
  const response = await app.fetch(request, { ...proxyEnv, UPSTREAM_MAX_RUNNING: cap }, ctx);
  await waitOnExecutionContext(ctx);
  const text = await response.text();
  recordSeen(`${response.status} ${JSON.stringify([...response.headers])} ${text}`);
  return { status: response.status, headers: response.headers, body: JSON.parse(text) };
}

/** Rows of the team queue's storage. */
export const queueRows = <T = Record<string, unknown>>(query: string, ...bindings: unknown[]): Promise<T[]> =>
  runInDurableObject(queueObject(proxyEnv), (_instance, state) => state.storage.sql.exec(query, ...bindings).toArray() as T[]);

/** The queue's backoff as stored. */
export const queueState = async () => (await queueRows<{ backoff_until: number; attempts: number }>('SELECT backoff_until, attempts FROM queue_state'))[0]!;

/** Runs the queue's alarm now (a pass already under way is joined). `endBackoff`: as if the team's wait were over. */
export async function runQueue(options: { endBackoff?: boolean } = {}): Promise<void> {
  await runInDurableObject(queueObject(proxyEnv), async (instance, state) => {
    if (options.endBackoff) state.storage.sql.exec('UPDATE queue_state SET backoff_until = 0');
    await instance.alarm();
  });
}

/**
 * Holds the queue's clock (the time its backoff is compared against) at its present reading, so
 * that a backoff ends only when the test moves it: the queue's alarm, which the runtime fires on the
 * machine's clock, then finds the team still waiting however long a loaded machine stalls between
 * two steps. `release` gives the queue the machine's clock again.
 */
export async function holdQueueClock(): Promise<{ start: number; set(at: number): void; release(): Promise<void> }> {
  let held = Date.now();
  const start = held;
  const use = (clock: () => number) => runInDurableObject(queueObject(proxyEnv), (instance) => void (instance.clock = clock));
  await use(() => held);
  return { start, set: (at) => void (held = at), release: () => use(() => Date.now()) };
}

/** One of the member's items, as they read it. */
export async function queueItem(m: Member, id: string) {
  const r = await call(m, 'GET', `/proxy/queue/${id}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

/** Runs `step` (a queue pass, tasks ended...) until `check` holds; bounded, failing with the last assertion. */
export const until = <T>(step: () => Promise<T>, timeout = 20_000) => vi.waitFor(step, { timeout, interval: 100 });

/** The sandbox account's own limit of tasks running at once (null: the setting again). */
export async function sandboxLimit(maxRunning: number | null): Promise<void> {
  const r = await fetch(`${sandboxUrl}/sandbox/limits`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ account: 'dev', maxRunning }) });
  if (!r.ok) throw new Error(`limit not set: ${await r.text()}`);
}

/**
 * Stops (or restarts) the sandbox's clock: tasks end only when a test moves it, so that no task ends
 * (and no queued create launches) on its own while a loaded machine stalls between two steps.
 */
export async function freezeSandbox(freeze: boolean): Promise<void> {
  const r = await fetch(`${sandboxUrl}/sandbox/clock`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ advanceSeconds: 0, freeze }) });
  if (!r.ok) throw new Error(`clock not set: ${await r.text()}`);
}
