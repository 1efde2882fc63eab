import { describe, expect, it } from 'vitest';
import { MODELS } from '../../../../shared';
import { call, proxyFetch } from '../../testing/proxy-test-client';
import { member, noUpstream } from '../../testing/proxy-test-steps';

/** Proxy extras (docs/proxy-api.md: "Member extras", "Health", CORS under "Authentication"). */

describe('GET /proxy/me', () => {
  it('answers the calling member\'s id and name only', async () => {
    const a = await member('Alice A.');
    const b = await member('Bob B.');
    expect((await call(a, 'GET', '/proxy/me')).body).toEqual({ id: a.id, name: 'Alice A.' });
    expect((await call(b, 'GET', '/proxy/me')).body).toEqual({ id: b.id, name: 'Bob B.' });
  });
});

describe('/proxy/consents', () => {
  it('POST records a consent (201) and GET lists the member\'s records', async () => {
    const m = await member();
    const other = await member('other');
    expect((await call(m, 'GET', '/proxy/consents')).body).toEqual({ consents: [] });
    const before = Date.now();
    const r = await noUpstream(() => call(m, 'POST', '/proxy/consents', { scope: 'portrait', rulesVersion: '2026-03' }));
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ scope: 'portrait', rulesVersion: '2026-03', acceptedAt: expect.any(String) });
    expect(Date.parse(r.body.acceptedAt)).toBeGreaterThanOrEqual(before - 1000);
    await call(m, 'POST', '/proxy/consents', { scope: 'portrait', rulesVersion: '2026-04' });
    const list = await call(m, 'GET', '/proxy/consents');
    expect(list.status).toBe(200);
    expect(list.body.consents.map((c: { rulesVersion: string }) => c.rulesVersion)).toEqual(['2026-03', '2026-04']);
    expect(list.body.consents[0]).toEqual(r.body);
    // Another member's list is their own.
    expect((await call(other, 'GET', '/proxy/consents')).body).toEqual({ consents: [] });
  });

  it.each([
    ['an unknown scope', { scope: 'marketing', rulesVersion: '1' }, 'scope'],
    ['no scope', { rulesVersion: '1' }, 'scope'],
    ['no rulesVersion', { scope: 'portrait' }, 'rulesVersion'],
    ['an empty rulesVersion', { scope: 'portrait', rulesVersion: '' }, 'rulesVersion'],
    ['a rulesVersion that is not a string', { scope: 'portrait', rulesVersion: 3 }, 'rulesVersion'],
    ['an unknown field', { scope: 'portrait', rulesVersion: '1', person: 'x' }, 'person'],
    ['malformed JSON', '{"scope":', 'body'],
  ])('refuses %s with 400 naming the field, recording nothing', async (_what, body, field) => {
    const m = await member();
    const r = await call(m, 'POST', '/proxy/consents', body);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_parameter', param: field });
    expect(r.body.error.message.startsWith(`${field}: `)).toBe(true);
    expect((await call(m, 'GET', '/proxy/consents')).body.consents).toEqual([]);
  });
});

describe('GET /proxy/capabilities', () => {
  it('answers the model catalog: parameters with allowed values, reference kinds and counts', async () => {
    const m = await member();
    const r = await noUpstream(() => call(m, 'GET', '/proxy/capabilities'));
    expect(r.status).toBe(200);
    expect(r.body.models).toEqual(JSON.parse(JSON.stringify(MODELS)));
    const byId = new Map<string, any>(r.body.models.map((x: any) => [x.id, x]));
    const v2 = byId.get('doubao-seedance-2-0-260128');
    expect(v2.parameters.resolution).toEqual({ type: 'enum', values: ['480p', '720p', '1080p'] });
    expect(v2.parameters.duration).toMatchObject({ type: 'integer', min: 4, max: 15 });
    expect(v2.parameters.frames).toBeUndefined();
    expect(v2.references).toMatchObject({ images: { max: 9 }, videos: { max: 3 }, audios: { max: 3 }, files: 12 });
    expect(v2.assetRefs).toBe(true);
    const t2v = byId.get('doubao-seedance-1-0-lite-t2v-250428');
    expect(t2v.parameters.frames).toMatchObject({ min: 29, max: 289, step: 4 });
    expect(t2v.references).toBeNull();
    expect(t2v.modes).toEqual(['text']);
    expect(byId.get('doubao-seedance-2-0-fast-260128').parameters.resolution.values).toEqual(['480p', '720p']);
  });

  it('lists every model the service offers', async () => {
    const m = await member();
    const models = await call(m, 'GET', '/v1/models');
    const caps = await call(m, 'GET', '/proxy/capabilities');
    const known = new Set(caps.body.models.map((x: { id: string }) => x.id));
    for (const { id } of models.body.data) expect(known.has(id), id).toBe(true);
  });
});

describe('GET /healthz', () => {
  it('answers 200 without authentication and without an upstream call', async () => {
    const r = await noUpstream(() => proxyFetch('/healthz'));
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ status: 'ok' });
  });
});

describe('CORS', () => {
  it.each(['chrome-extension://abcdefghijklmnopabcdefghijklmnop', 'moz-extension://0b1c2d3e-1111-2222-3333-444455556666'])(
    'allows the extension origin %s by default',
    async (origin) => {
      const m = await member();
      const r = await call(m, 'GET', '/proxy/me', undefined, { Origin: origin });
      expect(r.status).toBe(200);
      expect(r.headers.get('access-control-allow-origin')).toBe(origin);
    },
  );

  it('lets the extension read refusals too (401 and errors carry the CORS headers)', async () => {
    const origin = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';
    for (const path of ['/proxy/me', '/v1/models']) {
      const r = await call('not-a-token', 'GET', path, undefined, { Origin: origin });
      expect(r.status).toBe(401);
      expect(r.headers.get('access-control-allow-origin'), path).toBe(origin);
    }
    const lib = await proxyFetch('/api/v3?Action=ListAssets&Version=2024-01-01', { method: 'POST', headers: { Origin: origin }, body: '{}' });
    expect(lib.status).toBe(401);
    expect(lib.headers.get('access-control-allow-origin')).toBe(origin);
  });

  it('gives another origin no Access-Control-Allow-Origin', async () => {
    const m = await member();
    for (const origin of ['https://evil.example', 'http://localhost:3000', 'null']) {
      const r = await call(m, 'GET', '/proxy/me', undefined, { Origin: origin });
      expect(r.headers.get('access-control-allow-origin'), origin).toBeNull();
    }
    const pre = await proxyFetch('/v1/video/generations', {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type,idempotency-key' },
    });
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
  });

  it.each(['/v1/video/generations', '/api/v3?Action=CreateAssetGroup&Version=2024-01-01'])(
    'answers a preflight for POST %s with Idempotency-Key without authentication',
    async (path) => {
      const origin = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';
      const r = await noUpstream(() =>
        proxyFetch(path, {
          method: 'OPTIONS',
          headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type,idempotency-key' },
        }),
      );
      expect(r.status).toBeLessThan(300);
      expect(r.headers.get('access-control-allow-origin')).toBe(origin);
      const allowed = (r.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/\s*,\s*/);
      expect(allowed).toEqual(expect.arrayContaining(['authorization', 'content-type', 'idempotency-key']));
      expect(r.headers.get('access-control-allow-methods')).toMatch(/POST/);
    },
  );
});
