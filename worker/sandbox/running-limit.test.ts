import { afterEach, describe, expect, it } from 'vitest';
import { readTiming } from './sandbox-settings';
import { helper, OTHER, v1, waitFor } from './testing/sandbox-test-client';

/**
 * The account's limit of tasks queued or in progress at once (SANDBOX_MAX_RUNNING, an account's own
 * through POST /sandbox/limits): past it a create is the service's 429 and nothing is created.
 * The `other` account is used so that no task of another file counts.
 */

const MODEL = 'doubao-seedance-2-0-260128';
const create = () => v1('POST', '/v1/video/generations', { model: MODEL, prompt: 'limit' }, OTHER);
const limit = (maxRunning: number | null, account = OTHER.name) => helper('POST', '/sandbox/limits', { account, maxRunning });

afterEach(async () => {
  expect((await limit(null)).status).toBe(200);
});

describe('SANDBOX_MAX_RUNNING', () => {
  it('a create past the limit is 429 rate_limit_exceeded with Retry-After, and creates nothing', async () => {
    // Tasks of earlier tests may still run: the limit counts from what runs now.
    await waitFor(() => limit(1).then(create), (r) => r.status === 200);
    const refused = await create();
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: { code: 'rate_limit_exceeded', message: expect.stringContaining('do not resubmit repeatedly'), type: 'rate_limit_error' } });
    const retryAfter = Number(refused.headers.get('retry-after'));
    // The video time is 4 s in these tests: the running task ends within it.
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(4);
    // Had the refused create made a task, two would run now and this one would be refused too.
    await limit(2);
    expect((await create()).status).toBe(200);
    expect((await create()).status).toBe(429);
  });

  it('a slot frees when a running task ends', async () => {
    await waitFor(() => limit(1).then(create), (r) => r.status === 200);
    expect((await create()).status).toBe(429);
    const next = await waitFor(create, (r) => r.status !== 429);
    expect(next.status).toBe(200);
  });

  it("one account's limit leaves the other's creates alone; 0 is no limit", async () => {
    await limit(0);
    for (let i = 0; i < 3; i++) expect((await create()).status).toBe(200);
    await limit(1, 'dev');
    try {
      expect((await create()).status).toBe(200);
    } finally {
      await limit(null, 'dev');
    }
  });

  it('POST /sandbox/limits names the field it refuses', async () => {
    const negative = await helper('POST', '/sandbox/limits', { account: OTHER.name, maxRunning: -1 });
    expect(negative.status).toBe(400);
    expect(JSON.stringify(negative.body)).toMatch(/maxRunning/);
    const unknown = await helper('POST', '/sandbox/limits', { account: 'nobody', maxRunning: 1 });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toMatch(/account/);
  });

  it('the setting: default 0 (no limit); a malformed value fails loudly', () => {
    expect(readTiming({}).maxRunning).toBe(0);
    expect(readTiming({ SANDBOX_MAX_RUNNING: '3' }).maxRunning).toBe(3);
    expect(() => readTiming({ SANDBOX_MAX_RUNNING: '-1' })).toThrow(/SANDBOX_MAX_RUNNING/);
    expect(() => readTiming({ SANDBOX_MAX_RUNNING: '1.5' })).toThrow(/SANDBOX_MAX_RUNNING/);
  });
});
