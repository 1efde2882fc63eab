import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assetSourceInputSchema,
  galleryPublishSchema,
  memberEmailChangeSchema,
  memberScopeChangeSchema,
  sharingChangeSchema,
  assetIdBatchSchema,
  sourceLookupSchema,
  tokenCreateSchema,
  transferSchema,
  webhookSetSchema,
} from '../../shared';
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
  schemaFields,
  VIDEO_CREATE_FIELDS,
  type FuzzAnswer,
  type FuzzBody,
} from '../../test/support/fuzz';
import app from './index';
import type { ProxyEnv } from './infra/settings/proxy-env';
import { documentedApp } from './routes/openapi/openapi-document';
import { adminHeaders, appFetch, mediaUrl, proxyEnv, recordSeen, sandbox, type Member } from './testing/proxy-test-client';
import { webhookUrlCase, type UrlCase } from './testing/webhook-url-cases';
import { asset, count, group, member } from './testing/proxy-test-steps';

/**
 * Property tests, as fuzz.test.ts's, of the routes wave 3 added: member identity (scopes, emails,
 * tokens per browser, sign-in with Cloudflare Access), webhooks (the member's and the team's),
 * asset sources, sharing, the team gallery and library transfers, and quotes. Whatever a caller
 * sends: never a 5xx, an answer within the hang bound, a refusal that is JSON naming the field or
 * the body, nothing changed by a refusal (the service's request counters and the route's own state,
 * read back through the API), and no secret of the proxy's nor a member token in any answer (a
 * token only where one is issued: `POST /proxy/tokens` and `/connect/access`'s redirect).
 */

const settings = fuzzSettings();
const report = new FuzzReport('proxy (identity, webhooks, sources, sharing)', settings);
const timeout = fuzzTimeoutMs(settings);

const MEMBER_AUD = 'arkbridge-fuzz-members';
const CHROME_REDIRECT = `https://${'a'.repeat(32)}.chromiumapp.org/`;
const FIREFOX_REDIRECT = `https://${'0123456789'.repeat(4)}.extensions.allizom.org/`;
const SIGNIN_EMAIL = 'fuzz-signin@example.com';
const NO_TOKEN = 't0000000000000000';

/** m owns a group and an asset; the others are the targets of routes that change their member. */
let m: Member;
let scoped: Member;
let tokens: Member;
let hooks: Member;
let donor: Member;
let signer: Member;
let groupId: string;
let assetId: string;
/** Assertions as Access signs them: for a member, for an unknown email, for another application. */
const assertions: string[] = [];

async function sign(claims: Record<string, unknown>): Promise<string> {
  const r = await fetch(`${mediaUrl}/access/sign`, { method: 'POST', body: JSON.stringify({ claims }) });
  return ((await r.json()) as { jwt: string }).jwt;
}

beforeAll(async () => {
  [m, scoped, tokens, hooks, donor, signer] = await Promise.all([member('fuzz-owner'), member('fuzz-scoped'), member('fuzz-tokens'), member('fuzz-hooks'), member('fuzz-donor'), member('fuzz-signer')]);
  groupId = await group(m, 'fuzz-team');
  assetId = await asset(m, groupId, 'fuzz-team');
  await appFetch(`/admin/members/${signer.id}/email`, { method: 'PUT', headers: adminHeaders(), body: JSON.stringify({ email: SIGNIN_EMAIL }) });
  const claims = (email: string, aud = MEMBER_AUD) => ({ email, iss: mediaUrl, aud: [aud] });
  assertions.push(await sign(claims(SIGNIN_EMAIL)), await sign(claims('nobody@example.com')), await sign(claims(SIGNIN_EMAIL, 'arkbridge-test-aud')));
});
afterAll(async () => {
  report.print();
  // A hostile body may have been a valid one: the team's webhook goes.
  await appFetch('/admin/webhook', { method: 'DELETE', headers: adminHeaders() });
});

const bearer = (who: Member = m) => ({ Authorization: `Bearer ${who.token}` });
const json = (who: Member = m) => ({ ...bearer(who), 'Content-Type': 'application/json' });

/** The proxy with member sign-in set up (MEMBER_ACCESS_AUD; the team domain is the media fixture server). */
async function signinFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const env: ProxyEnv = { ...proxyEnv, MEMBER_ACCESS_AUD: MEMBER_AUD };
  const ctx = createExecutionContext();
  const response = await app.fetch(new Request(new URL(path, 'https://proxy.test'), { ...init, redirect: 'manual' }), env, ctx);
  await waitOnExecutionContext(ctx);
  recordSeen(`${response.status} ${JSON.stringify([...response.headers])} ${await response.clone().text()}`);
  return response;
}

const SECRETS = ['SECRET_ACCESS_KEY', 'VIDEO_API_KEY', 'ADMIN_TOKEN', 'MEDIA_URL_SECRET'] as const;
const MEMBER_TOKEN = /abk_m[0-9a-f]{16}_/;

/** A secret of the proxy's, or a member token where none is issued, in an answer's body or headers. */
function leak(answer: FuzzAnswer, issues: boolean): string | null {
  const text = `${answer.text}\n${[...answer.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}`;
  for (const name of SECRETS) {
    const value = proxyEnv[name];
    if (value && text.includes(value)) return `the answer holds ${name}`;
  }
  if (!(issues && answer.status < 400) && MEMBER_TOKEN.test(text)) return `HTTP ${answer.status} holds a member token`;
  return null;
}

/** Calls the service saw (all targets). */
const calls = async () => count(await sandbox.stats());
/** A read of the route's state (status and body), for the unchanged-by-a-refusal check. */
async function read(path: string, init: RequestInit, pick: (body: any) => unknown = (b) => b): Promise<unknown> {
  const r = await appFetch(path, init);
  const text = await r.text();
  return [r.status, text ? pick(JSON.parse(text)) : null];
}
const tokenIds = (body: any) => body?.tokens?.map((t: any) => `${t.id} ${t.label}`) ?? body;
const listed = (id: string) => async () => read('/admin/members', { headers: adminHeaders() }, (b) => b.members.find((x: any) => x.id === id));

interface RouteOptions {
  /** What a refusal must leave as it was, besides the service's counters. */
  state?: () => Promise<unknown>;
  /** The route issues a member token on success. */
  issues?: boolean;
  /** false for answers that are not JSON (a page, a HEAD). */
  json?: boolean;
  /** A further check of each answer: the problem, or null. */
  check?: (input: any, answer: FuzzAnswer) => string | null;
}

async function run<T>(name: string, cases: fc.Arbitrary<T>, send: (input: T) => Promise<Response>, o: RouteOptions = {}) {
  // Reading the state may itself ask the service (a group's sharing reads its name): those calls are not the case's.
  let reads = 0;
  const withState = async () => {
    const before = await calls();
    const state = await o.state!();
    const after = await calls();
    reads += after - before;
    return { calls: after - reads, state };
  };
  const upstream = o.state ? withState : calls;
  assertNoViolations(await fuzzRoute(report, { name, cases, send, upstream, json: o.json, check: (input, answer) => leak(answer, o.issues ?? false) ?? o.check?.(input, answer) ?? null }));
}

/** A real id or a hostile one. */
const idOr = (real: () => string) => fc.oneof(fc.constant(null), hostileParam()).map((id) => (id === null ? real() : id));
const path = (id: string) => encodeParam(id);
const body = (schema: unknown) => hostileBody({ fields: schemaFields(schema) });
/** Hostile headers over the member's own token (a hostile Authorization replaces it). */
const memberHeaders = (who: () => Member) => fc.tuple(fc.boolean(), hostileHeaders(['Authorization', 'Accept', 'Origin', 'Content-Type'])).map(([own, h]) => ({ ...(own ? bearer(who()) : {}), ...h }));

/** The GET routes whose only input is headers (a member's, the admin's, or none). */
const GETS = ['/healthz', '/openapi.json', '/proxy/me', '/proxy/capabilities', '/proxy/consents', '/proxy/usage', '/proxy/uploads', '/proxy/shared', '/proxy/team', '/proxy/gallery', '/admin/members', '/admin/budgets', '/admin/prices', '/admin/budget', '/admin/audit'];

describe('fuzz: member identity', () => {
  it('PUT /admin/members/{id}/scope: hostile bodies and ids', { timeout }, async () => {
    await run('PUT /admin/members/{id}/scope', fc.tuple(body(memberScopeChangeSchema), idOr(() => scoped.id)), ([b, id]: [FuzzBody, string]) =>
      appFetch(`/admin/members/${path(id)}/scope`, { method: 'PUT', headers: adminHeaders(), body: b.bytes }),
      { state: listed(scoped.id) },
    );
  });

  it('PUT /admin/members/{id}/email: hostile bodies and ids', { timeout }, async () => {
    await run('PUT /admin/members/{id}/email', fc.tuple(body(memberEmailChangeSchema), idOr(() => scoped.id)), ([b, id]: [FuzzBody, string]) =>
      appFetch(`/admin/members/${path(id)}/email`, { method: 'PUT', headers: adminHeaders(), body: b.bytes }),
      { state: listed(scoped.id) },
    );
  });

  it('GET /admin/members/{id}/tokens and DELETE /admin/members/{id}/tokens/{tokenId}: hostile ids', { timeout }, async () => {
    await run('/admin/members/{id}/tokens[/{tokenId}]', fc.tuple(idOr(() => tokens.id), fc.option(hostileParam([NO_TOKEN]), { nil: undefined })), ([id, tokenId]) =>
      appFetch(`/admin/members/${path(id)}/tokens${tokenId === undefined ? '' : `/${path(tokenId)}`}`, { method: tokenId === undefined ? 'GET' : 'DELETE', headers: adminHeaders() }),
      { state: () => read(`/admin/members/${tokens.id}/tokens`, { headers: adminHeaders() }, tokenIds) },
    );
  });

  it('POST /proxy/tokens: hostile bodies (a valid one issues a token)', { timeout }, async () => {
    await run('POST /proxy/tokens', body(tokenCreateSchema), (b) => appFetch('/proxy/tokens', { method: 'POST', headers: json(tokens), body: b.bytes }), {
      issues: true,
      state: () => read(`/admin/members/${tokens.id}/tokens`, { headers: adminHeaders() }, tokenIds),
    });
  });

  it('GET /proxy/tokens and DELETE /proxy/tokens/{tokenId}: hostile ids and headers', { timeout }, async () => {
    await run('/proxy/tokens[/{tokenId}]', fc.tuple(fc.option(hostileParam([NO_TOKEN]), { nil: undefined }), memberHeaders(() => tokens)), ([tokenId, headers]) =>
      appFetch(`/proxy/tokens${tokenId === undefined ? '' : `/${path(tokenId)}`}`, { method: tokenId === undefined ? 'GET' : 'DELETE', headers }),
      { state: () => read(`/admin/members/${tokens.id}/tokens`, { headers: adminHeaders() }, tokenIds) },
    );
  });

  it('GET /connect/methods: hostile headers and query strings', { timeout }, async () => {
    await run('GET /connect/methods', fc.tuple(hostileQuery(['redirect']), hostileHeaders(['Authorization', 'Origin', 'Cf-Access-Jwt-Assertion', 'Accept'])), ([query, headers]) =>
      signinFetch(`/connect/methods?${query}`, { headers }),
    );
  });

  it('GET /connect/access: hostile redirects, labels, assertions and User-Agents', { timeout }, async () => {
    const assertion = fc.oneof(
      fc.constant({}),
      fc.constantFrom(0, 1, 2).map((i) => ({ 'Cf-Access-Jwt-Assertion': assertions[i]! })),
      hostileHeaders(['Cf-Access-Jwt-Assertion', 'User-Agent', 'Cookie']),
    );
    // A hostile query string, or a real redirect URL with a hostile label (so that assertions are read, and some sign-ins succeed).
    const query = fc.oneof(
      hostileQuery(['redirect', 'label'], { redirect: [CHROME_REDIRECT, FIREFOX_REDIRECT], label: ['Studio PC'] }),
      fc.tuple(fc.constantFrom(CHROME_REDIRECT, FIREFOX_REDIRECT), fc.option(hostileParam(['Studio PC']), { nil: undefined })).map(
        ([redirect, label]) => `redirect=${encodeParam(redirect)}${label === undefined ? '' : `&label=${encodeParam(label)}`}`,
      ),
    );
    await run('GET /connect/access', fc.tuple(query, assertion), ([q, headers]) => signinFetch(`/connect/access?${q}`, { headers }), {
      issues: true,
      state: async () => ({ members: await read('/admin/members', { headers: adminHeaders() }, (b) => b.members.length), tokens: await read(`/admin/members/${signer.id}/tokens`, { headers: adminHeaders() }, tokenIds) }),
    });
  });
});

describe('fuzz: webhooks', () => {
  const WEBHOOK_FIELDS = schemaFields(webhookSetSchema({ allowHttp: true }));
  const ROUTES = [['GET', '/webhook'], ['DELETE', '/webhook'], ['POST', '/webhook/secret'], ['GET', '/webhook/deliveries']] as const;

  it('PUT /proxy/webhook: hostile bodies', { timeout }, async () => {
    await run('PUT /proxy/webhook', hostileBody({ fields: WEBHOOK_FIELDS }), (b) => appFetch('/proxy/webhook', { method: 'PUT', headers: json(hooks), body: b.bytes }), {
      state: () => read('/proxy/webhook', { headers: bearer(hooks) }),
    });
  });

  it('GET, DELETE /proxy/webhook, POST /proxy/webhook/secret, GET /proxy/webhook/deliveries: hostile headers', { timeout }, async () => {
    await run('/proxy/webhook* <hostile headers>', fc.tuple(fc.constantFrom(...ROUTES), memberHeaders(() => hooks)), ([[method, route], headers]) =>
      appFetch(`/proxy${route}`, { method, headers }),
    );
  });

  it('PUT /admin/webhook: hostile bodies', { timeout }, async () => {
    await run('PUT /admin/webhook', hostileBody({ fields: WEBHOOK_FIELDS }), (b) => appFetch('/admin/webhook', { method: 'PUT', headers: adminHeaders(), body: b.bytes }), {
      state: () => read('/admin/webhook', { headers: adminHeaders() }),
    });
  });

  // Webhook URLs in the spellings the URL parser folds (docs/webhooks.md): the outcome is judged
  // against the address or name generated, not against the proxy's rule.
  for (const [route, headers] of [['/proxy/webhook', () => json(hooks)], ['/admin/webhook', adminHeaders]] as const) {
    it(`PUT ${route}: webhook URL spellings, 200 or 400 webhook_url_not_allowed as the host deserves`, { timeout }, async () => {
      await run(`PUT ${route} <url spellings>`, webhookUrlCase(), (c) => appFetch(route, { method: 'PUT', headers: headers(), body: JSON.stringify({ url: c.url, events: ['task.failed'] }) }), {
        state: () => read(route, { headers: headers() }),
        check: (c: UrlCase, answer) => {
          const code = (answer.json as any)?.error?.code;
          if (c.allowed) return answer.status === 200 ? null : `${c.url} (${c.why}) answered ${answer.status} ${code}, not 200`;
          if (answer.status !== 400 || code !== 'webhook_url_not_allowed' || (answer.json as any)?.error?.param !== 'url') return `${c.url} (${c.why}) answered ${answer.status} ${code}, not 400 webhook_url_not_allowed`;
          return null;
        },
      });
    });
  }

  it('the team\'s webhook routes: hostile headers', { timeout }, async () => {
    const headers = fc.tuple(fc.boolean(), hostileHeaders(['Authorization', 'Accept', 'Cookie'])).map(([admin, h]) => ({ ...(admin ? adminHeaders() : {}), ...h }));
    await run('/admin/webhook* <hostile headers>', fc.tuple(fc.constantFrom(...ROUTES), headers), ([[method, route], h]) => appFetch(`/admin${route}`, { method, headers: h }));
  });
});

describe('fuzz: sources, sharing, gallery, transfers, quotes', () => {
  it('PUT /proxy/assets/{assetId}/source: hostile bodies and ids', { timeout }, async () => {
    await run('PUT /proxy/assets/{assetId}/source', fc.tuple(body(assetSourceInputSchema), idOr(() => assetId)), ([b, id]: [FuzzBody, string]) =>
      appFetch(`/proxy/assets/${path(id)}/source`, { method: 'PUT', headers: json(), body: b.bytes }),
      { state: () => read('/proxy/sources', { method: 'POST', headers: json(), body: JSON.stringify({ ids: [assetId] }) }) },
    );
  });

  it('POST /proxy/sources: hostile bodies', { timeout }, async () => {
    await run('POST /proxy/sources', body(sourceLookupSchema), (b) => appFetch('/proxy/sources', { method: 'POST', headers: json(), body: b.bytes }));
  });

  it('POST /proxy/assets/statuses: hostile bodies', { timeout }, async () => {
    await run('POST /proxy/assets/statuses', body(assetIdBatchSchema), (b) => appFetch('/proxy/assets/statuses', { method: 'POST', headers: json(), body: b.bytes }));
  });

  it('GET and PUT /proxy/groups/{groupId}/sharing: hostile bodies and ids', { timeout }, async () => {
    await run('/proxy/groups/{groupId}/sharing', fc.tuple(fc.option(body(sharingChangeSchema), { nil: undefined }), idOr(() => groupId)), ([b, id]) =>
      appFetch(`/proxy/groups/${path(id)}/sharing`, b === undefined ? { headers: bearer() } : { method: 'PUT', headers: json(), body: b.bytes }),
      { state: () => read(`/proxy/groups/${groupId}/sharing`, { headers: bearer() }) },
    );
  });

  it('POST /proxy/gallery: hostile bodies', { timeout }, async () => {
    await run('POST /proxy/gallery', body(galleryPublishSchema), (b) => appFetch('/proxy/gallery', { method: 'POST', headers: json(), body: b.bytes }), {
      state: () => read('/proxy/gallery', { headers: bearer() }),
    });
  });

  it('DELETE /proxy/gallery/{taskId} and /admin/gallery/{taskId}: hostile ids', { timeout }, async () => {
    await run('DELETE /{proxy,admin}/gallery/{taskId}', fc.tuple(hostileParam(['cgt-20260101000000-abcd']), fc.boolean()), ([id, asAdmin]) =>
      appFetch(`/${asAdmin ? 'admin' : 'proxy'}/gallery/${path(id)}`, { method: 'DELETE', headers: asAdmin ? adminHeaders() : bearer() }),
      { state: () => read('/proxy/gallery', { headers: bearer() }) },
    );
  });

  it('GET /admin/members/{id}/groups and POST /admin/members/{id}/transfer: hostile bodies and ids', { timeout }, async () => {
    await run('/admin/members/{id}/{groups,transfer}', fc.tuple(fc.option(body(transferSchema), { nil: undefined }), idOr(() => donor.id)), ([b, id]) =>
      appFetch(`/admin/members/${path(id)}/${b === undefined ? 'groups' : 'transfer'}`, b === undefined ? { headers: adminHeaders() } : { method: 'POST', headers: adminHeaders(), body: b.bytes }),
      { state: () => read(`/admin/members/${m.id}/groups`, { headers: adminHeaders() }) },
    );
  });

  it('POST /proxy/quote: hostile bodies', { timeout }, async () => {
    await run('POST /proxy/quote', hostileBody({ fields: VIDEO_CREATE_FIELDS }), (b) => appFetch('/proxy/quote', { method: 'POST', headers: json(), body: b.bytes }));
  });

  it('the other member and admin GET routes: hostile headers', { timeout }, async () => {
    const cases = fc.tuple(fc.constantFrom(...GETS), fc.boolean(), hostileHeaders(['Authorization', 'Accept', 'Origin', 'If-None-Match']));
    await run('GET /proxy/*, /admin/* <hostile headers>', cases, ([route, own, h]) =>
      appFetch(route, { headers: { ...(own ? (route.startsWith('/admin') ? adminHeaders() : bearer()) : {}), ...h } }),
    );
  });
});

/**
 * Every route the app serves, and the fuzz test that sends it hostile input: this file's,
 * fuzz.test.ts's (the library, video, uploads, budgets, prices, reports, the queue, console sign-in), or
 * access-keys.fuzz.test.ts's.
 */
const FUZZED: Record<string, string> = {
  'POST /api/v3': 'fuzz.test.ts',
  'GET /v1/models': 'fuzz.test.ts',
  'POST /v1/video/generations': 'fuzz.test.ts',
  'GET /v1/video/generations/:id': 'fuzz.test.ts',
  'POST /proxy/consents': 'fuzz.test.ts',
  'GET /proxy/usage': 'fuzz.test.ts',
  'POST /proxy/uploads': 'fuzz.test.ts',
  'DELETE /proxy/uploads/:id': 'fuzz.test.ts',
  'DELETE /proxy/outputs/:taskId': 'fuzz.test.ts',
  'GET /media/:id': 'fuzz.test.ts',
  'POST /admin/members': 'fuzz.test.ts',
  'DELETE /admin/members/:id': 'fuzz.test.ts',
  'POST /admin/members/:id/token': 'fuzz.test.ts',
  'PUT /admin/prices': 'fuzz.test.ts',
  'PUT /admin/budget': 'fuzz.test.ts',
  'PUT /admin/members/:id/budget': 'fuzz.test.ts',
  'GET /admin/usage': 'fuzz.test.ts',
  'GET /admin/tasks': 'fuzz.test.ts',
  'GET /admin/audit': 'fuzz.test.ts',
  'GET /proxy/queue': 'fuzz.test.ts',
  'GET /proxy/queue/:id': 'fuzz.test.ts',
  'DELETE /proxy/queue/:id': 'fuzz.test.ts',
  'GET /admin/queue': 'fuzz.test.ts',
  'DELETE /admin/queue/:id': 'fuzz.test.ts',
  'PUT /admin/members/:id/scope': 'member identity',
  'PUT /admin/members/:id/email': 'member identity',
  'GET /admin/members/:id/tokens': 'member identity',
  'DELETE /admin/members/:id/tokens/:tokenId': 'member identity',
  'POST /proxy/tokens': 'member identity',
  'GET /proxy/tokens': 'member identity',
  'DELETE /proxy/tokens/:tokenId': 'member identity',
  'GET /connect/methods': 'member identity',
  'GET /connect/access': 'member identity',
  'POST /proxy/access-keys': 'access-keys.fuzz.test.ts',
  'GET /proxy/access-keys': 'access-keys.fuzz.test.ts',
  'DELETE /proxy/access-keys/:keyId': 'access-keys.fuzz.test.ts',
  'GET /admin/members/:id/access-keys': 'access-keys.fuzz.test.ts',
  'DELETE /admin/members/:id/access-keys/:keyId': 'access-keys.fuzz.test.ts',
  'PUT /proxy/webhook': 'webhooks',
  'GET /proxy/webhook': 'webhooks',
  'DELETE /proxy/webhook': 'webhooks',
  'POST /proxy/webhook/secret': 'webhooks',
  'GET /proxy/webhook/deliveries': 'webhooks',
  'PUT /admin/webhook': 'webhooks',
  'GET /admin/webhook': 'webhooks',
  'DELETE /admin/webhook': 'webhooks',
  'POST /admin/webhook/secret': 'webhooks',
  'GET /admin/webhook/deliveries': 'webhooks',
  'PUT /proxy/assets/:assetId/source': 'sources',
  'POST /proxy/sources': 'sources',
  'POST /proxy/assets/statuses': 'sources',
  'GET /proxy/groups/:groupId/sharing': 'sharing',
  'PUT /proxy/groups/:groupId/sharing': 'sharing',
  'POST /proxy/gallery': 'gallery',
  'DELETE /proxy/gallery/:taskId': 'gallery',
  'DELETE /admin/gallery/:taskId': 'gallery',
  'GET /admin/members/:id/groups': 'transfers',
  'POST /admin/members/:id/transfer': 'transfers',
  'POST /proxy/quote': 'quotes',
  'GET /admin/members/:id/budget': 'the rest',
  'DELETE /admin/prices': 'the rest',
  'GET /connect': 'the rest',
  'HEAD /media/:id': 'the rest',
  ...Object.fromEntries(GETS.map((route) => [`GET ${route}`, 'other GETs'])),
};

describe('fuzz: the rest', () => {
  it('GET /admin/members/{id}/budget: hostile ids; DELETE /admin/prices: hostile headers', { timeout }, async () => {
    const headers = fc.tuple(fc.boolean(), hostileHeaders(['Authorization', 'Accept', 'Cookie'])).map(([admin, h]) => ({ ...(admin ? adminHeaders() : {}), ...h }));
    await run('GET /admin/members/{id}/budget, DELETE /admin/prices', fc.oneof(idOr(() => m.id), headers), (input) =>
      typeof input === 'string'
        ? appFetch(`/admin/members/${path(input)}/budget`, { headers: adminHeaders() })
        : appFetch('/admin/prices', { method: 'DELETE', headers: input }),
    );
  });

  it('GET /connect (a page) and HEAD /media/{id} (no body): hostile query strings, headers and ids', { timeout }, async () => {
    const page = fc.tuple(hostileQuery(['lang'], { lang: ['en', 'zh-CN'] }), hostileHeaders(['Accept-Language', 'Cookie'])).map(([q, h]) => ({ page: `/connect?${q}`, h }));
    const head = fc.tuple(hostileParam([`u-${'m'.padEnd(17, '0')}-abc`]), hostileQuery(['expires', 'sig'], { expires: ['2000000000'], sig: ['0'.repeat(64)] })).map(([id, q]) => ({ page: `/media/${path(id)}?${q}`, h: {} }));
    await run('GET /connect, HEAD /media/{id}', fc.oneof(page, head), ({ page: p, h }) => appFetch(p, { method: p.startsWith('/media') ? 'HEAD' : 'GET', headers: h }), { json: false });
  });
});

describe('fuzz: coverage', () => {
  it('every route the app serves outside the console is fuzzed', () => {
    const served = documentedApp()!
      .routes.filter((r) => r.method !== 'ALL' && !r.path.includes('*') && !r.path.startsWith('/console'))
      .map((r) => `${r.method} ${r.path}`);
    expect([...new Set(served)].filter((route) => !FUZZED[route]).sort()).toEqual([]);
  });
});
