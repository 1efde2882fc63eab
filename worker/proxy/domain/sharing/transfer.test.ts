import { describe, expect, it } from 'vitest';
import { admin } from '../../testing/gateway-test-steps';
import { api, call } from '../../testing/proxy-test-client';
import { asset, group, member, memberRows, noUpstream } from '../../testing/proxy-test-steps';
import { revoke, shared } from '../../testing/sharing-test-steps';

/** `POST /admin/members/:id/transfer` (docs/team-library.md): a member's groups, with their assets and sharing, move to another. */

const transfer = (from: string, body: unknown) => admin('POST', `/admin/members/${from}/transfer`, body);

describe('transfer', () => {
  it("moves every group of a revoked member, with its assets and sharing, to another member", async () => {
    const a = await member('Leaver');
    const c = await member('Heir');
    const v = await member('viewer');
    const e = await member('editor');
    const sharedGroup = await group(a, 'shared');
    const privateGroup = await group(a, 'private');
    const x1 = await asset(a, sharedGroup, 'one');
    const x2 = await asset(a, privateGroup, 'two');
    await shared(a, sharedGroup, { members: { [v.id]: 'viewer', [e.id]: 'editor' } });
    // An editor's asset the owner's object has not seen yet moves too.
    const x3 = await asset(e, sharedGroup, 'from the editor');
    await revoke(a);

    const r = await noUpstream(() => transfer(a.id, { to: c.id }));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({ groups: 2, assets: 3 });

    // The heir owns them: reads, changes, sharing, deleting.
    for (const g of [sharedGroup, privateGroup]) expect((await api(c, 'GetAssetGroup', { Id: g })).error).toBeUndefined();
    for (const x of [x1, x2, x3]) expect((await api(c, 'GetAsset', { Id: x })).error).toBeUndefined();
    const sharing = await call(c, 'GET', `/proxy/groups/${sharedGroup}/sharing`);
    expect(sharing.body).toMatchObject({ owner: { id: c.id, name: 'Heir' }, members: { [v.id]: 'viewer', [e.id]: 'editor' } });
    expect((await call(c, 'PUT', `/proxy/groups/${sharedGroup}/sharing`, { team: 'none' })).status).toBe(200);
    // The grantees keep their roles.
    expect((await api(v, 'GetAsset', { Id: x1 })).error).toBeUndefined();
    expect((await call(v, 'GET', '/proxy/shared')).body.groups).toContainEqual(expect.objectContaining({ groupId: sharedGroup, owner: { id: c.id, name: 'Heir' } }));
    // Nothing is left with the leaver.
    expect(await memberRows(a, "SELECT id FROM owned WHERE kind IN ('group', 'asset')")).toEqual([]);
    expect((await api(c, 'DeleteAssetGroup', { Id: privateGroup })).error).toBeUndefined();

    const { body } = await admin('GET', '/admin/audit?limit=20');
    expect(body.entries).toContainEqual(expect.objectContaining({ actor: 'admin', action: 'member.transfer', target: a.id, detail: { to: c.id, groups: 2, assets: 3 } }));
  });

  it('a second run moves nothing more and breaks nothing', async () => {
    const a = await member('a');
    const c = await member('c');
    const g = await group(a);
    await revoke(a);
    expect((await transfer(a.id, { to: c.id })).body).toEqual({ groups: 1, assets: 0 });
    expect((await transfer(a.id, { to: c.id })).body).toEqual({ groups: 0, assets: 0 });
    expect((await api(c, 'GetAssetGroup', { Id: g })).error).toBeUndefined();
  });

  it.each([
    ['an unknown member as recipient', () => ({ to: 'm0000000000000000' }), 'to'],
    ['no recipient', () => ({}), 'to'],
    ['an unknown field', (to: string) => ({ to, groups: 'all' }), 'groups'],
  ])('refuses %s with 400 naming it', async (_what, body, param) => {
    const a = await member('a');
    const c = await member('c');
    const r = await transfer(a.id, body(c.id));
    expect([r.status, r.body.error.param]).toEqual([400, param]);
  });

  it('refuses a revoked recipient and the member itself (400), an unknown member (404)', async () => {
    const a = await member('a');
    const gone = await member('gone');
    await revoke(gone);
    expect((await transfer(a.id, { to: gone.id })).status).toBe(400);
    expect((await transfer(a.id, { to: a.id })).status).toBe(400);
    expect((await transfer('m0000000000000000', { to: a.id })).status).toBe(404);
  });

  it('is the admin\'s alone: a member token is refused, and nothing moves', async () => {
    const a = await member('a');
    const b = await member('b');
    const g = await group(a);
    const r = await call(b, 'POST', `/admin/members/${a.id}/transfer`, { to: b.id });
    expect(r.status).toBe(401);
    expect((await api(b, 'GetAssetGroup', { Id: g })).error?.Code).toBe('AccessDenied');
    expect((await api(a, 'GetAssetGroup', { Id: g })).error).toBeUndefined();
  });
});

describe('GET /admin/members/:id/groups', () => {
  it("lists a member's groups with names and sharing, revoked members included", async () => {
    const a = await member('a');
    const b = await member('b');
    const g1 = await group(a, 'first');
    const g2 = await group(a, 'second');
    await shared(a, g1, { members: { [b.id]: 'viewer' } });
    await revoke(a);
    const r = await admin('GET', `/admin/members/${a.id}/groups`);
    expect(r.status).toBe(200);
    expect(r.body.groups).toEqual(expect.arrayContaining([
      { groupId: g1, name: 'first', team: 'none', members: { [b.id]: 'viewer' } },
      { groupId: g2, name: 'second', team: 'none', members: {} },
    ]));
    expect((await admin('GET', '/admin/members/m0000000000000000/groups')).status).toBe(404);
  });
});
