import { describe, expect, it } from 'vitest';
import { api, call, sandbox, type Member } from '../../testing/proxy-test-client';
import { finishTasks } from '../../testing/gateway-test-steps';
import { asset, group, heldAsset, member, memberRows, MODEL, noUpstream, PNG, untilActive, upstream } from '../../testing/proxy-test-steps';

/** Idempotency-Key on creates (docs/proxy-api.md). */

const create = (m: Member, body: unknown, key?: string) =>
  call(m, 'POST', '/v1/video/generations', body, key === undefined ? {} : { 'Idempotency-Key': key });
const key = () => `key-${crypto.randomUUID()}`;
const BODY = { model: MODEL, prompt: 'a lighthouse at dusk', ratio: '16:9' };

const storedKeys = async (m: Member) => (await memberRows<{ key: string }>(m, 'SELECT key FROM idempotency')).map((r) => r.key);

describe('POST /v1/video/generations with Idempotency-Key', () => {
  it.each([
    ['a fast service', 0],
    ['a slow service (every retry arrives while the first is running)', 800],
  ])('100 concurrent identical requests with one key make exactly one upstream task (%s)', async (_what, delayMs) => {
    const m = await member();
    const k = key();
    if (delayMs) await sandbox.fault({ target: 'v1-create', status: 200, delayMs, count: 1 });
    const { value: answers, calls } = await upstream(() => Promise.all(Array.from({ length: 100 }, () => create(m, BODY, k))));
    expect(calls('v1-create', 'POST')).toBe(1);
    const ok = answers.filter((a) => a.status === 200);
    const busy = answers.filter((a) => a.status === 409);
    expect(ok.length + busy.length, JSON.stringify(answers.filter((a) => a.status !== 200 && a.status !== 409).map((a) => a.body))).toBe(100);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    const ids = new Set(ok.map((a) => a.body.id));
    expect(ids.size).toBe(1);
    for (const a of busy) expect(a.body.error).toMatchObject({ code: 'idempotency_in_progress', type: 'invalid_request_error' });
    if (delayMs) expect(busy.length).toBeGreaterThan(0);
    // Afterwards the key replays the one task (ended first: its tracking would ask the service meanwhile).
    await finishTasks(m);
    const again = await noUpstream(() => create(m, BODY, k));
    expect(again.status).toBe(200);
    expect(again.body.id).toBe([...ids][0]);
  });

  it('a replay after completion returns the original response and creates nothing upstream', async () => {
    const m = await member();
    const k = key();
    const first = await create(m, BODY, k);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id: expect.any(String), task_id: first.body.id, object: 'video', model: MODEL, status: 'queued', progress: 0 });
    // Ended first: while running, the member's object asks the service about it every second (a call in the count).
    await finishTasks(m);
    const replay = await noUpstream(() => create(m, BODY, k));
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    // Key order and whitespace do not make a different request.
    const reordered = await noUpstream(() => create(m, `{ "ratio":"16:9",  "prompt":"a lighthouse at dusk", "model":"${MODEL}" }`, k));
    expect(reordered.body).toEqual(first.body);
  });

  it('without a key, two identical requests make two tasks', async () => {
    const m = await member();
    const { value, calls } = await upstream(async () => [await create(m, BODY), await create(m, BODY)]);
    expect(calls('v1-create', 'POST')).toBe(2);
    expect(value[0]!.body.id).not.toBe(value[1]!.body.id);
  });

  it('the same key with a different body: 422 idempotency_key_reused, nothing sent upstream', async () => {
    const m = await member();
    const k = key();
    const first = await create(m, BODY, k);
    // Ended first: while running, the member's object asks the service about it every second (a call in the count).
    await finishTasks(m);
    const r = await noUpstream(() => create(m, { ...BODY, prompt: 'something else' }, k));
    expect(r.status).toBe(422);
    expect(r.body.error).toMatchObject({ code: 'idempotency_key_reused', type: 'invalid_request_error' });
    // The original stays replayable.
    expect((await create(m, BODY, k)).body.id).toBe(first.body.id);
  });

  it('a request rejected by the checks (400) is not stored: the key can be used again', async () => {
    const m = await member();
    const k = key();
    const bad = await noUpstream(() => create(m, { model: MODEL, prompt: '' }, k));
    expect(bad.status).toBe(400);
    expect(await storedKeys(m)).toEqual([]);
    const { value: good, calls } = await upstream(() => create(m, BODY, k));
    expect(good.status).toBe(200);
    expect(calls('v1-create', 'POST')).toBe(1);
  });

  it('a request rate-limited by the service (429) is not stored: a retry with the same key creates the task', async () => {
    const m = await member();
    const k = key();
    await sandbox.fault({ target: 'v1-create', status: 429, retryAfter: 3, count: 1 });
    const { value: limited, calls: first } = await upstream(() => create(m, BODY, k));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(first('v1-create', 'POST')).toBe(1);
    expect(await storedKeys(m)).toEqual([]);
    const { value: retried, calls } = await upstream(() => create(m, BODY, k));
    expect(retried.status).toBe(200);
    expect(retried.body.id).toEqual(expect.any(String));
    expect(calls('v1-create', 'POST')).toBe(1);
    expect(await storedKeys(m)).toEqual([`video:${k}`]);
  });

  it('an asset:// reference not yet Active (409 asset_not_ready) is not stored: the same key works once it is', async () => {
    const m = await member();
    const held = await heldAsset(m, await group(m));
    const a = held.id;
    const k = key();
    const body = { model: MODEL, content: [{ type: 'text', text: 'x' }, { type: 'image_url', image_url: { url: `asset://${a}` }, role: 'reference_image' }] };
    const early = await create(m, body, k);
    expect([early.status, early.body.error?.code]).toEqual([409, 'asset_not_ready']);
    expect(await storedKeys(m)).toEqual([]);
    await held.release();
    await untilActive(m, a);
    const { value: later, calls } = await upstream(() => create(m, body, k));
    expect(later.status).toBe(200);
    expect(calls('v1-create', 'POST')).toBe(1);
  });

  it('a service failure (500) is not stored either', async () => {
    const m = await member();
    const k = key();
    await sandbox.fault({ target: 'v1-create', status: 500, count: 1 });
    expect((await create(m, BODY, k)).status).toBe(500);
    const retried = await create(m, BODY, k);
    expect(retried.status).toBe(200);
  });

  it('keys are per member: another member using the same key and body gets a task of their own', async () => {
    const a = await member('a');
    const b = await member('b');
    const k = key();
    const ra = await create(a, BODY, k);
    const { value: rb, calls } = await upstream(() => create(b, BODY, k));
    expect(rb.status).toBe(200);
    expect(calls('v1-create', 'POST')).toBe(1);
    expect(rb.body.id).not.toBe(ra.body.id);
    // Each reads only their own.
    expect((await call(b, 'GET', `/v1/video/generations/${ra.body.id}`)).status).toBe(404);
    expect((await call(b, 'GET', `/v1/video/generations/${rb.body.id}`)).status).toBe(200);
  });

  it('a key of 1 to 255 visible characters is accepted; longer is refused with 400 before any upstream call', async () => {
    const m = await member();
    expect((await create(m, BODY, 'k'.repeat(255))).status).toBe(200);
    expect((await create(m, BODY, 'x')).status).toBe(200);
    // Ended first: while running, the member's object asks the service about it every second (a call in the count).
    await finishTasks(m);
    for (const bad of ['k'.repeat(256), '']) {
      const r = await noUpstream(() => create(m, BODY, bad));
      expect(r.status, `key of ${bad.length}`).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'invalid_parameter', type: 'invalid_request_error', param: 'Idempotency-Key' });
    }
  });

  it('records are kept 24 hours: an older one no longer replays', async () => {
    const m = await member();
    const k = key();
    const first = await create(m, BODY, k);
    // Ended first: while running, the member's object asks the service about it every second (a call in the count).
    await finishTasks(m);
    await memberRows(m, 'UPDATE idempotency SET created_at = created_at - ?', 23 * 3600 * 1000);
    expect((await noUpstream(() => create(m, BODY, k))).body.id).toBe(first.body.id);
    await memberRows(m, 'UPDATE idempotency SET created_at = created_at - ?', 2 * 3600 * 1000);
    const { value: fresh, calls } = await upstream(() => create(m, BODY, k));
    expect(calls('v1-create', 'POST')).toBe(1);
    expect(fresh.body.id).not.toBe(first.body.id);
  });
});

describe('CreateAssetGroup and CreateAsset with Idempotency-Key', () => {
  it('concurrent identical CreateAssetGroup calls with one key make one group; the others get 409 IdempotencyInProgress', async () => {
    const m = await member();
    const k = key();
    await sandbox.fault({ target: 'api/v3', status: 200, delayMs: 800, count: 1 });
    const { value: answers, calls } = await upstream(() => Promise.all(Array.from({ length: 30 }, () => api(m, 'CreateAssetGroup', { Name: 'once' }, { idempotencyKey: k }))));
    expect(calls('api/v3', 'CreateAssetGroup')).toBe(1);
    const ok = answers.filter((a) => a.status === 200 && !a.error);
    const busy = answers.filter((a) => a.status === 409);
    expect(ok.length + busy.length).toBe(30);
    expect(busy.length).toBeGreaterThan(0);
    expect(new Set(ok.map((a) => a.result.Id)).size).toBe(1);
    for (const a of busy) {
      expect(a.error?.Code).toBe('IdempotencyInProgress');
      expect(a.envelope.ResponseMetadata.Action).toBe('CreateAssetGroup');
    }
    const list = await api(m, 'ListAssetGroups', {});
    expect(list.result.TotalCount).toBe(1);
    const replay = await noUpstream(() => api(m, 'CreateAssetGroup', { Name: 'once' }, { idempotencyKey: k }));
    expect(replay.result.Id).toBe(ok[0]!.result.Id);
  });

  it.each([
    ['CreateAssetGroup', (_g: string) => ({ Name: 'first' }), (_g: string) => ({ Name: 'second' })],
    ['CreateAsset', (g: string) => ({ GroupId: g, AssetType: 'Image', Name: 'first', URL: PNG() }), (g: string) => ({ GroupId: g, AssetType: 'Image', Name: 'second', URL: PNG() })],
  ])('%s: replay returns the original Id without an upstream call; a different body gets 422 IdempotencyKeyReused', async (operation, body, other) => {
    const m = await member();
    const g = await group(m);
    const k = key();
    const first = await api(m, operation, body(g), { idempotencyKey: k });
    expect(first.error).toBeUndefined();
    const replay = await noUpstream(() => api(m, operation, body(g), { idempotencyKey: k }));
    expect(replay.status).toBe(200);
    expect(replay.envelope).toEqual(first.envelope);
    const reused = await noUpstream(() => api(m, operation, other(g), { idempotencyKey: k }));
    expect(reused.status).toBe(422);
    expect(reused.error?.Code).toBe('IdempotencyKeyReused');
    expect(reused.envelope.ResponseMetadata.Action).toBe(operation);
  });

  it('concurrent identical CreateAsset calls with one key make one asset', async () => {
    const m = await member();
    const g = await group(m);
    const k = key();
    const body = { GroupId: g, AssetType: 'Image', Name: 'once', URL: PNG() };
    await sandbox.fault({ target: 'api/v3', status: 200, delayMs: 800, count: 1 });
    const { value: answers, calls } = await upstream(() => Promise.all(Array.from({ length: 20 }, () => api(m, 'CreateAsset', body, { idempotencyKey: k }))));
    expect(calls('api/v3', 'CreateAsset')).toBe(1);
    const ok = answers.filter((a) => a.status === 200 && !a.error);
    expect(new Set(ok.map((a) => a.result.Id)).size).toBe(1);
    for (const a of answers.filter((x) => x.status !== 200)) expect([a.status, a.error?.Code]).toEqual([409, 'IdempotencyInProgress']);
    expect((await api(m, 'ListAssets', {})).result.TotalCount).toBe(1);
  });

  it('rejected attempts (ValidationError, AccessDenied) are not stored', async () => {
    const m = await member();
    const g = await group(m);
    const k1 = key();
    const bad = await noUpstream(() => api(m, 'CreateAssetGroup', { Name: 'x'.repeat(65) }, { idempotencyKey: k1 }));
    expect(bad.error?.Code).toBe('ValidationError');
    const good = await api(m, 'CreateAssetGroup', { Name: 'fixed' }, { idempotencyKey: k1 });
    expect(good.error).toBeUndefined();

    const k2 = key();
    const denied = await noUpstream(() => api(m, 'CreateAsset', { GroupId: 'group-not-mine', AssetType: 'Image', Name: 'a', URL: PNG() }, { idempotencyKey: k2 }));
    expect(denied.error?.Code).toBe('AccessDenied');
    const fixed = await api(m, 'CreateAsset', { GroupId: g, AssetType: 'Image', Name: 'a', URL: PNG() }, { idempotencyKey: k2 });
    expect(fixed.error).toBeUndefined();
    expect((await storedKeys(m)).sort()).toEqual([`CreateAsset:${k2}`, `CreateAssetGroup:${k1}`].sort());
  });

  it('an attempt rate-limited by the service (429) is not stored: the retry with the same key creates the group', async () => {
    const m = await member();
    const k = key();
    await sandbox.fault({ target: 'api/v3', status: 429, retryAfter: 2, count: 1 });
    const limited = await api(m, 'CreateAssetGroup', { Name: 'later' }, { idempotencyKey: k });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    const { value: retried, calls } = await upstream(() => api(m, 'CreateAssetGroup', { Name: 'later' }, { idempotencyKey: k }));
    expect(retried.error).toBeUndefined();
    expect(calls('api/v3', 'CreateAssetGroup')).toBe(1);
  });

  it('keys are per member', async () => {
    const a = await member('a');
    const b = await member('b');
    const k = key();
    const ga = await api(a, 'CreateAssetGroup', { Name: 'same' }, { idempotencyKey: k });
    const { value: gb, calls } = await upstream(() => api(b, 'CreateAssetGroup', { Name: 'same' }, { idempotencyKey: k }));
    expect(calls('api/v3', 'CreateAssetGroup')).toBe(1);
    expect(gb.result.Id).not.toBe(ga.result.Id);
    expect((await api(b, 'GetAssetGroup', { Id: gb.result.Id })).result.Id).toBe(gb.result.Id);
    expect((await api(b, 'GetAssetGroup', { Id: ga.result.Id })).error?.Code).toBe('AccessDenied');
  });

  it('a key over 255 characters is refused with ValidationError naming Idempotency-Key, before any upstream call', async () => {
    const m = await member();
    const g = await group(m);
    for (const [operation, body] of [['CreateAssetGroup', { Name: 'x' }], ['CreateAsset', { GroupId: g, AssetType: 'Image', Name: 'a', URL: PNG() }]] as const) {
      const r = await noUpstream(() => api(m, operation, body, { idempotencyKey: 'k'.repeat(256) }));
      expect(r.status).toBe(400);
      expect(r.error?.Code).toBe('ValidationError');
      expect(r.error?.Message).toMatch(/^Idempotency-Key/);
    }
    expect((await api(m, 'CreateAssetGroup', { Name: 'ok' }, { idempotencyKey: 'k'.repeat(255) })).error).toBeUndefined();
  });
});
