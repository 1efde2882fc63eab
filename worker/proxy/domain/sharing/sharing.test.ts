import { describe, expect, it } from 'vitest';
import { admin } from '../../testing/gateway-test-steps';
import { api, call, sandbox, waitFor } from '../../testing/proxy-test-client';
import { asset, group, member, MODEL, noUpstream, portraitSession, untilActive, upstream } from '../../testing/proxy-test-steps';
import { revoke, share, shared } from '../../testing/sharing-test-steps';

/** Sharing a group (docs/team-library.md): the body's rules, the answers, and changes that take effect at once. */

describe('PUT /proxy/groups/:groupId/sharing', () => {
  it.each([
    ['an unknown role', (_id: string) => ({ team: 'owner' }), 'team'],
    ['an unknown role for a member', (id: string) => ({ members: { [id]: 'admin' } }), '*'],
    ['an unknown field', (_id: string) => ({ team: 'viewer', public: true }), 'public'],
    ['an unknown member id', (_id: string) => ({ members: { 'm0000000000000000': 'viewer' } }), 'members.m0000000000000000'],
    ['malformed JSON', (_id: string) => '{"team":', 'body'],
  ])('refuses %s with 400 naming it, changing nothing and calling no one', async (_what, body, param) => {
    const owner = await member('owner');
    const other = await member('other');
    const g = await group(owner);
    const r = await noUpstream(() => share(owner, g, body(other.id)));
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('invalid_parameter');
    expect(r.body.error.param).toBe(param === '*' ? `members.${other.id}` : param);
    expect((await call(owner, 'GET', `/proxy/groups/${g}/sharing`)).body).toMatchObject({ team: 'none', members: {} });
  });

  it("refuses the owner's own id and a revoked member's as a grantee", async () => {
    const owner = await member('owner');
    const gone = await member('gone');
    await revoke(gone);
    const g = await group(owner);
    for (const id of [owner.id, gone.id]) {
      const r = await share(owner, g, { members: { [id]: 'viewer' } });
      expect([r.status, r.body.error.param]).toEqual([400, `members.${id}`]);
    }
  });

  it('answers the sharing: the group, its owner, the team role and each member entry; the same to a grantee', async () => {
    const owner = await member('Olga');
    const b = await member('Bert');
    const c = await member('Cleo');
    const g = await group(owner, 'Characters');
    const put = await shared(owner, g, { team: 'viewer', members: { [b.id]: 'editor', [c.id]: 'none' } });
    const expected = { groupId: g, name: 'Characters', owner: { id: owner.id, name: 'Olga' }, team: 'viewer', members: { [b.id]: 'editor', [c.id]: 'none' } };
    expect(put).toEqual(expected);
    expect((await noUpstream(() => call(b, 'GET', `/proxy/groups/${g}/sharing`))).body).toEqual(expected);
    // Fields left out keep their value.
    expect(await shared(owner, g, { members: { [c.id]: 'viewer' } })).toEqual({ ...expected, members: { [b.id]: 'editor', [c.id]: 'viewer' } });
    expect(await shared(owner, g, { team: 'none' })).toMatchObject({ team: 'none', members: { [b.id]: 'editor', [c.id]: 'viewer' } });
  });

  it("answers a never-shared group's sharing to its owner: team none, no members", async () => {
    const owner = await member('owner');
    const g = await group(owner, 'Solo');
    expect((await call(owner, 'GET', `/proxy/groups/${g}/sharing`)).body).toEqual({ groupId: g, name: 'Solo', owner: { id: owner.id, name: 'owner' }, team: 'none', members: {} });
  });

  it('shares a real-person group as viewer only', async () => {
    const owner = await member('person');
    const b = await member('b');
    const session = await portraitSession(owner);
    await sandbox.complete(session.h5Link, 'Real person', '');
    const g = (await api(owner, 'ResolvePartnerToken', { PartnerToken: session.handle })).result.GroupId as string;
    const asTeam = await share(owner, g, { team: 'editor' });
    expect([asTeam.status, asTeam.body.error.param]).toEqual([400, 'team']);
    expect(asTeam.body.error.message).toMatch(/viewer only/);
    const asMember = await share(owner, g, { members: { [b.id]: 'editor' } });
    expect([asMember.status, asMember.body.error.param]).toEqual([400, `members.${b.id}`]);
    await shared(owner, g, { members: { [b.id]: 'viewer' } });
    expect((await api(b, 'GetAssetGroup', { Id: g })).result).toMatchObject({ Id: g, GroupType: 'LivenessFace' });
  });

  it('is written to the audit log with the owner as actor', async () => {
    const owner = await member('owner');
    const b = await member('b');
    const g = await group(owner);
    await shared(owner, g, { members: { [b.id]: 'viewer' } });
    const { body } = await admin('GET', '/admin/audit?limit=20');
    expect(body.entries).toContainEqual(expect.objectContaining({ actor: owner.id, action: 'sharing.set', target: g, detail: { members: { [b.id]: 'viewer' } } }));
  });
});

describe('what is shared with whom', () => {
  it('GET /proxy/shared lists the groups others share with the caller, with role and time; not its own, not ones it is excluded from', async () => {
    const a = await member('Ann');
    const b = await member('Ben');
    const ga = await group(a, 'for Ben');
    const gteam = await group(a, 'team but not Ben');
    await group(b, 'Ben own');
    await shared(a, ga, { members: { [b.id]: 'editor' } });
    await shared(a, gteam, { team: 'viewer', members: { [b.id]: 'none' } });
    const r = await noUpstream(() => call(b, 'GET', '/proxy/shared'));
    const mine = r.body.groups.filter((g: { owner: { id: string } }) => g.owner.id === a.id);
    expect(mine).toEqual([{ groupId: ga, name: 'for Ben', owner: { id: a.id, name: 'Ann' }, role: 'editor', sharedAt: expect.any(String) }]);
    expect((await call(a, 'GET', '/proxy/shared')).body.groups.map((g: { groupId: string }) => g.groupId)).not.toContain(ga);
  });

  it('GET /proxy/team lists the active members other than the caller, without tokens', async () => {
    const a = await member('Ann');
    const b = await member('Ben');
    const gone = await member('Gone');
    await revoke(gone);
    const r = await noUpstream(() => call(a, 'GET', '/proxy/team'));
    expect(r.status).toBe(200);
    expect(r.body.members).toContainEqual({ id: b.id, name: 'Ben' });
    const ids = r.body.members.map((m: { id: string }) => m.id);
    expect(ids).not.toContain(a.id);
    expect(ids).not.toContain(gone.id);
    expect(JSON.stringify(r.body)).not.toMatch(/abk_|token/);
  });

  it('a grantee sees a renamed shared group under its new name', async () => {
    const a = await member('a');
    const b = await member('b');
    const g = await group(a, 'before');
    await shared(a, g, { members: { [b.id]: 'editor' } });
    expect((await api(b, 'UpdateAssetGroup', { Id: g, Name: 'after' })).error).toBeUndefined();
    expect((await call(b, 'GET', '/proxy/shared')).body.groups.find((x: { groupId: string }) => x.groupId === g).name).toBe('after');
  });
});

describe('changes take effect at once', () => {
  it('a create that starts after the role is revoked is refused, while the one already sent goes on', async () => {
    const a = await member('owner');
    const b = await member('grantee');
    const g = await group(a);
    const x = await asset(a, g, 'character');
    await untilActive(a, x);
    await shared(a, g, { members: { [b.id]: 'viewer' } });
    const body = { model: MODEL, content: [{ type: 'text', text: 'a cat' }, { type: 'image_url', image_url: { url: `asset://${x}` }, role: 'reference_image' }] };
    const before = (await sandbox.stats())['v1-create']?.total ?? 0;
    await sandbox.fault({ target: 'v1-create', status: 200, delayMs: 800, count: 1 });
    const first = call(b, 'POST', '/v1/video/generations', body);
    // The first create has passed its checks and is at the service when the owner takes the role back.
    await waitFor(() => sandbox.stats(), (s) => (s['v1-create']?.total ?? 0) > before);
    await shared(a, g, { members: { [b.id]: 'none' } });
    const { value: second, calls } = await upstream(() => call(b, 'POST', '/v1/video/generations', body));
    expect(second.status).toBe(400);
    expect(second.body.error).toMatchObject({ code: 'invalid_parameter', param: 'content[1].image_url' });
    expect(calls()).toBe(0);
    expect((await first).status).toBe(200);
  });

  it("an asset an editor adds belongs to the group's owner; the editor loses it with the role", async () => {
    const a = await member('owner');
    const e = await member('editor');
    const g = await group(a);
    await shared(a, g, { members: { [e.id]: 'editor' } });
    const added = await asset(e, g, 'from the editor');
    // The owner reaches it as their own (the check asks no one after the first time).
    expect((await api(a, 'GetAsset', { Id: added })).result).toMatchObject({ Id: added, GroupId: g });
    expect((await api(a, 'ListAssets', { Filter: { GroupIds: [g] } })).result.Items.map((i: { Id: string }) => i.Id)).toContain(added);
    await shared(a, g, { members: { [e.id]: 'none' } });
    const r = await noUpstream(() => api(e, 'GetAsset', { Id: added }));
    expect([r.status, r.error?.Code]).toEqual([403, 'AccessDenied']);
  });

  it("an asset the owner adds after sharing is the grantees' at once", async () => {
    const a = await member('owner');
    const v = await member('viewer');
    const g = await group(a);
    await shared(a, g, { members: { [v.id]: 'viewer' } });
    const later = await asset(a, g, 'later');
    expect((await api(v, 'GetAsset', { Id: later })).result).toMatchObject({ Id: later });
  });

  it("revoking the owner keeps the group, its assets and its sharing", async () => {
    const a = await member('owner');
    const v = await member('viewer');
    const g = await group(a, 'kept');
    const x = await asset(a, g, 'kept asset');
    await shared(a, g, { members: { [v.id]: 'viewer' } });
    await revoke(a);
    expect((await api(v, 'GetAssetGroup', { Id: g })).result).toMatchObject({ Id: g, Name: 'kept' });
    expect((await api(v, 'GetAsset', { Id: x })).result).toMatchObject({ Id: x });
    expect((await call(v, 'GET', '/proxy/shared')).body.groups.map((s: { groupId: string }) => s.groupId)).toContain(g);
  });
});
