import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../../testing/proxy-test-client';
import { api, call, sandbox } from '../../testing/proxy-test-client';
import { finishTasks } from '../../testing/gateway-test-steps';
import { asset, group, member, MODEL, noUpstream, PNG, portraitSession, task, untilActive, upstream } from '../../testing/proxy-test-steps';
import { AUTH_KINDS, useAuth } from '../../testing/signed-client';

/**
 * Members are isolated (docs/proxy-api.md): every id belongs to the member who obtained
 * it; another member's id gets AccessDenied 403 (404 task_not_found, 400 invalid_parameter on /v1)
 * and nothing is sent upstream. Lists hold only the member's own items. On both paths into
 * `/api/v3`: the member's bearer token, and a call signed with the member's access key.
 */

interface Owner {
  a: Member;
  groupId: string;
  assetId: string;
  taskId: string;
  handle: string;
}

async function owner(): Promise<Owner> {
  const a = await member('owner');
  const groupId = await group(a, 'A-group');
  const assetId = await asset(a, groupId, 'A-asset');
  const taskId = await task(a);
  // Ended (the sandbox's clock moved on, its tracking run): while running, the owner's object asks
  // the service about it every second, a call that would land in the intruder's count of upstream calls.
  await finishTasks(a);
  const { handle } = await portraitSession(a);
  return { a, groupId, assetId, taskId, handle };
}

type LibraryCase = [operation: string, body: (o: Owner) => Record<string, unknown>];

const LIBRARY_CASES: LibraryCase[] = [
  ['GetAssetGroup', (o) => ({ Id: o.groupId })],
  ['UpdateAssetGroup', (o) => ({ Id: o.groupId, Name: 'stolen' })],
  ['DeleteAssetGroup', (o) => ({ Id: o.groupId })],
  ['CreateAsset', (o) => ({ GroupId: o.groupId, AssetType: 'Image', Name: 'intruder', URL: PNG() })],
  ['GetAsset', (o) => ({ Id: o.assetId })],
  ['UpdateAsset', (o) => ({ Id: o.assetId, Name: 'stolen' })],
  ['DeleteAsset', (o) => ({ Id: o.assetId })],
  ['ResolvePartnerToken', (o) => ({ PartnerToken: o.handle })],
];

describe.each(AUTH_KINDS)('/api/v3 with a %s call', (kind) => {
  beforeAll(() => useAuth(kind));
  afterAll(() => useAuth('bearer'));

  describe("another member's ids", () => {
    it.each(LIBRARY_CASES)('%s on the other member\'s id: AccessDenied 403, no upstream call', async (operation, body) => {
      const o = await owner();
      const b = await member('intruder');
      const r = await noUpstream(() => api(b, operation, body(o)));
      expect(r.status).toBe(403);
      expect(r.error?.Code).toBe('AccessDenied');
      expect(r.envelope.ResponseMetadata.Action).toBe(operation);
      expect(r.envelope.Result).toBeUndefined();

      // The owner's things are untouched and still theirs.
      expect((await api(o.a, 'GetAssetGroup', { Id: o.groupId })).result).toMatchObject({ Id: o.groupId, Name: 'A-group' });
      expect((await api(o.a, 'GetAsset', { Id: o.assetId })).result).toMatchObject({ Id: o.assetId, Name: 'A-asset' });
      expect((await api(o.a, 'ListAssets', {})).result.TotalCount).toBe(1);
    });

    it.each(LIBRARY_CASES)('%s on an id the member never obtained: AccessDenied 403, no upstream call', async (operation, body) => {
      const b = await member('guesser');
      const made: Owner = { a: b, groupId: 'group-never-seen', assetId: 'asset-never-seen', taskId: 'task-never-seen', handle: 'ph_never_seen' };
      const r = await noUpstream(() => api(b, operation, body(made)));
      expect([r.status, r.error?.Code]).toEqual([403, 'AccessDenied']);
    });

    it("the owner's portrait handle still resolves for the owner after another member tried it", async () => {
      const o = await owner();
      const b = await member('intruder');
      expect((await api(b, 'ResolvePartnerToken', { PartnerToken: o.handle })).error?.Code).toBe('AccessDenied');
      // Still pending for its owner (the service says so), not consumed by the intruder.
      const pending = await api(o.a, 'ResolvePartnerToken', { PartnerToken: o.handle });
      expect(pending.error?.Code).toBe('ValidationError');
      expect(pending.error?.Message).not.toMatch(/already resolved|another member/);
    });

    it("GET of another member's task: 404 task_not_found, no upstream call", async () => {
      const o = await owner();
      const b = await member('intruder');
      const r = await noUpstream(() => call(b, 'GET', `/v1/video/generations/${o.taskId}`));
      expect(r.status).toBe(404);
      expect(r.body.error).toMatchObject({ code: 'task_not_found', type: 'invalid_request_error' });
      // The owner still reads it.
      const mine = await call(o.a, 'GET', `/v1/video/generations/${o.taskId}`);
      expect(mine.status).toBe(200);
      expect(mine.body.id).toBe(o.taskId);
    });

    it('GET of an unknown task id: 404 task_not_found, no upstream call', async () => {
      const b = await member('guesser');
      const r = await noUpstream(() => call(b, 'GET', '/v1/video/generations/cgt-20260101-unknown'));
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe('task_not_found');
    });

    it("asset:// of another member's asset in a create: 400 invalid_parameter naming the element, nothing sent upstream", async () => {
      const o = await owner();
      await untilActive(o.a, o.assetId);
      const b = await member('intruder');
      const r = await noUpstream(() =>
        call(b, 'POST', '/v1/video/generations', {
          model: MODEL,
          content: [
            { type: 'text', text: 'a cat' },
            { type: 'image_url', image_url: { url: PNG() }, role: 'reference_image' },
            { type: 'image_url', image_url: { url: `asset://${o.assetId}` }, role: 'reference_image' },
          ],
        }),
      );
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'invalid_parameter', type: 'invalid_request_error', param: 'content[2].image_url' });
      expect(r.body.error.message).toContain('content[2].image_url');
    });

    it('asset:// of another member in the compatibility image field is refused too', async () => {
      const o = await owner();
      const b = await member('intruder');
      const r = await noUpstream(() => call(b, 'POST', '/v1/video/generations', { model: MODEL, prompt: 'x', images: [`asset://${o.assetId}`] }));
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'invalid_parameter', param: 'images[0]' });
    });
  });

  describe('lists never leak', () => {
    async function twoMembers() {
      const a = await member('lister-a');
      const b = await member('lister-b');
      const ga = await group(a, 'shared-name');
      const aa = await asset(a, ga, 'shared-asset');
      const gb = await group(b, 'shared-name');
      const ab = await asset(b, gb, 'shared-asset');
      return { a, b, ga, aa, gb, ab };
    }

    it('ListAssetGroups holds only own groups and TotalCount counts only those', async () => {
      const { a, b, ga, gb } = await twoMembers();
      await group(a, 'another-of-a');
      const rb = await api(b, 'ListAssetGroups', { PageSize: 100 });
      expect(rb.result.Items.map((g: any) => g.Id)).toEqual([gb]);
      expect(rb.result.TotalCount).toBe(1);
      const ra = await api(a, 'ListAssetGroups', { Filter: { Name: 'shared' } });
      expect(ra.result.Items.map((g: any) => g.Id)).toEqual([ga]);
      expect(ra.result.TotalCount).toBe(1);
      // The sandbox account, shared by all members, holds many more groups than that.
    });

    it('ListAssets holds only own assets and TotalCount counts only those', async () => {
      const { a, b, aa, ab } = await twoMembers();
      const rb = await api(b, 'ListAssets', { PageSize: 100 });
      expect(rb.result.Items.map((x: any) => x.Id)).toEqual([ab]);
      expect(rb.result.TotalCount).toBe(1);
      const ra = await api(a, 'ListAssets', { Filter: { Name: 'shared-asset' } });
      expect(ra.result.Items.map((x: any) => x.Id)).toEqual([aa]);
      expect(ra.result.TotalCount).toBe(1);
    });

    it.each(['ListAssetGroups', 'ListAssets'])("%s with only the other member's GroupIds: an empty page, no upstream call", async (operation) => {
      const { b, ga } = await twoMembers();
      const r = await noUpstream(() => api(b, operation, { Filter: { GroupIds: [ga] }, PageSize: 7 }));
      expect(r.status).toBe(200);
      expect(r.error).toBeUndefined();
      expect(r.envelope.ResponseMetadata.Action).toBe(operation);
      expect(r.result).toEqual({ Items: [], TotalCount: 0, PageNumber: 1, PageSize: 7 });
    });

    it.each(['ListAssetGroups', 'ListAssets'])('%s with a mixed GroupIds filter: only the intersection with own groups', async (operation) => {
      const { b, ga, gb, ab } = await twoMembers();
      const { value: r, calls } = await upstream(() => api(b, operation, { Filter: { GroupIds: [ga, gb, 'group-unknown'] } }));
      expect(calls('api/v3', operation)).toBe(1);
      const expected = operation === 'ListAssets' ? [ab] : [gb];
      expect(r.result.Items.map((x: any) => x.Id)).toEqual(expected);
      expect(r.result.TotalCount).toBe(1);
    });

    it('a LivenessFace filter does not reveal the other member\'s real-person group', async () => {
      const a = await member('person-a');
      const b = await member('person-b');
      const session = await portraitSession(a);
      await sandbox.complete(session.h5Link, 'Real A', '');
      const resolved = await api(a, 'ResolvePartnerToken', { PartnerToken: session.handle });
      const groupId = resolved.result.GroupId;
      await group(b, 'b-own');
      for (const operation of ['ListAssetGroups', 'ListAssets']) {
        const r = await api(b, operation, { Filter: { GroupType: 'LivenessFace' } });
        expect(r.result.TotalCount, operation).toBe(0);
        const direct = await noUpstream(() => api(b, operation, { Filter: { GroupIds: [groupId], GroupType: 'LivenessFace' } }));
        expect(direct.result.Items, operation).toEqual([]);
      }
      expect((await api(a, 'ListAssetGroups', { Filter: { GroupType: 'LivenessFace' } })).result.Items.map((g: any) => g.Id)).toEqual([groupId]);
    });
  });
});
