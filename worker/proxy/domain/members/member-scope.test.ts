import { abortAllDurableObjects, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { MemberScopeChange } from '../../../../shared';
import type { ProxyEnv } from '../../infra/settings/proxy-env';
import { directoryObject, memberObject } from '../../objects/handles';
import { documentedApp } from '../../routes/openapi/openapi-document';
import { waitFor } from '../../../../test/support/poll-until';
import { mediaUrl, proxyEnv, proxyFetch, type Member } from '../../testing/proxy-test-client';
import { admin, resetPrices, setBudget } from '../../testing/gateway-test-steps';
import { member, memberRows, MODEL, upstream } from '../../testing/proxy-test-steps';

/**
 * A member's scope (docs/identity.md), on every member route: the models a member may spend on
 * (creates and quotes, refused before anything is reserved or sent) and the expiry of every token
 * of the member. Members: open (no scope), limited to a model, expiring later, expired. Then many
 * requests at once, and a restart of the proxy (every object started afresh from its storage).
 */

const OTHER_MODEL = 'doubao-seedance-1-0-pro-250528';
const png = async () => new Uint8Array(await (await fetch(`${mediaUrl}/media/sample.png`)).arrayBuffer());
const now = () => Math.floor(Date.now() / 1000);

interface Route {
  method: string;
  /** As the app declares it, `:params` and all: every member route must be here. */
  route: string;
  path: string;
  body?: (() => Promise<Uint8Array>) | object;
  type?: string;
}

const createBody = { model: MODEL, prompt: 'a kite', duration: 5 };
const ROUTES: Route[] = [
  { method: 'POST', route: '/api/v3', path: '/api/v3?Action=ListAssetGroups&Version=2024-01-01', body: {} },
  { method: 'GET', route: '/v1/models', path: '/v1/models' },
  { method: 'POST', route: '/v1/video/generations', path: '/v1/video/generations', body: createBody },
  { method: 'GET', route: '/v1/video/generations/:id', path: '/v1/video/generations/task-none' },
  { method: 'GET', route: '/proxy/me', path: '/proxy/me' },
  { method: 'POST', route: '/proxy/consents', path: '/proxy/consents', body: { scope: 'portrait', rulesVersion: '2026-01' } },
  { method: 'GET', route: '/proxy/consents', path: '/proxy/consents' },
  { method: 'GET', route: '/proxy/usage', path: '/proxy/usage' },
  { method: 'GET', route: '/proxy/capabilities', path: '/proxy/capabilities' },
  { method: 'POST', route: '/proxy/quote', path: '/proxy/quote', body: createBody },
  { method: 'POST', route: '/proxy/uploads', path: '/proxy/uploads?name=kite.png', body: png, type: 'image/png' },
  { method: 'GET', route: '/proxy/uploads', path: '/proxy/uploads' },
  { method: 'DELETE', route: '/proxy/uploads/:id', path: '/proxy/uploads/u-none' },
  { method: 'DELETE', route: '/proxy/outputs/:taskId', path: '/proxy/outputs/task-none' },
  { method: 'GET', route: '/proxy/groups/:groupId/sharing', path: '/proxy/groups/group-none/sharing' },
  { method: 'PUT', route: '/proxy/groups/:groupId/sharing', path: '/proxy/groups/group-none/sharing', body: { team: 'viewer' } },
  { method: 'GET', route: '/proxy/shared', path: '/proxy/shared' },
  { method: 'PUT', route: '/proxy/assets/:assetId/source', path: '/proxy/assets/asset-none/source', body: { pageUrl: null, pageTitle: null, capturedAt: '2026-11-26T09:30:00Z', how: 'file' } },
  { method: 'POST', route: '/proxy/sources', path: '/proxy/sources', body: { ids: ['asset-none'] } },
  { method: 'POST', route: '/proxy/assets/statuses', path: '/proxy/assets/statuses', body: { ids: ['asset-none'] } },
  { method: 'GET', route: '/proxy/team', path: '/proxy/team' },
  { method: 'POST', route: '/proxy/gallery', path: '/proxy/gallery', body: { taskId: 'task-none' } },
  { method: 'GET', route: '/proxy/gallery', path: '/proxy/gallery' },
  { method: 'DELETE', route: '/proxy/gallery/:taskId', path: '/proxy/gallery/task-none' },
  { method: 'POST', route: '/proxy/tokens', path: '/proxy/tokens', body: { label: 'Laptop' } },
  { method: 'GET', route: '/proxy/tokens', path: '/proxy/tokens' },
  { method: 'DELETE', route: '/proxy/tokens/:tokenId', path: '/proxy/tokens/t0000000000000000' },
  { method: 'POST', route: '/proxy/access-keys', path: '/proxy/access-keys', body: { label: 'Script' } },
  { method: 'GET', route: '/proxy/access-keys', path: '/proxy/access-keys' },
  { method: 'DELETE', route: '/proxy/access-keys/:keyId', path: '/proxy/access-keys/k0000000000000000' },
  { method: 'PUT', route: '/proxy/webhook', path: '/proxy/webhook', body: { url: `${mediaUrl}/hooks/scope-matrix`, events: ['task.completed'] } },
  { method: 'GET', route: '/proxy/webhook', path: '/proxy/webhook' },
  { method: 'POST', route: '/proxy/webhook/secret', path: '/proxy/webhook/secret' },
  { method: 'GET', route: '/proxy/webhook/deliveries', path: '/proxy/webhook/deliveries' },
  { method: 'DELETE', route: '/proxy/webhook', path: '/proxy/webhook' },
  // Ids of the right form, so that the member's object decides (a malformed one is 400 before it).
  { method: 'GET', route: '/proxy/queue', path: '/proxy/queue' },
  { method: 'GET', route: '/proxy/queue/:id', path: `/proxy/queue/abq_${'0'.repeat(24)}` },
  { method: 'DELETE', route: '/proxy/queue/:id', path: `/proxy/queue/abq_${'0'.repeat(24)}` },
];

async function send(m: Member, r: Route): Promise<{ status: number; code: string | undefined; body: any }> {
  const raw = typeof r.body === 'function' ? await r.body() : r.body;
  const body = raw === undefined ? undefined : raw instanceof Uint8Array || typeof raw === 'string' ? raw : JSON.stringify(raw);
  const headers: Record<string, string> = { Authorization: `Bearer ${m.token}`, 'Content-Type': r.type ?? 'application/json' };
  if (raw instanceof Uint8Array) headers['Content-Length'] = String(raw.length);
  const response = await proxyFetch(r.path, { method: r.method, headers, body });
  const text = await response.text();
  const json = text ? JSON.parse(text) : null;
  return { status: response.status, code: json?.error?.code ?? json?.ResponseMetadata?.Error?.Code, body: json };
}

type Role = 'open' | 'limited' | 'expiring' | 'expired';
const ROLES: Role[] = ['open', 'limited', 'expiring', 'expired'];

async function scoped(role: Role): Promise<Member> {
  const m = await member(`scope-${role}`);
  const scope = { open: null, limited: { models: [MODEL] }, expiring: { expiresAt: now() + 3600 }, expired: { expiresAt: now() - 1 } }[role];
  if (scope) expect((await admin('PUT', `/admin/members/${m.id}/scope`, scope)).status).toBe(200);
  return m;
}

const memberRoute = (path: string) => /^\/(api\/v3|v1|proxy)(\/|$)/.test(path);

describe('scope and expiry on every member route', () => {
  it('the table below holds every member route the app serves', () => {
    const served = documentedApp()!
      .routes.filter((r) => r.method !== 'ALL' && !r.path.includes('*') && memberRoute(r.path))
      .map((r) => `${r.method} ${r.path}`);
    expect([...new Set(served)].sort()).toEqual(ROUTES.map((r) => `${r.method} ${r.route}`).sort());
  });

  it.each(ROLES)('a member %s: expired is 401 token_expired everywhere with no upstream call; the others are let through', async (role) => {
    const m = await scoped(role);
    for (const r of ROUTES) {
      const { value: answer, calls } = await upstream(() => send(m, r));
      const what = `${r.method} ${r.path}`;
      if (role === 'expired') {
        expect([answer.status, answer.code], what).toEqual([401, 'token_expired']);
        expect(calls(), what).toBe(0);
      } else {
        expect(answer.status, `${what} ${JSON.stringify(answer.body)}`).not.toBe(401);
        expect(answer.status, `${what} ${JSON.stringify(answer.body)}`).not.toBe(403);
      }
    }
  });
});

describe('models', () => {
  it('a limited member\'s create and quote of another model: 403 model_not_allowed naming it, before the budget (no reservation, no call)', async () => {
    expect((await admin('PUT', '/admin/prices', { currency: 'CNY', models: { [MODEL]: { '*': 1 }, [OTHER_MODEL]: { '*': 1 } } })).status).toBe(200);
    const m = await scoped('limited');
    // No budget left: anything that reached the ledger would be 402.
    await setBudget(m, { limit: 0 });
    const other = { ...createBody, model: OTHER_MODEL };
    for (const path of ['/v1/video/generations', '/proxy/quote']) {
      const { value: r, calls } = await upstream(() => send(m, { method: 'POST', route: path, path, body: other }));
      expect([r.status, r.code, r.body.error.param], path).toEqual([403, 'model_not_allowed', 'model']);
      expect(r.body.error.message).toContain(OTHER_MODEL);
      expect(r.body.error.message).toContain(MODEL);
      expect(calls()).toBe(0);
    }
    // The allowed model reaches the ledger, which refuses for the budget.
    expect((await send(m, { method: 'POST', route: '', path: '/v1/video/generations', body: createBody })).status).toBe(402);
    expect((await admin('GET', `/admin/members/${m.id}/budget`)).body).toMatchObject({ reserved: 0, running: 0 });
    await resetPrices();
  });

  it('an empty list allows no model; null allows every model again', async () => {
    const m = await member('scope-none');
    expect((await admin('PUT', `/admin/members/${m.id}/scope`, { models: [] })).body).toEqual({ models: [], expiresAt: null });
    expect((await send(m, { method: 'POST', route: '', path: '/proxy/quote', body: createBody })).code).toBe('model_not_allowed');
    expect((await admin('PUT', `/admin/members/${m.id}/scope`, { models: null })).body).toEqual({ models: null, expiresAt: null });
    expect((await send(m, { method: 'POST', route: '', path: '/proxy/quote', body: createBody })).status).toBe(200);
  });

  it('many creates and quotes at once are each refused, none reserved or sent', async () => {
    const m = await scoped('limited');
    const other = { ...createBody, model: OTHER_MODEL };
    const { value: answers, calls } = await upstream(() =>
      Promise.all(Array.from({ length: 12 }, (_, i) => send(m, { method: 'POST', route: '', path: i % 2 ? '/proxy/quote' : '/v1/video/generations', body: other }))),
    );
    expect(new Set(answers.map((a) => `${a.status} ${a.code}`))).toEqual(new Set(['403 model_not_allowed']));
    expect(calls()).toBe(0);
    expect((await admin('GET', `/admin/members/${m.id}/budget`)).body).toMatchObject({ reserved: 0, running: 0 });
  });
});

describe('expiry', () => {
  it('moving expiresAt into the past refuses the next request; moving it out lets the member back', async () => {
    const m = await scoped('expiring');
    const me = { method: 'GET', route: '/proxy/me', path: '/proxy/me' };
    expect((await send(m, me)).status).toBe(200);
    await admin('PUT', `/admin/members/${m.id}/scope`, { expiresAt: now() - 1 });
    expect([(await send(m, me)).status, (await send(m, me)).code]).toEqual([401, 'token_expired']);
    await admin('PUT', `/admin/members/${m.id}/scope`, { expiresAt: null });
    expect((await send(m, me)).status).toBe(200);
  });

  it('a wrong token of an expired member is unauthorized, not told of the expiry', async () => {
    const m = await scoped('expired');
    const forged = { ...m, token: `abk_${m.id}_${'A'.repeat(43)}` };
    expect((await send(forged, { method: 'GET', route: '', path: '/proxy/me' })).code).toBe('unauthorized');
  });

  it('requests racing a change of expiry each see the scope before or after it, never a mix', async () => {
    const m = await scoped('expiring');
    const me = { method: 'GET', route: '/proxy/me', path: '/proxy/me' };
    const racing = Array.from({ length: 10 }, () => send(m, me));
    const change = admin('PUT', `/admin/members/${m.id}/scope`, { expiresAt: now() - 1 });
    const answers = await Promise.all(racing);
    await change;
    for (const a of answers) expect([200, 401]).toContain(a.status);
    expect((await send(m, me)).code).toBe('token_expired');
  });
});

describe('changes at once', () => {
  /**
   * The race: the directory asks the member's object to change the scope, then writes its own copy
   * (the admin's list) from the answer. Two changes of one member sent on together may have their
   * answers come back in the other order, and the copy then ends as the first change while the
   * member's object enforces the second. The directory runs one member's changes one after another.
   *
   * Made to happen every time, with counters and no clock: the member's object answers the first
   * change only when the test lets it (`holdFirstAnswer`), and the directory's calls to the member's
   * object are counted as they leave. The second change is sent once the first is held; when the
   * directory has taken it in, the count says whether it went on to the member's object (changes
   * not one at a time: it arrives there and is answered before the held first) or waits (one at a
   * time). Either way the first is then let go.
   */
  async function holdFirstAnswer(memberId: string, models: readonly string[]) {
    const ours = (change: MemberScopeChange) => Array.isArray(change.models) && models.includes(change.models[0]!);
    const gate = { arrived: 0, entered: 0, issued: 0, inFlight: 0, maxInFlight: 0 };
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const restores: (() => void)[] = [];

    // The member's object: the first change is applied at once, its answer held until `release`.
    await runInDurableObject(memberObject(proxyEnv, memberId), (instance) => {
      const proto = Object.getPrototypeOf(instance) as { setScope(change: MemberScopeChange): unknown };
      const original = proto.setScope;
      proto.setScope = async function (this: unknown, change: MemberScopeChange) {
        if (!ours(change)) return original.call(this, change);
        const nth = ++gate.arrived;
        const scope = original.call(this, change);
        if (nth === 1) await held;
        return scope;
      };
      restores.push(() => (proto.setScope = original));
    });

    // The directory: its changes counted as they come in, and its calls to members' objects as they leave.
    await runInDurableObject(directoryObject(proxyEnv), (instance) => {
      const directory = instance as unknown as { env: ProxyEnv; setScope(id: string, change: MemberScopeChange): Promise<unknown> };
      const proto = Object.getPrototypeOf(directory) as typeof directory;
      const originalSetScope = proto.setScope;
      proto.setScope = function (this: typeof directory, id: string, change: MemberScopeChange) {
        if (ours(change)) gate.entered++;
        return originalSetScope.call(this, id, change);
      };
      const env = directory.env;
      const members = env.MEMBERS;
      const counted: DurableObjectNamespace = Object.create(members, {
        idFromName: { value: (name: string) => members.idFromName(name) },
        get: {
          value: (id: DurableObjectId) => {
            const stub = members.get(id) as unknown as { setScope(change: MemberScopeChange): Promise<unknown> };
            return new Proxy(stub, {
              get: (target, key) => {
                if (key !== 'setScope') return (target as any)[key];
                return (change: MemberScopeChange) => {
                  if (!ours(change)) return target.setScope(change);
                  gate.issued++;
                  gate.maxInFlight = Math.max(gate.maxInFlight, ++gate.inFlight);
                  return target.setScope(change).finally(() => gate.inFlight--);
                };
              },
            });
          },
        },
      });
      directory.env = Object.create(env, { MEMBERS: { value: counted } });
      restores.push(() => {
        proto.setScope = originalSetScope;
        directory.env = env;
      });
    });
    return { gate, release, restore: () => restores.forEach((undo) => undo()) };
  }

  const until = (what: string, done: () => boolean) => waitFor(async () => done(), Boolean, 10_000, 5).catch(() => {
    throw new Error(`not reached: ${what}`);
  });

  it('two changes of one member, the first answered last by the member\'s object: run one after another, the admin\'s list ends as the object', async () => {
    const m = await member('scope-race');
    const [first, second] = ['race-model-a', 'race-model-b'];
    const { gate, release, restore } = await holdFirstAnswer(m.id, [first, second]);
    let answers: { status: number }[];
    try {
      const a = admin('PUT', `/admin/members/${m.id}/scope`, { models: [first] });
      await until('the first change reached the member\'s object', () => gate.arrived === 1);
      const b = admin('PUT', `/admin/members/${m.id}/scope`, { models: [second] });
      await until('the directory took in the second change', () => gate.entered === 2);
      // Sent on at once (no waiting for the first): let it reach the member's object before the first answers.
      if (gate.issued === 2) await until('the second change reached the member\'s object', () => gate.arrived === 2);
      release();
      answers = await Promise.all([a, b]);
    } finally {
      release();
      restore();
    }
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    // The member's object applied the two in the order sent; the admin's list says the same.
    const [stored] = await memberRows<{ models: string }>(m, 'SELECT models FROM member_scope');
    expect(JSON.parse(stored!.models)).toEqual([second]);
    const listed = (await admin('GET', '/admin/members')).body.members.find((x: any) => x.id === m.id);
    expect(listed.scope.models, 'the admin\'s list').toEqual([second]);
    expect(gate.maxInFlight, 'changes of one member in flight to its object at once').toBe(1);
  });

  // A smoke test of many changes: it passes with or without one-at-a-time changes (their answers come back in order here); the test above forces the race.
  it('many changes of one member\'s scope at once are all answered, and the admin\'s list ends with the scope the member\'s object enforces', async () => {
    const m = await member('scope-many');
    const changes = await Promise.all(Array.from({ length: 8 }, (_, i) => admin('PUT', `/admin/members/${m.id}/scope`, { models: [`model-${i}`] })));
    expect(changes.every((r) => r.status === 200)).toBe(true);
    const [stored] = await memberRows<{ models: string }>(m, 'SELECT models FROM member_scope');
    const listed = (await admin('GET', '/admin/members')).body.members.find((x: any) => x.id === m.id);
    expect(listed.scope.models).toEqual(JSON.parse(stored!.models));
  });
});

describe('the admin API', () => {
  it('PUT /admin/members/:id/scope answers the scope; a field left out keeps its value; GET /admin/members lists it', async () => {
    const m = await member('scope-admin');
    const expiresAt = now() + 86_400;
    expect(await admin('PUT', `/admin/members/${m.id}/scope`, { models: [MODEL], expiresAt })).toMatchObject({ status: 200, body: { models: [MODEL], expiresAt } });
    expect((await admin('PUT', `/admin/members/${m.id}/scope`, { models: null })).body).toEqual({ models: null, expiresAt });
    const listed = (await admin('GET', '/admin/members')).body.members.find((x: any) => x.id === m.id);
    expect(listed.scope).toEqual({ models: null, expiresAt });
    const fresh = (await admin('GET', '/admin/members')).body.members.find((x: any) => x.scope.models === null && x.scope.expiresAt === null);
    expect(fresh).toBeDefined();
  });

  it.each([
    [{ models: 'all' }, 'models'],
    [{ models: [MODEL, MODEL] }, 'models'],
    [{ models: [MODEL, 7] }, 'models[1]'],
    [{ models: ['bad model'] }, 'models[0]'],
    [{ expiresAt: 1.5 }, 'expiresAt'],
    [{ expiresAt: '2030-01-01' }, 'expiresAt'],
    [{ expiresAt: -1 }, 'expiresAt'],
    [{ roles: [] }, 'roles'],
  ])('%j is 400 naming %s', async (body, field) => {
    const m = await member('scope-bad');
    const r = await admin('PUT', `/admin/members/${m.id}/scope`, body);
    expect([r.status, r.body.error.code, r.body.error.param]).toEqual([400, 'invalid_parameter', field]);
  });

  it('an unknown or revoked member is 404', async () => {
    expect((await admin('PUT', '/admin/members/m0000000000000000/scope', { models: null })).status).toBe(404);
    const m = await member('scope-revoked');
    await admin('DELETE', `/admin/members/${m.id}`);
    expect((await admin('PUT', `/admin/members/${m.id}/scope`, { models: null })).body.error.code).toBe('member_not_found');
  });
});

describe('across a restart of the proxy', () => {
  it('scopes and expiry are kept: every object starts afresh from storage and decides as before', async () => {
    const limited = await scoped('limited');
    const expired = await scoped('expired');
    await abortAllDurableObjects();
    const other = { ...createBody, model: OTHER_MODEL };
    expect((await send(limited, { method: 'POST', route: '', path: '/proxy/quote', body: other })).code).toBe('model_not_allowed');
    expect((await send(limited, { method: 'POST', route: '', path: '/proxy/quote', body: createBody })).status).toBe(200);
    expect((await send(expired, { method: 'GET', route: '', path: '/proxy/me' })).code).toBe('token_expired');
    const listed = (await admin('GET', '/admin/members')).body.members;
    expect(listed.find((x: any) => x.id === limited.id).scope).toEqual({ models: [MODEL], expiresAt: null });
    expect(listed.find((x: any) => x.id === expired.id).scope.expiresAt).toBeLessThan(now());
  });
});
