import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { adminHeaders, api, call, proxyEnv, proxyFetch } from '../../testing/proxy-test-client';
import { member, memberRows } from '../../testing/proxy-test-steps';
import { directoryObject } from '../../objects/handles';
import { memberTokens } from '../../testing/leak-guard';

/** The admin API (docs/proxy-api.md, "Admin"). */

const admin = async (method: string, path: string, body?: unknown, headers: Record<string, string> = adminHeaders()) => {
  const response = await proxyFetch(path, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, text, body: text ? JSON.parse(text) : null };
};

const TOKEN_FORM = /^abk_m[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/;

describe('POST /admin/members', () => {
  it('adds a member: 201 with id, name and a token shown once', async () => {
    const r = await admin('POST', '/admin/members', { name: 'Alice' });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(['id', 'name', 'token']);
    expect(r.body.name).toBe('Alice');
    expect(r.body.token).toMatch(TOKEN_FORM);
    memberTokens.push(r.body.token);
    // The token works at once.
    const me = await call(r.body.token, 'GET', '/proxy/me');
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ id: r.body.id, name: 'Alice' });
  });

  it('gives every member a different id and token', async () => {
    const [a, b] = await Promise.all([member('a'), member('b')]);
    expect(a.id).not.toBe(b.id);
    expect(a.token).not.toBe(b.token);
  });

  it('stores only a hash of the token', async () => {
    const m = await member('hashed');
    const rows = await memberRows<{ token_hash: string }>(m, 'SELECT * FROM profile');
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(m.token);
    expect(rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ['no name', {}, 'name', /is required/],
    ['an empty name', { name: '' }, 'name', /must not be empty/],
    ['a blank name', { name: '   ' }, 'name', /must not be empty/],
    ['a name that is not a string', { name: 5 }, 'name', /must be a string/],
    ['a name over 100 characters', { name: 'x'.repeat(101) }, 'name', /at most 100/],
    ['an unknown field', { name: 'ok', role: 'admin' }, 'role', /is not a field/],
  ])('refuses %s with 400 naming the field', async (_what, body, field, message) => {
    const r = await admin('POST', '/admin/members', body);
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('invalid_parameter');
    expect(r.body.error.param).toBe(field);
    expect(r.body.error.message).toMatch(new RegExp(`^${field}: `));
    expect(r.body.error.message).toMatch(message);
  });

  it('refuses a body that is not a JSON object with 400', async () => {
    for (const body of ['not json', '[]', '"name"']) {
      const r = await admin('POST', '/admin/members', body);
      expect(r.status, body).toBe(400);
      expect(r.body.error.param).toBe('body');
      expect(r.body.error.message).not.toMatch(/is not a field/);
    }
  });
});

describe('GET /admin/members', () => {
  it('lists id, name, createdAt and revoked, and never a token', async () => {
    const a = await member('listed-a');
    const b = await member('listed-b');
    await admin('DELETE', `/admin/members/${b.id}`);
    const r = await admin('GET', '/admin/members');
    expect(r.status).toBe(200);
    const ids = r.body.members.map((m: { id: string }) => m.id);
    expect(ids).toEqual(expect.arrayContaining([a.id, b.id]));
    for (const m of r.body.members) {
      expect(Object.keys(m).sort()).toEqual(['createdAt', 'id', 'name', 'revoked', 'scope']);
      expect(Number.isNaN(Date.parse(m.createdAt))).toBe(false);
    }
    expect(r.body.members.find((m: { id: string }) => m.id === a.id)).toMatchObject({ name: 'listed-a', revoked: false });
    expect(r.body.members.find((m: { id: string }) => m.id === b.id)).toMatchObject({ name: 'listed-b', revoked: true });
    expect(r.text).not.toMatch(/abk_/);
    expect(r.text).not.toContain(a.token);
    expect(r.text).not.toMatch(/token/i);
  });
});

describe('the member directory', () => {
  const directory = () => directoryObject(proxyEnv);
  const rows = () =>
    runInDurableObject(directory(), (_instance, state) => state.storage.sql.exec('SELECT id, name, revoked FROM members').toArray() as { id: string; name: string | null; revoked: number }[]);

  it('keeps each member\'s name and revoked state itself, so listing reads no member object', async () => {
    const kept = await member('kept-in-directory');
    const gone = await member('revoked-in-directory');
    await admin('DELETE', `/admin/members/${gone.id}`);
    const all = await rows();
    expect(all.find((r) => r.id === kept.id)).toEqual({ id: kept.id, name: 'kept-in-directory', revoked: 0 });
    expect(all.find((r) => r.id === gone.id)).toEqual({ id: gone.id, name: 'revoked-in-directory', revoked: 1 });
  });

  it('fills in, once, the profiles a directory from before kept only in the members\' objects', async () => {
    const old = await member('listed-before-the-directory-kept-names');
    await admin('DELETE', `/admin/members/${old.id}`);
    // As a wave-1 directory left it: the id and a time, nothing else.
    await runInDurableObject(directory(), (_instance, state) => state.storage.sql.exec('UPDATE members SET name = NULL, revoked = 0 WHERE id = ?', old.id));
    const listed = (await admin('GET', '/admin/members')).body.members as { id: string; name: string; revoked: boolean }[];
    expect(listed.find((m) => m.id === old.id)).toMatchObject({ name: 'listed-before-the-directory-kept-names', revoked: true });
    expect((await rows()).find((r) => r.id === old.id)).toEqual({ id: old.id, name: 'listed-before-the-directory-kept-names', revoked: 1 });
  });
});

describe('DELETE /admin/members/:id', () => {
  it('revokes with 204; the token is refused at once on every surface', async () => {
    const m = await member('revoked');
    expect((await call(m, 'GET', '/proxy/me')).status).toBe(200);
    const r = await admin('DELETE', `/admin/members/${m.id}`);
    expect(r.status).toBe(204);
    expect(r.text).toBe('');

    const lib = await api(m, 'ListAssetGroups', {});
    expect(lib.status).toBe(401);
    expect(lib.error?.Code).toBe('AuthenticationFailed');
    expect(lib.envelope.Result).toBeUndefined();

    for (const [method, path] of [['GET', '/v1/models'], ['GET', '/v1/video/generations/task-x'], ['POST', '/v1/video/generations']] as const) {
      const v1 = await call(m, method, path, method === 'POST' ? { model: 'doubao-seedance-2-0-260128', prompt: 'x' } : undefined);
      expect(v1.status, path).toBe(401);
      expect(v1.body.error.code, path).toBe('unauthorized');
    }
    for (const path of ['/proxy/me', '/proxy/consents', '/proxy/capabilities']) {
      const p = await call(m, 'GET', path);
      expect(p.status, path).toBe(401);
      expect(p.body.error.code).toBe('unauthorized');
    }
  });

  it('answers 404 for an unknown or already revoked member', async () => {
    const unknown = await admin('DELETE', '/admin/members/m0000000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('member_not_found');
    const m = await member('twice');
    expect((await admin('DELETE', `/admin/members/${m.id}`)).status).toBe(204);
    expect((await admin('DELETE', `/admin/members/${m.id}`)).status).toBe(404);
  });
});

describe('POST /admin/members/:id/token', () => {
  it('rotates: 200 with the new token; the old one is refused at once, the new one works', async () => {
    const m = await member('rotated');
    const r = await admin('POST', `/admin/members/${m.id}/token`);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['id', 'token']);
    expect(r.body.id).toBe(m.id);
    expect(r.body.token).toMatch(TOKEN_FORM);
    expect(r.body.token).not.toBe(m.token);
    memberTokens.push(r.body.token);

    const old = await call(m, 'GET', '/proxy/me');
    expect(old.status).toBe(401);
    expect((await api(m, 'ListAssetGroups', {})).error?.Code).toBe('AuthenticationFailed');
    expect((await call(m, 'GET', '/v1/models')).body.error.code).toBe('unauthorized');

    const fresh = await call(r.body.token, 'GET', '/proxy/me');
    expect(fresh.status).toBe(200);
    expect(fresh.body).toEqual({ id: m.id, name: 'rotated' });
  });

  it('answers 404 for an unknown or revoked member', async () => {
    expect((await admin('POST', '/admin/members/m0000000000000000/token')).status).toBe(404);
    const m = await member('gone');
    await admin('DELETE', `/admin/members/${m.id}`);
    const r = await admin('POST', `/admin/members/${m.id}/token`);
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('member_not_found');
    expect((await call(m, 'GET', '/proxy/me')).status).toBe(401);
  });
});

describe('admin authentication', () => {
  const routes: [string, string, unknown][] = [
    ['POST', '/admin/members', { name: 'intruder' }],
    ['GET', '/admin/members', undefined],
    ['DELETE', '/admin/members/m0000000000000000', undefined],
    ['POST', '/admin/members/m0000000000000000/token', undefined],
    // Everyone's queued creates (docs/queue.md): a member token reads only its own, at /proxy/queue.
    ['GET', '/admin/queue', undefined],
  ];

  it.each(routes)('%s %s needs the admin token (401 when missing or wrong)', async (method, path, body) => {
    const m = await member('not-admin');
    const before = await admin('GET', '/admin/members');
    const attempts: Record<string, string>[] = [
      { 'Content-Type': 'application/json' },
      { 'Content-Type': 'application/json', Authorization: 'Bearer wrong-admin-token' },
      { 'Content-Type': 'application/json', Authorization: `Bearer ${proxyEnv.ADMIN_TOKEN}x` },
      { 'Content-Type': 'application/json', Authorization: proxyEnv.ADMIN_TOKEN },
      { 'Content-Type': 'application/json', Authorization: `Bearer ${m.token}` },
    ];
    for (const headers of attempts) {
      const r = await admin(method, path, body, headers);
      expect(r.status).toBe(401);
      expect(r.body.error.code).toBe('unauthorized');
    }
    // Nothing was added.
    const after = await admin('GET', '/admin/members');
    expect(after.body.members.filter((x: { name: string }) => x.name === 'intruder')).toHaveLength(
      before.body.members.filter((x: { name: string }) => x.name === 'intruder').length,
    );
  });
});
