import { describe, expect, it, vi } from 'vitest';
import { adminHeaders, api, call, proxyFetch, sandbox } from '../../testing/proxy-test-client';
import { group, member, MODEL } from '../../testing/proxy-test-steps';

/** One JSON line per request: member id, route, operation, status, duration (docs/operating.md, "Logs"). */

const logSpy = () => (vi.isMockFunction(console.log) ? vi.mocked(console.log) : vi.spyOn(console, 'log'));

/** The log lines written while `fn` runs, parsed. */
async function linesOf(fn: () => Promise<unknown>): Promise<Record<string, any>[]> {
  const spy = logSpy();
  const start = spy.mock.calls.length;
  await fn();
  return spy.mock.calls.slice(start).map((args) => {
    expect(args).toHaveLength(1);
    expect(typeof args[0]).toBe('string');
    expect(args[0]).not.toContain('\n');
    return JSON.parse(args[0] as string);
  });
}

describe('request log', () => {
  it.each([
    ['POST /api/v3', 'CreateAssetGroup', 200, (m: any) => api(m, 'CreateAssetGroup', { Name: 'logged' })],
    ['POST /api/v3', 'GetAssetGroup', 403, (m: any) => api(m, 'GetAssetGroup', { Id: 'group-not-mine' })],
    ['POST /api/v3', 'CreateAssetGroup', 400, (m: any) => api(m, 'CreateAssetGroup', { Name: '' })],
    ['GET /v1/models', 'ListModels', 200, (m: any) => call(m, 'GET', '/v1/models')],
    ['POST /v1/video/generations', 'CreateVideoTask', 200, (m: any) => call(m, 'POST', '/v1/video/generations', { model: MODEL, prompt: 'x' })],
    ['POST /v1/video/generations', 'CreateVideoTask', 400, (m: any) => call(m, 'POST', '/v1/video/generations', { model: MODEL })],
    ['GET /v1/video/generations/:id', 'GetVideoTask', 404, (m: any) => call(m, 'GET', '/v1/video/generations/task-unknown')],
  ])('%s (%s, %i): one line with member, route, operation, status and durationMs', async (route, operation, status, run) => {
    const m = await member();
    let answered = 0;
    const lines = await linesOf(async () => {
      answered = (await run(m)).status;
    });
    expect(answered).toBe(status);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ member: m.id, route, operation, status, durationMs: expect.any(Number) });
    expect(lines[0]!.durationMs).toBeGreaterThanOrEqual(0);
    expect(Number.isNaN(Date.parse(lines[0]!.time))).toBe(false);
  });

  it('logs requests without a member too: /healthz, the admin API, refused tokens', async () => {
    const lines = await linesOf(async () => {
      await proxyFetch('/healthz');
      await proxyFetch('/admin/members', { headers: adminHeaders() });
      await api(null, 'ListAssetGroups', {});
      await call('not-a-token', 'GET', '/v1/models');
    });
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatchObject({ route: 'GET /healthz', status: 200 });
    expect(lines[1]).toMatchObject({ route: expect.stringMatching(/^GET \/admin/), status: 200 });
    expect(lines[2]).toMatchObject({ route: expect.stringMatching(/^POST \/api\/v3/), status: 401 });
    expect(lines[3]).toMatchObject({ status: 401 });
    for (const line of lines) {
      expect(line.member).toBeUndefined();
      expect(line.durationMs).toEqual(expect.any(Number));
    }
  });

  it('durationMs covers the upstream call', async () => {
    const m = await member();
    const g = await group(m);
    await sandbox.fault({ target: 'api/v3', status: 200, delayMs: 700, count: 1 });
    const lines = await linesOf(() => api(m, 'GetAssetGroup', { Id: g }));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ member: m.id, operation: 'GetAssetGroup', status: 200 });
    expect(lines[0]!.durationMs).toBeGreaterThanOrEqual(600);
  });

  it('does not log request bodies or headers', async () => {
    const m = await member();
    const lines = await linesOf(() => api(m, 'CreateAssetGroup', { Name: 'private-name-1234', Description: 'private-desc-5678' }));
    const text = JSON.stringify(lines);
    expect(text).not.toContain('private-name-1234');
    expect(text).not.toContain('private-desc-5678');
    expect(text).not.toMatch(/Bearer|authorization/i);
  });
});
