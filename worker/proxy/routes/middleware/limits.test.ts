import { describe, expect, it, vi } from 'vitest';
import { api, call, DEADLINE_WORDS, PAST_DEADLINE_MS, proxyFetch, sandbox, type Member } from '../../testing/proxy-test-client';
import { asset, group, member, MODEL, noUpstream, staleRecord, untilActive, upstream } from '../../testing/proxy-test-steps';

/**
 * What one member (or one unlucky name) must not be able to do to the shared proxy: stall it with
 * a long URL, break answers with a name, crash it with nesting or size, or lose a 429. Each case
 * was reproduced against the proxy before its fix.
 */

const headers = (m: Member, extra: Record<string, string> = {}) => ({ Authorization: `Bearer ${m.token}`, 'Content-Type': 'application/json', ...extra });
const library = (m: Member, action: string, body: BodyInit, extra: Record<string, string> = {}) =>
  proxyFetch(`/api/v3?Action=${encodeURIComponent(action)}&Version=2024-01-01`, { method: 'POST', headers: headers(m, extra), body });
const createVideo = (m: Member, body: BodyInit, extra: Record<string, string> = {}) =>
  proxyFetch('/v1/video/generations', { method: 'POST', headers: headers(m, extra), body });
const deep = (levels: number) => `{"Name":${'['.repeat(levels)}${']'.repeat(levels)}}`;

describe('long URLs', () => {
  it('CreateAsset with a 64 KB URL is refused at once, naming URL and the limit, with no upstream call', async () => {
    const m = await member();
    const g = await group(m);
    const r = await noUpstream(() => api(m, 'CreateAsset', { GroupId: g, AssetType: 'Image', Name: 'long', URL: 'a'.repeat(65_536) }));
    expect(r.status).toBe(400);
    expect(r.error).toEqual({ Code: 'ValidationError', Message: 'URL: must be at most 8192 characters (65536 given).' });
  });

  it('a 1 MB /v1 reference URL is refused naming the element', async () => {
    const m = await member();
    const url = `https://cdn.example.com/${'a'.repeat(1_000_000)}`;
    const r = await noUpstream(() => call(m, 'POST', '/v1/video/generations', { model: MODEL, content: [{ type: 'text', text: 'x' }, { type: 'image_url', image_url: { url }, role: 'reference_image' }] }));
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_parameter', param: 'content[1].image_url' });
    expect(r.body.error.message).toMatch(/^content\[1\]\.image_url: must be at most 8192 characters/);
  });
});

describe('answers pass unaltered', () => {
  it.each([
    'Bearer "x',
    'HMAC-SHA256 "q',
    'Bearer abc sk-abcdefgh AKSANDBOXDEV',
    'abk_m0123456789abcdef_ "quoted" \\ back \u2028 ,',
  ])('a group and an asset named %j come back exactly, in gets and lists', async (name) => {
    const m = await member();
    const g = await group(m, name);
    const a = await asset(m, g, name);
    const gets = [await api(m, 'GetAssetGroup', { Id: g }), await api(m, 'ListAssetGroups', {}), await api(m, 'GetAsset', { Id: a }), await api(m, 'ListAssets', {})];
    for (const r of gets) expect([r.status, r.error]).toEqual([200, undefined]);
    expect(gets[0]!.result.Name).toBe(name);
    expect(gets[1]!.result.Items.map((i: { Name: string }) => i.Name)).toEqual([name]);
    expect(gets[2]!.result.Name).toBe(name);
    expect(gets[3]!.result.Items.map((i: { Name: string }) => i.Name)).toEqual([name]);
  });

  it('the log line of a call still has its secrets removed, field by field', async () => {
    const spy = vi.isMockFunction(console.log) ? vi.mocked(console.log) : vi.spyOn(console, 'log');
    const m = await member();
    const start = spy.mock.calls.length;
    await api(m, `Bearer ${m.token}`, {});
    const lines = spy.mock.calls.slice(start).map((args) => JSON.parse(String(args[0])));
    expect(lines).toHaveLength(1);
    expect(lines[0].operation).toBe('[redacted]');
  });
});

describe('nesting, size and encoding', () => {
  it.each([1_000, 400_000])('%i levels of nesting with an Idempotency-Key: 400 naming the body, nothing kept', async (levels) => {
    const m = await member();
    const r = await noUpstream(() => library(m, 'CreateAssetGroup', deep(levels), { 'Idempotency-Key': 'deep-1' }));
    expect(r.status).toBe(400);
    const envelope = (await r.json()) as any;
    expect(envelope.ResponseMetadata.Error).toEqual({ Code: 'ValidationError', Message: 'body: is nested deeper than 32 levels.' });
    // The same key still works for a real request.
    expect((await api(m, 'CreateAssetGroup', { Name: 'after deep' }, { idempotencyKey: 'deep-1' })).status).toBe(200);
  });

  it('/v1 create nested 100,000 deep with an Idempotency-Key: 400 naming the body', async () => {
    const m = await member();
    const body = `{"model":"${MODEL}","prompt":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const r = await noUpstream(() => createVideo(m, body, { 'Idempotency-Key': 'deep-v1' }));
    expect(r.status).toBe(400);
    expect(((await r.json()) as any).error).toMatchObject({ code: 'invalid_parameter', param: 'body', message: 'body: is nested deeper than 32 levels.' });
  });

  it('a 33 MB body is 413 on /api/v3 and /v1 with the limit stated, before it is read', async () => {
    const m = await member();
    const big = new Uint8Array(33 * 1024 * 1024).fill(0x20);
    const lib = await noUpstream(() => library(m, 'CreateAssetGroup', big));
    expect(lib.status).toBe(413);
    expect(((await lib.json()) as any).ResponseMetadata.Error).toEqual({ Code: 'RequestTooLarge', Message: 'body: must be at most 1 MB (1048576 bytes); send large media by URL.' });
    const v1 = await noUpstream(() => createVideo(m, big));
    expect(v1.status).toBe(413);
    expect(((await v1.json()) as any).error).toMatchObject({ code: 'request_too_large', param: 'body', message: 'body: must be at most 16 MB (16777216 bytes); send large media by URL.' });
  });

  it('a body streamed without Content-Length is cut off at the limit too', async () => {
    const m = await member();
    const chunk = new Uint8Array(256 * 1024).fill(0x20);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 40) return controller.close();
        sent++;
        controller.enqueue(chunk);
      },
    });
    const r = await library(m, 'ListAssets', stream);
    expect(r.status).toBe(413);
    // 1 MB is four chunks; the proxy stopped reading long before the stream's 10 MB.
    expect(sent).toBeLessThan(40);
  });

  it('a 1 MB body is still accepted on /api/v3 (the limit is not below real requests)', async () => {
    const m = await member();
    const r = await api(m, 'ListAssetGroups', {}, { rawBody: `{"PageSize":20${' '.repeat(1024 * 1024 - 20)}}` });
    expect(r.status).toBe(200);
  });

  it.each([
    ['/api/v3', (m: Member, body: Uint8Array) => library(m, 'CreateAssetGroup', body)],
    ['/v1', (m: Member, body: Uint8Array) => createVideo(m, body)],
    ['/proxy/consents', (m: Member, body: Uint8Array) => proxyFetch('/proxy/consents', { method: 'POST', headers: headers(m), body })],
  ] as const)('invalid UTF-8 on %s is refused naming the body, never stored as U+FFFD', async (_route, send) => {
    const m = await member();
    const body = new Uint8Array([...new TextEncoder().encode('{"Name":"caf'), 0xe9, ...new TextEncoder().encode('"}')]);
    const r = await noUpstream(() => send(m, body));
    expect(r.status).toBe(400);
    expect(await r.text()).toContain('body: is not valid UTF-8 text');
    expect((await api(m, 'ListAssetGroups', {})).result.TotalCount).toBe(0);
  });

  it('a 64 KB unknown Action is answered, echoed and logged clipped', async () => {
    const spy = vi.isMockFunction(console.log) ? vi.mocked(console.log) : vi.spyOn(console, 'log');
    const m = await member();
    const start = spy.mock.calls.length;
    const r = await noUpstream(() => api(m, 'X'.repeat(65_536), {}));
    const clipped = `${'X'.repeat(64)}… (65536 characters)`;
    expect(r.status).toBe(400);
    expect(r.error!.Message).toBe(`Action: "${clipped}" is not an operation of the asset library interface.`);
    expect(r.envelope.ResponseMetadata.Action).toBe(clipped);
    const line = JSON.parse(String(spy.mock.calls.slice(start)[0]![0]));
    expect(line.operation).toBe(clipped);
  });
});

describe('a busy or slow service', () => {
  it('a 429 while checking an asset:// reference passes through as 429 with its Retry-After', async () => {
    const m = await member();
    const g = await group(m);
    const a = await asset(m, g);
    await untilActive(m, a);
    await sandbox.fault({ target: 'api/v3', status: 429, retryAfter: 11, count: 1 });
    const { value: r, calls } = await upstream(() =>
      call(m, 'POST', '/v1/video/generations', { model: MODEL, content: [{ type: 'text', text: 'x' }, { type: 'image_url', image_url: { url: `asset://${a}` }, role: 'reference_image' }] }),
    );
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('11');
    expect(r.body.error).toMatchObject({ code: 'rate_limited', type: 'rate_limit_error' });
    expect(calls('v1-create')).toBe(0);
  });

  it('a read the service does not answer within UPSTREAM_TIMEOUT_MS is 504 with a readable message', async () => {
    const m = await member();
    const g = await group(m);
    await sandbox.fault({ target: 'api/v3', status: 200, delayMs: PAST_DEADLINE_MS, count: 1 });
    const r = await api(m, 'GetAssetGroup', { Id: g });
    expect(r.status).toBe(504);
    expect(r.error).toEqual({ Code: 'UpstreamTimeout', Message: `The asset library service did not answer within ${DEADLINE_WORDS}. Try again shortly.` });
  });

  it('a task query the service does not answer in time is 504 upstream_timeout', async () => {
    const m = await member();
    const created = await call(m, 'POST', '/v1/video/generations', { model: MODEL, prompt: 'slow' });
    await staleRecord(m, created.body.id);
    await sandbox.fault({ target: 'v1-get', status: 200, delayMs: PAST_DEADLINE_MS, count: 1 });
    const r = await call(m, 'GET', `/v1/video/generations/${created.body.id}`);
    expect(r.status).toBe(504);
    expect(r.body.error).toMatchObject({ code: 'upstream_timeout', message: `The video service did not answer within ${DEADLINE_WORDS}. Try again shortly.` });
  });

  it('5xx messages end with one full stop', async () => {
    const m = await member();
    const g = await group(m);
    await sandbox.fault({ target: 'api/v3', status: 500, count: 1 });
    const lib = await api(m, 'GetAssetGroup', { Id: g });
    await sandbox.fault({ target: 'v1-models', status: 500, count: 1 });
    const v1 = await call(m, 'GET', '/v1/models');
    for (const message of [lib.error!.Message, v1.body.error.message]) {
      expect(message).toMatch(/HTTP 500/);
      expect(message).not.toContain('..');
    }
  });
});
