import { beforeAll, describe, expect, inject, it } from 'vitest';
import { api, DEV, helper, newAsset, newGroup, OTHER, settled, uniqueTag, v1 } from './testing/sandbox-test-client';

/** Every id belongs to the account that owns the key: account `other` never reaches `dev`'s ids. */

const media = inject('mediaBaseUrl');
const MODEL = 'doubao-seedance-2-0-260128';
const tag = uniqueTag('iso');
let devGroup = '';
let devAsset = '';

const asOther = (action: string, body: object) => api(action, body, { account: OTHER });

function expectDenied(res: Awaited<ReturnType<typeof api<any>>>, label: string) {
  expect(res.status, label).toBe(403);
  expect(res.error?.Code, label).toBe('AccessDenied');
  expect(res.envelope, label).not.toHaveProperty('Result');
}

const taskWithAsset = (assetId: string) => ({
  model: MODEL,
  content: [{ type: 'text', text: 'the character waves' }, { type: 'image_url', image_url: { url: `asset://${assetId}` }, role: 'reference_image' }],
});

beforeAll(async () => {
  devGroup = await newGroup(`${tag} dev group`, DEV, 'dev only');
  devAsset = await newAsset(devGroup, `${media}/media/sample.png`, 'Image', `${tag} dev asset`);
  expect((await settled(devAsset)).Status).toBe('Active');
});

describe("another account and dev's groups", () => {
  it('cannot get, update or delete them (AccessDenied, 403), and they stay unchanged', async () => {
    expectDenied(await asOther('GetAssetGroup', { Id: devGroup }), 'GetAssetGroup');
    expectDenied(await asOther('UpdateAssetGroup', { Id: devGroup, Name: 'stolen', Description: '' }), 'UpdateAssetGroup');
    expectDenied(await asOther('DeleteAssetGroup', { Id: devGroup }), 'DeleteAssetGroup');
    expect((await api('GetAssetGroup', { Id: devGroup })).result).toEqual({ Id: devGroup, Name: `${tag} dev group`, Description: 'dev only', GroupType: 'AIGC' });
  });

  it('does not see them in its lists, and TotalCount counts only its own', async () => {
    expect((await asOther('ListAssetGroups', { Filter: { GroupIds: [devGroup] } })).result).toMatchObject({ Items: [], TotalCount: 0 });
    expect((await asOther('ListAssetGroups', { Filter: { Name: tag } })).result.TotalCount).toBe(0);
    const otherGroup = await newGroup(`${tag} other group`, OTHER);
    const mixed = await asOther('ListAssetGroups', { Filter: { GroupIds: [devGroup, otherGroup] } });
    expect(mixed.result.TotalCount).toBe(1);
    expect(mixed.result.Items.map((g: any) => g.Id)).toEqual([otherGroup]);
    // And the other way round.
    const devView = await api('ListAssetGroups', { Filter: { Name: tag } });
    expect(devView.result.Items.map((g: any) => g.Id)).toEqual([devGroup]);
  });

  it('cannot create an asset in them', async () => {
    const res = await asOther('CreateAsset', { GroupId: devGroup, AssetType: 'Image', Name: 'intruder', URL: `${media}/media/sample.jpg` });
    expectDenied(res, 'CreateAsset');
    expect((await api('ListAssets', { Filter: { GroupIds: [devGroup] } })).result.Items.map((a: any) => a.Id)).toEqual([devAsset]);
  });

  it("is denied the same way for dev's ids as for ids that do not exist", async () => {
    const foreign = await asOther('GetAssetGroup', { Id: devGroup });
    const missing = await asOther('GetAssetGroup', { Id: 'group-00000000000000000000' });
    expect(foreign.status).toBe(missing.status);
    expect(foreign.error?.Code).toBe(missing.error?.Code);
  });
});

describe("another account and dev's assets", () => {
  it('cannot get, update or delete them (AccessDenied, 403), and they stay unchanged', async () => {
    expectDenied(await asOther('GetAsset', { Id: devAsset }), 'GetAsset');
    expectDenied(await asOther('UpdateAsset', { Id: devAsset, Name: 'stolen' }), 'UpdateAsset');
    expectDenied(await asOther('DeleteAsset', { Id: devAsset }), 'DeleteAsset');
    expect((await api('GetAsset', { Id: devAsset })).result).toMatchObject({ Name: `${tag} dev asset`, Status: 'Active' });
  });

  it('does not see them in ListAssets', async () => {
    expect((await asOther('ListAssets', { Filter: { GroupIds: [devGroup] } })).result).toMatchObject({ Items: [], TotalCount: 0 });
    expect((await asOther('ListAssets', { Filter: { Name: tag } })).result.TotalCount).toBe(0);
    expect((await api('ListAssets', { Filter: { Name: tag } })).result.TotalCount).toBe(1);
  });

  it('cannot use them as asset:// in a video task: 400 invalid_parameter naming the element', async () => {
    const stolen = await v1('POST', '/v1/video/generations', taskWithAsset(devAsset), OTHER);
    expect(stolen.status).toBe(400);
    expect(stolen.body.error).toMatchObject({ code: 'invalid_parameter', type: 'invalid_request_error', param: 'content[1].image_url' });
    expect(stolen.body.error.message).toContain('content[1].image_url');
    expect(stolen.body).not.toHaveProperty('id');
    // The owner can.
    const own = await v1('POST', '/v1/video/generations', taskWithAsset(devAsset), DEV);
    expect(own.status).toBe(200);
    expect(own.body.status).toBe('queued');
  });
});

describe("another account and dev's portrait session", () => {
  it('cannot resolve the PartnerToken; dev still can afterwards and the group stays dev’s', async () => {
    const session = (await api('CreatePortraitSession', {})).result;
    const name = uniqueTag('face');
    await helper('POST', '/sandbox/portrait/complete', { H5Link: session.H5Link, GroupName: name });

    const stolen = await asOther('ResolvePartnerToken', { PartnerToken: session.PartnerToken });
    expect(stolen.error).toBeDefined();
    expect(['AccessDenied', 'ValidationError']).toContain(stolen.error!.Code);
    expect(stolen.envelope).not.toHaveProperty('Result');
    expect((await asOther('ListAssetGroups', { Filter: { Name: name } })).result.TotalCount).toBe(0);

    const resolved = await api('ResolvePartnerToken', { PartnerToken: session.PartnerToken });
    expect(resolved.error).toBeUndefined();
    expect(resolved.result.GroupName).toBe(name);
    expectDenied(await asOther('GetAssetGroup', { Id: resolved.result.GroupId }), 'GetAssetGroup of the real-person group');
    expect((await asOther('ListAssets', { Filter: { GroupIds: [resolved.result.GroupId], GroupType: 'LivenessFace' } })).result.TotalCount).toBe(0);
  });
});

describe("another account and dev's video tasks", () => {
  it('gets 404 task_not_found for dev’s task id, which dev can read', async () => {
    const created = await v1('POST', '/v1/video/generations', { model: MODEL, prompt: 'a red kite' });
    expect(created.status).toBe(200);
    const id = created.body.id as string;
    const stolen = await v1('GET', `/v1/video/generations/${id}`, undefined, OTHER);
    expect(stolen.status).toBe(404);
    expect(stolen.body.error.code).toBe('task_not_found');
    expect(JSON.stringify(stolen.body)).not.toContain('a red kite');
    const own = await v1('GET', `/v1/video/generations/${id}`);
    expect(own.status).toBe(200);
    expect(own.body.id).toBe(id);
  });

  it('an unknown task id is the same 404 task_not_found', async () => {
    const res = await v1('GET', '/v1/video/generations/cgt-20260101000000-000000000000');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('task_not_found');
  });
});
