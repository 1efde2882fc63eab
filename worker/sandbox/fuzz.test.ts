import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { ACTIONS, API_VERSION } from '../../shared';
import {
  assertNoViolations,
  encodeParam,
  FuzzReport,
  fuzzRoute,
  fuzzSettings,
  fuzzTimeoutMs,
  hostileBody,
  hostileHeaders,
  hostileParam,
  hostileQuery,
  LIBRARY_FIELDS,
  schemaFields,
  VIDEO_CREATE_FIELDS,
  type FuzzBody,
  type FuzzRoute,
} from '../../test/support/fuzz';
import type { SandboxEnv } from './env';
import { clockSchema, faultSchema } from './routes/test-helper-routes';
import { completeSchema } from './routes/portrait-routes';
import { api, appFetch, DEV, helper, newAsset, newGroup, settled, signedFetch } from './testing/sandbox-test-client';

/**
 * Every sandbox route under hostile input: `FUZZ_RUNS` cases per route (default 40; `npm run fuzz`
 * runs 10,000), seed `FUZZ_SEED`. Each answer must be a non-5xx JSON answer within the hang bound,
 * a rejection must name its field or the body in one sentence, and a rejected request must leave
 * the stored state exactly as it was (the sandbox's "upstream": nothing created, changed or
 * downloaded). Signed `/api/v3` cases carry valid signatures, so they reach validation. Requests
 * go to the sandbox's app in this isolate (`appFetch`: see why in testing/sandbox-test-client.ts).
 * The table printed at the end counts answers per route. Explicit cases are in hardening.test.ts.
 */

const settings = fuzzSettings();
const report = new FuzzReport('sandbox', settings);
const timeout = fuzzTimeoutMs(settings);
const media = inject('mediaBaseUrl');
const MB = 1024 * 1024;

const service = () => {
  const ns = (env as unknown as SandboxEnv).SERVICE;
  return ns.get(ns.idFromName('service'));
};
/** What a rejected request must not change: rows, names, last changes, faults, the clock. */
const upstream = () => service().fingerprint();

const query = (action: string) => `Action=${encodeParam(action)}&Version=${API_VERSION}`;
const bearer = { Authorization: `Bearer ${DEV.apiKey}` };
const post = (path: string, body: FuzzBody, headers: Record<string, string> = {}) =>
  appFetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: body.bytes });
/** A path segment as sent: percent-encoded, junk escapes kept. */
const segment = encodeParam;

async function fuzz<T>(route: FuzzRoute<T>): Promise<void> {
  assertNoViolations(await fuzzRoute(report, { upstream, ...route }));
}

/** Data that exists before the fuzzing and must be exactly the same after it. */
let seeded: { groupId: string; group: unknown; assetId: string; asset: unknown };

beforeAll(async () => {
  const groupId = await newGroup('fuzz seed group', DEV, 'seeded before fuzzing');
  const assetId = await newAsset(groupId, `${media}/media/sample.png`, 'Image', 'fuzz seed asset');
  const asset = await settled(assetId);
  seeded = { groupId, group: (await api('GetAssetGroup', { Id: groupId })).result, assetId, asset };
}, 30_000);

afterAll(() => report.print());

describe('fuzz /api/v3, signed: hostile bodies reach validation', () => {
  for (const action of ACTIONS) {
    it(`${action}: bodies aimed at its fields (${LIBRARY_FIELDS[action].map((f) => f.path).join(', ') || 'none'})`, async () => {
      await fuzz({
        name: `POST /api/v3 ${action} (signed)`,
        cases: hostileBody({ fields: LIBRARY_FIELDS[action] }),
        send: (body) => signedFetch(query(action), body.bytes, { via: appFetch }),
      });
    }, timeout);
  }

  it('any Action, unknown ones up to 70,000 characters', async () => {
    await fuzz({
      name: 'POST /api/v3 any Action (signed)',
      cases: fc.tuple(hostileParam(ACTIONS), hostileBody()),
      send: ([action, body]) => signedFetch(query(action), body.bytes, { via: appFetch }),
    });
  }, timeout);

  it('hostile query strings (repeated, missing and junk parameters, 20,000 parameters)', async () => {
    await fuzz({
      name: 'POST /api/v3 hostile query (signed)',
      cases: fc.tuple(hostileQuery(['Action', 'Version'], { Action: ACTIONS, Version: [API_VERSION] }), hostileBody({ fields: LIBRARY_FIELDS.CreateAssetGroup })),
      send: ([q, body]) => signedFetch(q, body.bytes, { via: appFetch }),
    });
  }, timeout);
});

describe('fuzz /api/v3, unsigned or badly signed: 401 at once, whatever the headers', () => {
  it('hostile Authorization, X-Date, X-Content-Sha256 and Content-Type headers', async () => {
    await fuzz({
      name: 'POST /api/v3 hostile headers (unsigned)',
      cases: fc.tuple(hostileQuery(['Action', 'Version'], { Action: ACTIONS, Version: [API_VERSION] }), hostileHeaders(), hostileBody()),
      send: ([q, headers, body]) => appFetch(`/api/v3?${q}`, { method: 'POST', headers, body: body.bytes }),
      check: (_input, answer) => (answer.status === 200 && !(answer.json as any)?.ResponseMetadata?.Error ? 'an unsigned request succeeded' : null),
    });
  }, timeout);

  it('valid signatures with hostile headers added after signing', async () => {
    await fuzz({
      name: 'POST /api/v3 signed, headers changed',
      cases: fc.tuple(fc.constantFrom(...ACTIONS), hostileHeaders(['X-Date', 'X-Content-Sha256', 'Content-Type', 'Host', 'X-Extra']), hostileBody()),
      send: ([action, headers, body]) => signedFetch(query(action), body.bytes, { headers, via: appFetch }),
    });
  }, timeout);
});

describe('fuzz /v1', () => {
  it('GET /v1/models with hostile headers', async () => {
    await fuzz({
      name: 'GET /v1/models',
      cases: fc.tuple(hostileHeaders(['Authorization', 'Content-Type']), fc.boolean()),
      send: ([headers, keyed]) => appFetch('/v1/models', { headers: keyed ? { ...headers, ...bearer } : headers }),
    });
  }, timeout);

  it('POST /v1/video/generations: bodies aimed at the create fields, up to 17 MB', async () => {
    await fuzz({
      name: 'POST /v1/video/generations',
      cases: hostileBody({ fields: VIDEO_CREATE_FIELDS, maxBytes: 17 * MB }),
      send: (body) => post('/v1/video/generations', body, bearer),
    });
  }, timeout);

  it('POST /v1/video/generations without a valid key, hostile headers', async () => {
    await fuzz({
      name: 'POST /v1/video/generations (no key)',
      cases: fc.tuple(hostileHeaders(['Authorization', 'Content-Type']), hostileBody({ fields: VIDEO_CREATE_FIELDS })),
      send: ([headers, body]) => appFetch('/v1/video/generations', { method: 'POST', headers, body: body.bytes }),
      check: (_input, answer) => (answer.status < 300 ? 'a create without the key succeeded' : null),
    });
  }, timeout);

  it('GET /v1/video/generations/{id} with hostile ids', async () => {
    await fuzz({
      name: 'GET /v1/video/generations/{id}',
      cases: fc.tuple(hostileParam(['cgt-20260101000000-000000000000', 'none']), fc.boolean()),
      send: ([id, keyed]) => appFetch(`/v1/video/generations/${segment(id)}`, { headers: keyed ? bearer : {} }),
    });
  }, timeout);
});

describe('fuzz the sandbox helpers and pages', () => {
  it('POST /sandbox/faults (each installed fault removed after its case)', async () => {
    await fuzz({
      name: 'POST /sandbox/faults',
      cases: hostileBody({ fields: schemaFields(faultSchema) }),
      send: (body) => post('/sandbox/faults', body),
      afterEach: () => service().clearFaults(),
    });
  }, timeout);

  it('POST /sandbox/clock', async () => {
    await fuzz({ name: 'POST /sandbox/clock', cases: hostileBody({ fields: schemaFields(clockSchema) }), send: (body) => post('/sandbox/clock', body) });
  }, timeout);

  it('POST /sandbox/portrait/complete', async () => {
    await fuzz({
      name: 'POST /sandbox/portrait/complete',
      cases: hostileBody({ fields: schemaFields(completeSchema) }),
      send: (body) => post('/sandbox/portrait/complete', body),
    });
  }, timeout);

  it('GET /h5/portrait/{h5}: an HTML page or its 404, hostile ids and query strings', async () => {
    await fuzz({
      name: 'GET /h5/portrait/{h5}',
      cases: fc.tuple(hostileParam(['0123456789abcdef01234567']), hostileQuery(['lang'])),
      send: ([id, q]) => appFetch(`/h5/portrait/${segment(id)}?${q}`),
      json: false,
      // An empty or `..` id leaves the route: then the JSON 404 of an unknown route is right.
      check: (_input, answer) =>
        answer.status === 404 && (answer.json as { error?: unknown } | undefined)?.error === 'not_found'
          ? null
          : !(answer.headers.get('content-type') ?? '').startsWith('text/html')
            ? `content-type ${answer.headers.get('content-type')}`
            : answer.text.length > 16_000
              ? `page of ${answer.text.length} characters: caller input repeated?`
              : null,
    });
  }, timeout);

  it('any method on hostile paths: a JSON answer (404 for no route), never a 5xx', async () => {
    await fuzz({
      name: 'any method, hostile paths',
      cases: fc.tuple(
        fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
        // /h5/portrait/{h5} answers HTML pages: fuzzed on its own above.
        fc.constantFrom('/', '/api/v3', '/api/v3/', '/v1/models', '/v1/video/generations', '/v1/video/generations/', '/sandbox/', '/sandbox/stats/x', '/h5/', '/sandbox/videos/', '/sandbox/frames/', '/sandbox/media/'),
        hostileParam(['x.mp4', 'x.png', 'portrait.png']),
      ),
      // GET /sandbox/stats and DELETE /sandbox/stats are left out: they are not input handling.
      send: ([method, base, tail]) => appFetch(`${base}${segment(tail)}`, { method }),
      rejected: (answer) => answer.status >= 400,
      json: true,
    });
  }, timeout);
});

describe('after fuzzing', () => {
  it('the data seeded before is unchanged, and the sandbox still works', async () => {
    expect((await api('GetAssetGroup', { Id: seeded.groupId })).result).toEqual(seeded.group);
    const asset = (await api('GetAsset', { Id: seeded.assetId })).result;
    expect(asset).toEqual(seeded.asset);
    expect((await helper('GET', '/sandbox/stats')).status).toBe(200);
    expect((await api('ListAssetGroups', { Filter: { GroupIds: [seeded.groupId] } })).result.TotalCount).toBe(1);
  });
});
