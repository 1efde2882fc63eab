import { describe, expect, it } from 'vitest';
import { api, helper, sandboxFetch, sleep, v1 } from './testing/sandbox-test-client';

/**
 * The sandbox's test helpers: injected faults per target, request statistics and the clock's input
 * checks (moving the clock is in clock.test.ts). Tests in this file run in order and reset the
 * statistics before asserting on them.
 */

const MODEL = 'doubao-seedance-2-0-260128';
const fault = (body: unknown) => helper('POST', '/sandbox/faults', body);

describe('POST /sandbox/faults', () => {
  it('api/v3 429 with retryAfter: RequestLimitExceeded in a failure envelope with Retry-After, once; then normal', async () => {
    expect((await fault({ target: 'api/v3', status: 429, count: 1, retryAfter: 7 })).status).toBe(200);
    const limited = await api('ListAssetGroups', {});
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect(limited.error?.Code).toBe('RequestLimitExceeded');
    expect(limited.envelope.ResponseMetadata).toMatchObject({ Action: 'ListAssetGroups', Version: '2024-01-01', Service: 'ark', Region: 'cn-beijing' });
    expect(limited.envelope).not.toHaveProperty('Result');

    const normal = await api('ListAssetGroups', {});
    expect(normal.status).toBe(200);
    expect(normal.error).toBeUndefined();
    expect(normal.headers.get('retry-after')).toBeNull();
  });

  it('api/v3 with count 2 fails exactly two calls (500 InternalError, no Retry-After), and the operation does not run', async () => {
    await fault({ target: 'api/v3', status: 500, count: 2 });
    const first = await api('CreateAssetGroup', { Name: 'fault-1' });
    const second = await api('CreateAssetGroup', { Name: 'fault-1' });
    for (const res of [first, second]) {
      expect(res.status).toBe(500);
      expect(res.error?.Code).toBe('InternalError');
      expect(res.headers.get('retry-after')).toBeNull();
    }
    const third = await api('ListAssetGroups', { Filter: { Name: 'fault-1' } });
    expect(third.status).toBe(200);
    expect(third.result.TotalCount).toBe(0);
  });

  it('api/v3 503 is ServiceUnavailable', async () => {
    await fault({ target: 'api/v3', status: 503 });
    const res = await api('GetAssetGroup', { Id: 'x' });
    expect(res.status).toBe(503);
    expect(res.error?.Code).toBe('ServiceUnavailable');
  });

  it('v1-create 500: internal_error once, then tasks are created again', async () => {
    await fault({ target: 'v1-create', status: 500, count: 1 });
    const failed = await v1('POST', '/v1/video/generations', { model: MODEL, prompt: 'x' });
    expect(failed.status).toBe(500);
    expect(failed.body.error.code).toBe('internal_error');
    expect(failed.body).not.toHaveProperty('id');
    const ok = await v1('POST', '/v1/video/generations', { model: MODEL, prompt: 'x' });
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe('queued');
  });

  it('v1-create 429 carries Retry-After and rate_limited', async () => {
    await fault({ target: 'v1-create', status: 429, retryAfter: 3 });
    const res = await v1('POST', '/v1/video/generations', { model: MODEL, prompt: 'x' });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('3');
    expect(res.body.error.code).toBe('rate_limited');
  });

  it('v1-models 503: model_unavailable for the set count, then the listing returns', async () => {
    await fault({ target: 'v1-models', status: 503, count: 2 });
    for (let i = 0; i < 2; i++) {
      const res = await v1('GET', '/v1/models');
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('model_unavailable');
    }
    const ok = await v1('GET', '/v1/models');
    expect(ok.status).toBe(200);
    expect(ok.body.data.length).toBeGreaterThan(0);
  });

  it('v1-get 500 fails the query once; the task is intact afterwards', async () => {
    const created = await v1('POST', '/v1/video/generations', { model: MODEL, prompt: 'x' });
    await fault({ target: 'v1-get', status: 500 });
    const failed = await v1('GET', `/v1/video/generations/${created.body.id}`);
    expect(failed.status).toBe(500);
    expect(failed.body.error.code).toBe('internal_error');
    const ok = await v1('GET', `/v1/video/generations/${created.body.id}`);
    expect(ok.status).toBe(200);
    expect(ok.body.id).toBe(created.body.id);
  });

  it('a fault affects only its own target', async () => {
    await fault({ target: 'v1-models', status: 503 });
    expect((await api('ListAssetGroups', {})).status).toBe(200);
    expect((await v1('POST', '/v1/video/generations', { model: MODEL, prompt: 'x' })).status).toBe(200);
    expect((await v1('GET', '/v1/models')).status).toBe(503);
    expect((await v1('GET', '/v1/models')).status).toBe(200);
  });

  it('answers the installed fault with its defaults (count 1, no retryAfter)', async () => {
    const res = await fault({ target: 'v1-get', status: 502 });
    expect(res.body.fault).toMatchObject({ target: 'v1-get', status: 502, count: 1, retryAfter: null });
    // Consume it so later tests start clean.
    expect((await v1('GET', '/v1/video/generations/none')).status).toBe(502);
  });

  it.each([
    ['an unknown target', { target: 'api/v4', status: 500 }, /^target: .*api\/v3/],
    ['a missing target', { status: 500 }, /^target: is required/],
    ['a missing status', { target: 'api/v3' }, /^status: is required/],
    ['a status below 200', { target: 'api/v3', status: 99 }, /^status: .*at least 200/],
    ['a status above 599', { target: 'api/v3', status: 600 }, /^status: .*at most 599/],
    ['a fractional status', { target: 'api/v3', status: 500.5 }, /^status: .*integer/],
    ['status 200 without taskStatus', { target: 'api/v3', status: 200 }, /^status: /],
    ['count 0', { target: 'api/v3', status: 500, count: 0 }, /^count: .*at least 1/],
    ['a string count', { target: 'api/v3', status: 500, count: '2' }, /^count: /],
    ['a negative retryAfter', { target: 'api/v3', status: 429, retryAfter: -1 }, /^retryAfter: /],
    ['an unknown taskStatus', { target: 'v1-get', status: 200, taskStatus: 'lost' }, /^taskStatus: .*unknown/],
    ['an unknown field', { target: 'api/v3', status: 500, colour: 'red' }, /^colour: is not a field/],
    ['a body that is not an object', [1, 2], /^body: /],
    ['malformed JSON', '{"target":', /^body: /],
  ])('rejects %s with 400 naming the field, and installs nothing', async (_what, body, message) => {
    const res = await fault(body);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
    expect((await api('ListAssetGroups', {})).status).toBe(200);
    expect((await v1('GET', '/v1/models')).status).toBe(200);
  });
});

describe('/sandbox/stats', () => {
  it('DELETE resets (204) and GET then shows no counts', async () => {
    await api('ListAssetGroups', {});
    const reset = await sandboxFetch('/sandbox/stats', { method: 'DELETE' });
    expect(reset.status).toBe(204);
    expect((await helper('GET', '/sandbox/stats')).body).toEqual({});
  });

  it('counts requests per target and per action (/api/v3 Action, /v1 method), including rejected and faulted ones', async () => {
    await sandboxFetch('/sandbox/stats', { method: 'DELETE' });
    await api('CreateAssetGroup', { Name: 'stats' });
    await api('CreateAssetGroup', { Name: 'stats' });
    await api('ListAssetGroups', {});
    await api('NoSuchAction', {});
    await api('ListAssetGroups', {}, { tamper: (req) => void (req.headers['X-Date'] = '20000101T000000Z') });
    await v1('GET', '/v1/models');
    await v1('GET', '/v1/models', undefined, null);
    const created = await v1('POST', '/v1/video/generations', { model: MODEL, prompt: 'x' });
    await fault({ target: 'v1-get', status: 500 });
    await v1('GET', `/v1/video/generations/${created.body.id}`);
    await v1('GET', `/v1/video/generations/${created.body.id}`);
    await v1('GET', `/v1/video/generations/${created.body.id}`);

    const stats = (await helper('GET', '/sandbox/stats')).body;
    expect(stats['api/v3']).toEqual({ total: 5, actions: { CreateAssetGroup: 2, ListAssetGroups: 2, NoSuchAction: 1 } });
    expect(stats['v1-models']).toEqual({ total: 2, actions: { GET: 2 } });
    expect(stats['v1-create']).toEqual({ total: 1, actions: { POST: 1 } });
    expect(stats['v1-get']).toEqual({ total: 3, actions: { GET: 3 } });
  });

  it('reading the stats or calling other helpers does not count', async () => {
    await sandboxFetch('/sandbox/stats', { method: 'DELETE' });
    await helper('GET', '/sandbox/stats');
    await helper('POST', '/sandbox/clock', { advanceSeconds: 0 });
    await helper('POST', '/sandbox/faults', { target: 'api/v3', status: 'bad' });
    expect((await helper('GET', '/sandbox/stats')).body).toEqual({});
  });

  it('DELETE after counting resets to empty again', async () => {
    await v1('GET', '/v1/models');
    expect((await helper('GET', '/sandbox/stats')).body['v1-models'].total).toBeGreaterThanOrEqual(1);
    await sandboxFetch('/sandbox/stats', { method: 'DELETE' });
    expect((await helper('GET', '/sandbox/stats')).body).toEqual({});
  });
});

describe('POST /sandbox/clock input checks', () => {
  it.each([
    ['a negative advanceSeconds', { advanceSeconds: -1 }, /^advanceSeconds: .*negative/],
    ['a string advanceSeconds', { advanceSeconds: '10' }, /^advanceSeconds: .*number/],
    ['a missing advanceSeconds', {}, /^advanceSeconds: is required/],
    ['an unknown field', { advanceSeconds: 1, days: 1 }, /^days: is not a field/],
    ['malformed JSON', '{', /^body: /],
  ])('rejects %s with 400 naming the field, and the clock does not move', async (_what, body, message) => {
    const before = (await helper('POST', '/sandbox/clock', { advanceSeconds: 0 })).body.offsetSeconds;
    const res = await helper('POST', '/sandbox/clock', body);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
    expect((await helper('POST', '/sandbox/clock', { advanceSeconds: 0 })).body.offsetSeconds).toBe(before);
  });

  it('advanceSeconds 0 is accepted and changes nothing', async () => {
    const first = await helper('POST', '/sandbox/clock', { advanceSeconds: 0 });
    const before = Date.now();
    const res = await helper('POST', '/sandbox/clock', { advanceSeconds: 0 });
    const after = Date.now();
    expect(res.status).toBe(200);
    expect(typeof res.body.offsetSeconds).toBe('number');
    expect(res.body.offsetSeconds).toBe(first.body.offsetSeconds);
    // The sandbox's now is the real time of the request plus the offset: within the request's span.
    const real = Date.parse(res.body.now) - res.body.offsetSeconds * 1000;
    expect(real).toBeGreaterThanOrEqual(before);
    expect(real).toBeLessThanOrEqual(after);
  });
});

describe('other routes', () => {
  it('GET / describes the sandbox', async () => {
    const res = await helper('GET', '/');
    expect(res.status).toBe(200);
    expect(res.body.interfaces.library).toContain('/api/v3');
  });

  it('an unknown route is a JSON 404', async () => {
    const res = await helper('GET', '/v2/anything');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('not_found');
  });
});

describe('POST /sandbox/clock freeze', () => {
  it('a frozen clock stands still however much real time passes, moves by advanceSeconds, and runs on from there when let go', async () => {
    const frozen = (await helper('POST', '/sandbox/clock', { advanceSeconds: 0, freeze: true })).body;
    expect(frozen.frozen).toBe(true);
    try {
      await sleep(50);
      expect((await helper('POST', '/sandbox/clock', { advanceSeconds: 0 })).body).toMatchObject({ now: frozen.now, frozen: true });
      const moved = (await helper('POST', '/sandbox/clock', { advanceSeconds: 10 })).body;
      expect(Date.parse(moved.now) - Date.parse(frozen.now)).toBe(10_000);
    } finally {
      const released = (await helper('POST', '/sandbox/clock', { advanceSeconds: 0, freeze: false })).body;
      expect(released.frozen).toBe(false);
      // It runs on from the frozen moment (10 s later), not from where real time went meanwhile.
      expect(Date.parse(released.now) - Date.parse(frozen.now)).toBeGreaterThanOrEqual(10_000);
      await sleep(20);
      expect(Date.parse((await helper('POST', '/sandbox/clock', { advanceSeconds: 0 })).body.now)).toBeGreaterThan(Date.parse(released.now));
    }
  });

  it('a non-boolean freeze is 400 naming it', async () => {
    const res = await helper('POST', '/sandbox/clock', { advanceSeconds: 0, freeze: 'yes' });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^freeze: /);
  });
});
