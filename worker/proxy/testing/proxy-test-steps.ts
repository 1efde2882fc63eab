import { runInDurableObject } from 'cloudflare:test';
import { expect } from 'vitest';
import { addMember, api, call, mediaUrl, proxyEnv, sandbox, sandboxUrl, waitFor, type Member } from './proxy-test-client';
import { memberObject } from '../objects/handles';
import { memberTokens, partnerTokens } from './leak-guard';

/**
 * Shared steps of the proxy's integration tests: fresh members, upstream call counting as deltas
 * of the sandbox's stats, and reads of a member's Durable Object storage.
 */

export type Stats = Awaited<ReturnType<typeof sandbox.stats>>;

export const MODEL = 'doubao-seedance-2-0-260128';
export const PNG = () => `${mediaUrl}/media/sample.png`;
export const MP4 = () => `${mediaUrl}/media/sample.mp4`;

/** A fresh member whose token the leak guard watches. */
export async function member(name = 'member'): Promise<Member> {
  const m = await addMember(name);
  memberTokens.push(m.token);
  return m;
}

/** Calls to `target` (and `action`, e.g. an `/api/v3` operation or `POST`) in a stats snapshot. */
export function count(stats: Stats, target?: string, action?: string): number {
  if (!target) return Object.values(stats).reduce((sum, t) => sum + t.total, 0);
  const entry = stats[target];
  if (!entry) return 0;
  return action ? (entry.actions[action] ?? 0) : entry.total;
}

/** Runs `fn` and counts the upstream calls the sandbox saw meanwhile (all targets when none is named). */
export async function upstream<T>(fn: () => Promise<T>): Promise<{ value: T; calls: (target?: string, action?: string) => number }> {
  const before = await sandbox.stats();
  const value = await fn();
  const after = await sandbox.stats();
  return { value, calls: (target, action) => count(after, target, action) - count(before, target, action) };
}

/** Asserts that `fn` made no upstream call at all, and returns its value. */
export async function noUpstream<T>(fn: () => Promise<T>): Promise<T> {
  const before = await sandbox.stats();
  const value = await fn();
  const after = await sandbox.stats();
  // Named by target and action, so that a failure says which call it was (a background one of a task still followed?).
  const made = Object.entries(after).flatMap(([target, { actions }]) =>
    Object.entries(actions).flatMap(([action, n]) => (n > (before[target]?.actions[action] ?? 0) ? [`${target} ${action}: ${n - (before[target]?.actions[action] ?? 0)}`] : [])),
  );
  expect(made, 'upstream calls').toEqual([]);
  return value;
}

/** A group of `m` (through the proxy). */
export async function group(m: Member, name = 'Refs'): Promise<string> {
  const r = await api(m, 'CreateAssetGroup', { Name: name });
  expect(r.error, JSON.stringify(r.envelope)).toBeUndefined();
  return r.result.Id as string;
}

/** An image asset of `m` in `groupId` (Processing for about a second). */
export async function asset(m: Member, groupId: string, name = 'png'): Promise<string> {
  const r = await api(m, 'CreateAsset', { GroupId: groupId, AssetType: 'Image', Name: name, URL: PNG() });
  expect(r.error, JSON.stringify(r.envelope)).toBeUndefined();
  return r.result.Id as string;
}

/**
 * A media address whose download the media server holds until `release()` (which waits for the
 * download to have begun): an asset made from it stays Processing for as long as the test needs,
 * however loaded the machine.
 */
export function heldMedia(): { url: string; release(): Promise<void> } {
  const key = `held-${crypto.randomUUID().slice(0, 12)}`;
  return {
    url: `${mediaUrl}/held/${key}/sample.png`,
    release: async () => {
      await waitFor(() => fetch(`${mediaUrl}/held/${key}`).then((w) => w.json() as Promise<{ waiting: number }>), (w) => w.waiting > 0);
      expect((await fetch(`${mediaUrl}/release/${key}`, { method: 'POST' })).status).toBe(200);
    },
  };
}

/** An image asset of `m` made from heldMedia(): Processing until `release()`. */
export async function heldAsset(m: Member, groupId: string, name = 'png'): Promise<{ id: string; release(): Promise<void> }> {
  const held = heldMedia();
  const r = await api(m, 'CreateAsset', { GroupId: groupId, AssetType: 'Image', Name: name, URL: held.url });
  expect(r.error, JSON.stringify(r.envelope)).toBeUndefined();
  return { id: r.result.Id as string, release: held.release };
}

export const untilActive = (m: Member, assetId: string) =>
  waitFor(() => api(m, 'GetAsset', { Id: assetId }), (r) => r.result?.Status === 'Active' || r.result?.Status === 'Failed');

/** A video task of `m` (text to video). */
export async function task(m: Member, prompt = 'a cat'): Promise<string> {
  const r = await call(m, 'POST', '/v1/video/generations', { model: MODEL, prompt });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.id as string;
}

export async function consent(m: Member): Promise<void> {
  const r = await call(m, 'POST', '/proxy/consents', { scope: 'portrait', rulesVersion: '2026-01' });
  expect(r.status).toBe(201);
}

/** SQL rows of a member's Durable Object. */
export function memberRows<T = Record<string, unknown>>(m: Member | string, query: string, ...bindings: unknown[]): Promise<T[]> {
  const id = typeof m === 'string' ? m : m.id;
  const stub = memberObject(proxyEnv, id);
  return runInDurableObject(stub, (_instance, state) => state.storage.sql.exec(query, ...bindings).toArray() as T[]);
}

/** A pending portrait session of `m` (consent recorded first); the service's token read from storage. */
export async function portraitSession(m: Member): Promise<{ handle: string; h5Link: string; partnerToken: string; result: any }> {
  await consent(m);
  const r = await api(m, 'CreatePortraitSession', {});
  expect(r.error, JSON.stringify(r.envelope)).toBeUndefined();
  const rows = await memberRows<{ partner_token: string }>(m, 'SELECT partner_token FROM portrait_handles WHERE handle = ?', r.result.PartnerToken);
  const partnerToken = rows[0]!.partner_token;
  expect(partnerToken).toBeTruthy();
  partnerTokens.push(partnerToken);
  return { handle: r.result.PartnerToken, h5Link: r.result.H5Link, partnerToken, result: r.result };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Makes the proxy's record of a task stale, so that the next read queries the service (as it would
 * after TRACK_INTERVAL_SECONDS), and holds the tracking alarm off it for a minute so that the read
 * is the one query (a fault injected for it is not taken by the alarm).
 */
export const staleRecord = (m: Member, taskId: string) =>
  memberRows(m, 'UPDATE tasks SET refreshed_at = 0, next_check_at = ? WHERE id = ?', Date.now() + 60_000, taskId);

/** Runs a member's tracking alarm now, with every task due (as if its next check had come). */
export async function runTracking(m: Member | string): Promise<void> {
  const id = typeof m === 'string' ? m : m.id;
  const stub = memberObject(proxyEnv, id);
  await runInDurableObject(stub, async (instance, state) => {
    // Due since the epoch, not at 0: the tracker points the alarm at the earliest check while the
    // others are still due, and the runtime refuses an alarm at 0 (an unhandled rejection).
    state.storage.sql.exec('UPDATE tasks SET next_check_at = 1 WHERE next_check_at IS NOT NULL');
    await instance.alarm();
  });
}

/**
 * Makes the member's listing of followed assets due and runs the object's alarm, as it would run by
 * itself ASSET_CHECK_SECONDS after a create: the proxy tests set that to a day, so that followed
 * assets are listed only when a test asks.
 */
export async function runAssetChecks(m: Member | string): Promise<void> {
  const stub = memberObject(proxyEnv, typeof m === 'string' ? m : m.id);
  await runInDurableObject(stub, async (instance, state) => {
    state.storage.sql.exec('UPDATE asset_watch SET next_at = 1 WHERE next_at IS NOT NULL');
    await instance.alarm();
  });
}

/** Moves the sandbox's clock forward (tasks and assets progress with it). */
export async function advanceSandbox(seconds: number): Promise<void> {
  const r = await fetch(`${sandboxUrl}/sandbox/clock`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ advanceSeconds: seconds }) });
  if (!r.ok) throw new Error(`clock not moved: ${await r.text()}`);
}
