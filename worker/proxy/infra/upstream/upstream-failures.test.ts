import { describe, expect, it } from 'vitest';
import { api, call, PAST_DEADLINE_MS, sandbox, waitFor, type Member } from '../../testing/proxy-test-client';
import { group, member, memberRows, MODEL, noUpstream, staleRecord, upstream } from '../../testing/proxy-test-steps';

/**
 * What the member sees when the service fails (docs/proxy-api.md): 429 passes through with
 * Retry-After and is never retried by the proxy; 5xx become readable errors with the status kept;
 * a create that outlives UPSTREAM_TIMEOUT_MS (5 s in tests) answers 504 and goes on.
 */

const BODY = { model: MODEL, prompt: 'a storm over the sea' };
const create = (m: Member, key?: string) => call(m, 'POST', '/v1/video/generations', BODY, key ? { 'Idempotency-Key': key } : {});

describe('429 from the service', () => {
  it('/api/v3: passed through with Retry-After; the proxy does not retry', async () => {
    const m = await member();
    const g = await group(m);
    await sandbox.fault({ target: 'api/v3', status: 429, retryAfter: 17, count: 1 });
    const { value: r, calls } = await upstream(() => api(m, 'GetAssetGroup', { Id: g }));
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('17');
    expect(r.error?.Code).toBe('RequestLimitExceeded');
    expect(r.envelope.ResponseMetadata.Action).toBe('GetAssetGroup');
    expect(calls('api/v3')).toBe(1);
    // The next call goes through.
    expect((await api(m, 'GetAssetGroup', { Id: g })).result.Id).toBe(g);
  });

  it('/api/v3 create: passed through, one upstream call', async () => {
    const m = await member();
    await sandbox.fault({ target: 'api/v3', status: 429, retryAfter: 4, count: 1 });
    const { value: r, calls } = await upstream(() => api(m, 'CreateAssetGroup', { Name: 'x' }));
    expect([r.status, r.headers.get('retry-after'), r.error?.Code]).toEqual([429, '4', 'RequestLimitExceeded']);
    expect(calls('api/v3', 'CreateAssetGroup')).toBe(1);
    // Nothing was created or recorded as owned.
    expect(await memberRows(m, 'SELECT * FROM owned')).toEqual([]);
  });

  it('/v1 create: passed through with Retry-After and the service error; the proxy does not retry', async () => {
    const m = await member();
    // Two 429s are armed: a retry by the proxy would use up the second, and the next create would pass.
    await sandbox.fault({ target: 'v1-create', status: 429, retryAfter: 30, count: 2 });
    const { value: r, calls } = await upstream(() => create(m));
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('30');
    expect(r.body.error).toMatchObject({ code: 'rate_limited', type: 'rate_limit_error' });
    expect(calls('v1-create', 'POST')).toBe(1);
    const { value: next, calls: nextCalls } = await upstream(() => create(m));
    expect(next.status, 'the second 429 was still armed: nothing retried in between').toBe(429);
    expect(nextCalls('v1-create', 'POST')).toBe(1);
  });

  it('Retry-After is readable by the extension (exposed through CORS)', async () => {
    const m = await member();
    await sandbox.fault({ target: 'v1-create', status: 429, retryAfter: 9, count: 1 });
    const r = await call(m, 'POST', '/v1/video/generations', BODY, { Origin: 'chrome-extension://abcdefghijklmnop' });
    expect(r.status).toBe(429);
    expect(r.headers.get('access-control-expose-headers')?.toLowerCase()).toContain('retry-after');
  });
});

describe('5xx from the service', () => {
  it.each([
    [500, 'InternalError'],
    [503, 'ServiceUnavailable'],
  ])('/api/v3 %i: a failure envelope with a readable message, status kept', async (status, code) => {
    const m = await member();
    const g = await group(m);
    await sandbox.fault({ target: 'api/v3', status, count: 1 });
    const { value: r, calls } = await upstream(() => api(m, 'GetAssetGroup', { Id: g }));
    expect(r.status).toBe(status);
    expect(r.error?.Code).toBe(code);
    expect(r.error?.Message).toContain(`HTTP ${status}`);
    expect(r.error?.Message).toMatch(/try again/i);
    expect(r.envelope.ResponseMetadata).toMatchObject({ Action: 'GetAssetGroup', Version: '2024-01-01' });
    expect(r.envelope.Result).toBeUndefined();
    expect(calls('api/v3')).toBe(1);
  });

  it.each([
    ['v1-create', 500, 'internal_error'],
    ['v1-create', 503, 'model_unavailable'],
    ['v1-get', 500, 'internal_error'],
    ['v1-get', 503, 'model_unavailable'],
    ['v1-models', 503, 'model_unavailable'],
  ])('%s %i: an error object with code and a readable message, status kept, no retry', async (target, status, code) => {
    const m = await member();
    const taskId = target === 'v1-get' ? (await create(m)).body.id : null;
    if (taskId) await staleRecord(m, taskId);
    await sandbox.fault({ target, status, count: 1 });
    const { value: r, calls } = await upstream(() =>
      target === 'v1-create' ? create(m) : target === 'v1-get' ? call(m, 'GET', `/v1/video/generations/${taskId}`) : call(m, 'GET', '/v1/models'),
    );
    expect(r.status).toBe(status);
    expect(r.body.error).toMatchObject({ code, type: expect.any(String), message: expect.stringContaining(`HTTP ${status}`) });
    expect(calls(target)).toBe(1);
  });

  it('a failed create with 500 records no task: a GET of nothing stays not found', async () => {
    const m = await member();
    await sandbox.fault({ target: 'v1-create', status: 500, count: 1 });
    expect((await create(m)).status).toBe(500);
    expect(await memberRows(m, "SELECT * FROM owned WHERE kind = 'task'")).toEqual([]);
  });
});

describe('a slow service on create', () => {
  it('/v1: 504 upstream_timeout telling to retry with the same key; the retry returns the task, one upstream create', async () => {
    const m = await member();
    const key = `slow-${crypto.randomUUID()}`;
    await sandbox.fault({ target: 'v1-create', status: 200, delayMs: PAST_DEADLINE_MS, count: 1 });
    const before = await sandbox.stats();
    const r = await create(m, key);
    expect(r.status).toBe(504);
    expect(r.body.error).toMatchObject({ code: 'upstream_timeout' });
    expect(r.body.error.message).toMatch(/same Idempotency-Key/);
    // Answered while the service still works on the create, not once it is done: the key's record
    // is still in progress and no task is the member's yet.
    expect(await memberRows(m, 'SELECT state FROM idempotency WHERE key = ?', `video:${key}`)).toEqual([{ state: 'in_progress' }]);
    expect(await memberRows(m, "SELECT id FROM owned WHERE kind = 'task'")).toEqual([]);

    // While the service is still working, the key is in progress.
    const early = await create(m, key);
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('idempotency_in_progress');

    const done = await waitFor(() => create(m, key), (x) => x.status === 200, 10_000);
    expect(done.body).toMatchObject({ id: expect.any(String), status: 'queued' });
    const after = await sandbox.stats();
    expect((after['v1-create']?.actions.POST ?? 0) - (before['v1-create']?.actions.POST ?? 0)).toBe(1);
    // The task is the member's.
    expect((await call(m, 'GET', `/v1/video/generations/${done.body.id}`)).status).toBe(200);
  });

  it('/v1 without a key: 504 that says to send an Idempotency-Key; the task still becomes the member\'s', async () => {
    const m = await member();
    await sandbox.fault({ target: 'v1-create', status: 200, delayMs: PAST_DEADLINE_MS, count: 1 });
    const r = await create(m);
    expect(r.status).toBe(504);
    expect(r.body.error.code).toBe('upstream_timeout');
    expect(r.body.error.message).toMatch(/Idempotency-Key/);
    const owned = await waitFor(() => memberRows(m, "SELECT id FROM owned WHERE kind = 'task'"), (rows) => rows.length === 1, 10_000);
    expect((await call(m, 'GET', `/v1/video/generations/${owned[0]!.id}`)).status).toBe(200);
  });

  it('/api/v3 CreateAssetGroup: 504 UpstreamTimeout; the retry with the same key returns the group, one upstream create', async () => {
    const m = await member();
    const key = `slow-${crypto.randomUUID()}`;
    await sandbox.fault({ target: 'api/v3', status: 200, delayMs: PAST_DEADLINE_MS, count: 1 });
    const { value: r, calls } = await upstream(async () => {
      const first = await api(m, 'CreateAssetGroup', { Name: 'slow' }, { idempotencyKey: key });
      expect(first.status).toBe(504);
      expect(first.error?.Code).toBe('UpstreamTimeout');
      expect(first.error?.Message).toMatch(/same Idempotency-Key/);
      expect(first.envelope.ResponseMetadata.Action).toBe('CreateAssetGroup');
      return waitFor(() => api(m, 'CreateAssetGroup', { Name: 'slow' }, { idempotencyKey: key }), (x) => x.status === 200, 10_000);
    });
    expect(r.error).toBeUndefined();
    expect(calls('api/v3', 'CreateAssetGroup')).toBe(1);
    expect((await api(m, 'GetAssetGroup', { Id: r.result.Id })).result.Name).toBe('slow');
    // The retry after completion is a replay.
    expect((await noUpstream(() => api(m, 'CreateAssetGroup', { Name: 'slow' }, { idempotencyKey: key }))).result.Id).toBe(r.result.Id);
  });

  it('a slow read within the deadline still answers (past it: 504, see hardening.test.ts)', async () => {
    const m = await member();
    const g = await group(m);
    await sandbox.fault({ target: 'api/v3', status: 200, delayMs: 900, count: 1 });
    const r = await api(m, 'GetAssetGroup', { Id: g });
    expect(r.status).toBe(200);
    expect(r.result.Id).toBe(g);
  });
});
