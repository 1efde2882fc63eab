import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, call, unauthorizedCode, type Member } from '../../testing/proxy-test-client';
import { AUTH_KINDS, prepareAuth, useAuth, type AuthKind } from '../../testing/signed-client';
import { asset, group, member, MODEL, PNG, untilActive, upstream } from '../../testing/proxy-test-steps';
import { revoke, shared } from '../../testing/sharing-test-steps';

/**
 * What each role allows on a shared group (docs/team-library.md), through the service's own
 * interface: every operation x owner / editor / viewer / a member excluded from a team share /
 * a stranger to the group / a revoked grantee. Allowed calls reach the service once and answer its
 * bytes; refused ones answer the proxy's refusal with no upstream call at all. Every `/api/v3` case
 * runs on both paths: with the member's bearer token, and signed with the member's access key.
 */

type Role = 'owner' | 'editor' | 'viewer' | 'excluded' | 'stranger' | 'revoked';
const ROLES: Role[] = ['owner', 'editor', 'viewer', 'excluded', 'stranger', 'revoked'];

interface Fixture {
  owner: Member;
  actor: Member;
  groupId: string;
  assetId: string;
  spareId: string;
}

/** A group of its owner with two assets, and `role` given to the acting member. */
async function fixture(role: Role, kind: AuthKind): Promise<Fixture> {
  const owner = await member('owner');
  const actor = role === 'owner' ? owner : await member(role);
  const groupId = await group(owner, `shared by ${role}`);
  const assetId = await asset(owner, groupId, 'kept');
  const spareId = await asset(owner, groupId, 'spare');
  await untilActive(owner, assetId);
  const bodies: Record<Role, () => Promise<unknown>> = {
    owner: async () => ({ members: { [(await member('someone')).id]: 'viewer' } }),
    editor: async () => ({ members: { [actor.id]: 'editor' } }),
    viewer: async () => ({ members: { [actor.id]: 'viewer' } }),
    // Everyone else in the team is an editor: the member's own entry takes them out.
    excluded: async () => ({ team: 'editor', members: { [actor.id]: 'none' } }),
    // The group is shared, only not with this member.
    stranger: async () => ({ members: { [(await member('other')).id]: 'editor' } }),
    revoked: async () => ({ members: { [actor.id]: 'editor' } }),
  };
  await shared(owner, groupId, await bodies[role]());
  if (role === 'revoked') {
    // The grantee's key exists before the revocation, which ends it.
    await prepareAuth(kind, actor.token);
    await revoke(actor);
  }
  return { owner, actor, groupId, assetId, spareId };
}

/** An `/api/v3` operation that either reaches the service once (allowed) or is refused 403 AccessDenied without a call. */
const library = (action: string, body: (f: Fixture) => Record<string, unknown>) => async (f: Fixture, allowed: boolean, role: Role) => {
  const { value: r, calls } = await upstream(() => api(f.actor, action, body(f)));
  if (role === 'revoked') {
    expect([r.status, r.error?.Code]).toEqual([401, unauthorizedCode()]);
  } else if (allowed) {
    expect(r.error, JSON.stringify(r.envelope)).toBeUndefined();
    expect(r.status).toBe(200);
    expect(calls('api/v3', action)).toBe(1);
  } else {
    expect([r.status, r.error?.Code]).toEqual([403, 'AccessDenied']);
    expect(r.envelope.ResponseMetadata.Action).toBe(action);
  }
  if (!allowed) expect(calls(), 'upstream calls').toBe(0);
};

/** A list that holds the shared group's items for a grantee and nothing of it for anyone else. */
const list = (action: 'ListAssetGroups' | 'ListAssets', filtered: boolean) => async (f: Fixture, allowed: boolean, role: Role) => {
  const body = filtered ? { Filter: { GroupIds: [f.groupId] }, PageSize: 100 } : { PageSize: 100 };
  const { value: r, calls } = await upstream(() => api(f.actor, action, body));
  if (role === 'revoked') {
    expect(r.status).toBe(401);
    expect(calls()).toBe(0);
    return;
  }
  expect(r.error, JSON.stringify(r.envelope)).toBeUndefined();
  const ids = r.result.Items.map((x: { Id: string }) => x.Id);
  const expected = action === 'ListAssets' ? [f.assetId, f.spareId] : [f.groupId];
  if (allowed) expect(ids).toEqual(expect.arrayContaining(expected));
  else for (const id of expected) expect(ids).not.toContain(id);
  // Filtered on a group the member may not see: an empty page with no upstream call.
  if (filtered && !allowed) expect([r.result.TotalCount, calls()]).toEqual([0, 0]);
};

/** A video create referencing the shared asset: accepted, or 400 naming the element with nothing sent. */
const reference = async (f: Fixture, allowed: boolean, role: Role) => {
  const body = { model: MODEL, content: [{ type: 'text', text: 'a cat' }, { type: 'image_url', image_url: { url: `asset://${f.assetId}` }, role: 'reference_image' }] };
  const { value: r, calls } = await upstream(() => call(f.actor, 'POST', '/v1/video/generations', body));
  if (role === 'revoked') expect(r.status).toBe(401);
  else if (allowed) {
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    // The readiness check still applies: one GetAsset, then the create.
    expect([calls('api/v3', 'GetAsset'), calls('v1-create')]).toEqual([1, 1]);
  } else {
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_parameter', param: 'content[1].image_url' });
    expect(r.body.error.message).toContain('is not in your library');
  }
  if (!allowed) expect(calls()).toBe(0);
};

/** The group's sharing: shown to its owner and its grantees; 404 to anyone else, existence not revealed. */
const sharingGet = async (f: Fixture, allowed: boolean, role: Role) => {
  const { value: r, calls } = await upstream(() => call(f.actor, 'GET', `/proxy/groups/${f.groupId}/sharing`));
  if (role === 'revoked') expect(r.status).toBe(401);
  else if (allowed) expect(r.body).toMatchObject({ groupId: f.groupId, owner: { id: f.owner.id, name: 'owner' } });
  else expect([r.status, r.body.error.code]).toEqual([404, 'group_not_found']);
  expect(calls()).toBe(0);
};

/** Changing the sharing: the owner only; a grantee 403 not_owner, anyone else 404. */
const sharingPut = async (f: Fixture, allowed: boolean, role: Role) => {
  const { value: r, calls } = await upstream(() => call(f.actor, 'PUT', `/proxy/groups/${f.groupId}/sharing`, { team: 'none' }));
  if (role === 'revoked') expect(r.status).toBe(401);
  else if (allowed) expect([r.status, r.body.team, r.body.owner.id]).toEqual([200, 'none', f.owner.id]);
  else if (role === 'editor' || role === 'viewer') expect([r.status, r.body.error.code]).toEqual([403, 'not_owner']);
  else expect([r.status, r.body.error.code]).toEqual([404, 'group_not_found']);
  // The group is known to the team library already: no call to the service, even for its owner.
  expect(calls()).toBe(0);
};

type Check = (f: Fixture, allowed: boolean, role: Role) => Promise<void>;

/** Each operation and who may do it; destructive ones last, as each role's fixture is shared by its operations. */
const OPERATIONS: [name: string, allowedTo: Role[], check: Check][] = [
  ['GetAssetGroup', ['owner', 'editor', 'viewer'], library('GetAssetGroup', (f) => ({ Id: f.groupId }))],
  ['ListAssetGroups without a filter', ['owner', 'editor', 'viewer'], list('ListAssetGroups', false)],
  ['ListAssetGroups filtered on the group', ['owner', 'editor', 'viewer'], list('ListAssetGroups', true)],
  ['ListAssets without a filter', ['owner', 'editor', 'viewer'], list('ListAssets', false)],
  ['ListAssets filtered on the group', ['owner', 'editor', 'viewer'], list('ListAssets', true)],
  ['GetAsset', ['owner', 'editor', 'viewer'], library('GetAsset', (f) => ({ Id: f.assetId }))],
  ['asset:// in a video create', ['owner', 'editor', 'viewer'], reference],
  ['GET sharing', ['owner', 'editor', 'viewer'], sharingGet],
  ['PUT sharing', ['owner'], sharingPut],
  ['UpdateAssetGroup', ['owner', 'editor'], library('UpdateAssetGroup', (f) => ({ Id: f.groupId, Name: 'renamed' }))],
  ['CreateAsset', ['owner', 'editor'], library('CreateAsset', (f) => ({ GroupId: f.groupId, AssetType: 'Image', Name: 'added', URL: PNG() }))],
  ['UpdateAsset', ['owner', 'editor'], library('UpdateAsset', (f) => ({ Id: f.assetId, Name: 'renamed' }))],
  ['DeleteAsset', ['owner', 'editor'], library('DeleteAsset', (f) => ({ Id: f.spareId }))],
  ['DeleteAssetGroup', ['owner'], library('DeleteAssetGroup', (f) => ({ Id: f.groupId }))],
];

describe.each(AUTH_KINDS)('/api/v3 with a %s call', (kind) => {
  beforeAll(() => useAuth(kind));
  afterAll(() => useAuth('bearer'));

  describe.each(ROLES)('a shared group, as its %s', (role) => {
    let f: Fixture;
    beforeAll(async () => {
      f = await fixture(role, kind);
    }, 60_000);

    it.each(OPERATIONS.map(([name, allowedTo, check]) => [name, allowedTo.includes(role), check] as const))(
      '%s: allowed %s',
      async (_name, allowed, check) => {
        await check(f, allowed, role);
      },
    );
  });
});
