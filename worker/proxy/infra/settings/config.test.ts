import { createExecutionContext, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { OPEN_SCOPE } from '../../../../shared';
import type { ProxyEnv } from './proxy-env';
import app from '../../index';
import { memberObject } from '../../objects/handles';
import { ledgerPort, queuePort, teamLibraryPort } from '../../objects/object-stubs';
import { TaskTracker } from '../../domain/tracking/task-tracker';
import { AssetFollower } from '../../domain/tracking/asset-follower';
import { RemovalNotes } from '../../domain/sharing/removal-notes';
import { CreatesInFlight } from '../../domain/video/creates-in-flight';
import { handleLibrary } from '../../domain/library/library-handler';
import type { MemberContext } from '../../domain/members/member-context';
import { api, call, mediaUrl, proxyEnv, recordSeen, type Member } from '../../testing/proxy-test-client';
import { group, member, MODEL, noUpstream, PNG } from '../../testing/proxy-test-steps';
import * as video from '../../domain/video/video-handler';

/**
 * Configuration (docs/operating.md, "Configuration") that the test bindings do not exercise: the proxy is driven
 * here with another configuration: the Worker's fetch with other vars, or a member's request
 * handler inside the member's own Durable Object with another env.
 */

async function fetchWith(vars: Partial<ProxyEnv>, path: string, init: RequestInit = {}): Promise<Response> {
  const response = await app.fetch(new Request(new URL(path, 'https://proxy.test'), init), { ...proxyEnv, ...vars }, createExecutionContext());
  recordSeen(`${response.status} ${JSON.stringify([...response.headers])} ${await response.clone().text()}`);
  return response;
}

/** Runs `fn` as the member's request handler inside their object, with `vars` overriding the env. */
function asMember<T>(m: Member, vars: Partial<ProxyEnv>, fn: (ctx: MemberContext) => Promise<T>): Promise<T> {
  const stub = memberObject(proxyEnv, m.id);
  const env = { ...proxyEnv, ...vars };
  return runInDurableObject(stub, (_instance, state) =>
    fn({
      sql: state.storage.sql,
      env,
      memberId: m.id,
      waitUntil: (p) => state.waitUntil(p),
      ledger: () => ledgerPort(env),
      queue: () => queuePort(env),
      team: () => teamLibraryPort(env),
      tracker: new TaskTracker({ sql: state.storage.sql, env, ledger: () => ledgerPort(env), setAlarm: () => undefined, memberId: () => m.id, memberName: () => null }),
      creates: new CreatesInFlight({ sql: state.storage.sql, env, ledger: () => ledgerPort(env), armAlarm: () => undefined }),
      scope: OPEN_SCOPE,
      assets: new AssetFollower({ sql: state.storage.sql, env, wanted: async () => false, ended: () => undefined, armAlarm: () => undefined }),
      removals: new RemovalNotes(state.storage.sql),
    }),
  );
}

const parse = (r: { body: string }) => JSON.parse(r.body);
const bytes = (text: string): ArrayBuffer => new TextEncoder().encode(text).buffer as ArrayBuffer;

describe('ALLOW_HTTP_MEDIA off (the default)', () => {
  it('refuses a plain http:// asset URL with ValidationError naming URL, before any upstream call', async () => {
    const m = await member();
    const g = await group(m);
    const r = await noUpstream(() =>
      asMember(m, { ALLOW_HTTP_MEDIA: undefined }, (ctx) =>
        handleLibrary(ctx, { action: 'CreateAsset', version: '2024-01-01', body: bytes(JSON.stringify({ GroupId: g, AssetType: 'Image', Name: 'a', URL: PNG() })), idempotencyKey: null }),
      ),
    );
    expect(r.status).toBe(400);
    expect(parse(r).ResponseMetadata.Error).toMatchObject({ Code: 'ValidationError', Message: expect.stringMatching(/^URL: .*https:\/\//) });
  });

  it('refuses a plain http:// reference on /v1 with 400 naming the element', async () => {
    const m = await member();
    const body = JSON.stringify({ model: MODEL, content: [{ type: 'text', text: 'x' }, { type: 'image_url', image_url: { url: PNG() }, role: 'reference_image' }] });
    const r = await noUpstream(() => asMember(m, { ALLOW_HTTP_MEDIA: 'off' }, (ctx) => video.createTask(ctx, bytes(body), null)));
    expect(r.status).toBe(400);
    expect(parse(r).error).toMatchObject({ code: 'invalid_parameter', param: 'content[1].image_url' });
    expect(mediaUrl.startsWith('http://')).toBe(true);
  });
});

describe('ALLOWED_ORIGINS', () => {
  it('when set, allows exactly the listed origins (and no longer any extension)', async () => {
    const vars = { ALLOWED_ORIGINS: 'https://app.example, chrome-extension://ourextensionid' };
    const allowed = await fetchWith(vars, '/healthz', { headers: { Origin: 'https://app.example' } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example');
    const ours = await fetchWith(vars, '/healthz', { headers: { Origin: 'chrome-extension://ourextensionid' } });
    expect(ours.headers.get('access-control-allow-origin')).toBe('chrome-extension://ourextensionid');
    const other = await fetchWith(vars, '/healthz', { headers: { Origin: 'chrome-extension://someoneelse' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('GET /healthz with missing configuration', () => {
  it('still answers 200 and names what is missing, never a value', async () => {
    const r = await fetchWith({ VIDEO_API_KEY: '', ADMIN_TOKEN: '' }, '/healthz');
    expect(r.status).toBe(200);
    const body = await r.json();
    expect(body).toEqual({ status: 'ok', config: 'incomplete', missing: ['VIDEO_API_KEY', 'ADMIN_TOKEN'] });
    expect(JSON.stringify(body)).not.toContain(proxyEnv.SECRET_ACCESS_KEY);
  });

  it('an unset ADMIN_TOKEN locks the admin API', async () => {
    const r = await fetchWith({ ADMIN_TOKEN: '' }, '/admin/members', { headers: { Authorization: 'Bearer ' } });
    expect(r.status).toBe(401);
  });
});

describe('MEDIA_URL_SECRET unset: the media store is off, the rest serves', () => {
  it('every media route answers 503 media_store_not_configured; the library still works', async () => {
    const m = await member('no media store');
    const auth = { Authorization: `Bearer ${m.token}` };
    const off = { MEDIA_URL_SECRET: '' };
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const answers = [
      await fetchWith(off, '/proxy/uploads?name=a.png', { method: 'POST', headers: { ...auth, 'Content-Type': 'image/png', 'Content-Length': String(png.length) }, body: png }),
      await fetchWith(off, '/proxy/uploads', { headers: auth }),
      await fetchWith(off, '/proxy/uploads/u_x', { method: 'DELETE', headers: auth }),
      await fetchWith(off, '/media/u_x?expires=1&sig=x'),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('media_store_not_configured');
    }
    const groups = await fetchWith(off, '/api/v3?Action=ListAssetGroups&Version=2024-01-01', { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: '{}' });
    expect(groups.status).toBe(200);
  });
});

describe("the service refusing the proxy's own credentials", () => {
  it('/api/v3: 502 with a message for the operator, never a 401 that would blame the member token', async () => {
    const m = await member();
    await group(m);
    const r = await asMember(m, { SECRET_ACCESS_KEY: 'not-the-secret' }, (ctx) =>
      handleLibrary(ctx, { action: 'ListAssetGroups', version: '2024-01-01', body: bytes('{}'), idempotencyKey: null }),
    );
    expect(r.status).toBe(502);
    const error = parse(r).ResponseMetadata.Error;
    expect(error.Code).toBe('SignatureDoesNotMatch');
    expect(error.Message).toMatch(/operator/);
    expect(r.body).not.toContain('not-the-secret');
    // The member's own token still works with the right configuration.
    expect((await api(m, 'ListAssetGroups', {})).status).toBe(200);
  });

  it('/v1: 502 upstream_unauthorized, never a 401', async () => {
    const m = await member();
    const models = await asMember(m, { VIDEO_API_KEY: 'sk-not-the-key' }, (ctx) => video.listModels(ctx));
    expect(models.status).toBe(502);
    expect(parse(models).error).toMatchObject({ code: 'upstream_unauthorized', message: expect.stringMatching(/VIDEO_API_KEY/) });
    const created = await asMember(m, { VIDEO_API_KEY: 'sk-not-the-key' }, (ctx) => video.createTask(ctx, bytes(JSON.stringify({ model: MODEL, prompt: 'x' })), 'k-401'));
    expect(created.status).toBe(502);
    expect(created.body).not.toContain('sk-not-the-key');
    // Not stored: the same key works once the configuration is right.
    expect((await call(m, 'POST', '/v1/video/generations', { model: MODEL, prompt: 'x' }, { 'Idempotency-Key': 'k-401' })).status).toBe(200);
  });
});

describe('the service unreachable (ASSET_API_BASE / VIDEO_API_BASE pointing nowhere)', () => {
  const NOWHERE = 'http://127.0.0.1:9';

  it('/api/v3: 502 ServiceUnavailable with a readable message; a keyed create is not stored', async () => {
    const m = await member();
    const r = await asMember(m, { ASSET_API_BASE: NOWHERE }, (ctx) =>
      handleLibrary(ctx, { action: 'CreateAssetGroup', version: '2024-01-01', body: bytes(JSON.stringify({ Name: 'x' })), idempotencyKey: 'k-down' }),
    );
    expect(r.status).toBe(502);
    expect(parse(r).ResponseMetadata.Error).toMatchObject({ Code: 'ServiceUnavailable', Message: expect.stringMatching(/could not be reached/) });
    expect((await api(m, 'CreateAssetGroup', { Name: 'x' }, { idempotencyKey: 'k-down' })).error).toBeUndefined();
  });

  it('/v1: 502 with a readable error; a keyed create is not stored', async () => {
    const m = await member();
    const r = await asMember(m, { VIDEO_API_BASE: NOWHERE }, (ctx) => video.createTask(ctx, bytes(JSON.stringify({ model: MODEL, prompt: 'x' })), 'k-down'));
    expect(r.status).toBe(502);
    expect(parse(r).error).toMatchObject({ code: 'internal_error', message: expect.stringMatching(/could not be reached/) });
    expect((await call(m, 'POST', '/v1/video/generations', { model: MODEL, prompt: 'x' }, { 'Idempotency-Key': 'k-down' })).status).toBe(200);
  });
});
