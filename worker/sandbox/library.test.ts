import { describe, expect, inject, it } from 'vitest';
import { api, helper, newAsset, newGroup, settled, uniqueTag } from './testing/sandbox-test-client';

/** The `/api/v3` envelope of each of the twelve operations, and the interface-level rejections. */

const media = inject('mediaBaseUrl');
const UUIDISH = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const requestIds = new Set<string>();

/** A success: HTTP 200, exactly the five metadata fields, a Result, no Error. */
function expectSuccess(res: Awaited<ReturnType<typeof api<any>>>, action: string) {
  expect(res.status, JSON.stringify(res.envelope)).toBe(200);
  expect(Object.keys(res.envelope).sort()).toEqual(['ResponseMetadata', 'Result']);
  const meta = res.envelope.ResponseMetadata;
  expect(meta).toEqual({ RequestId: meta.RequestId, Action: action, Version: '2024-01-01', Service: 'ark', Region: 'cn-beijing' });
  expect(meta.RequestId).toMatch(UUIDISH);
  expect(requestIds.has(meta.RequestId), 'RequestId is unique per request').toBe(false);
  requestIds.add(meta.RequestId);
  expect(typeof res.result).toBe('object');
  return res.result;
}

/** A failure: Error {Code, Message} in ResponseMetadata, the same constants, and no Result. */
function expectFailure(res: Awaited<ReturnType<typeof api<any>>>, action: string, code: string, status: number) {
  expect(res.status).toBe(status);
  expect(Object.keys(res.envelope)).toEqual(['ResponseMetadata']);
  const meta = res.envelope.ResponseMetadata;
  expect(meta).toEqual({
    RequestId: expect.stringMatching(UUIDISH),
    Action: action,
    Version: '2024-01-01',
    Service: 'ark',
    Region: 'cn-beijing',
    Error: { Code: code, Message: expect.any(String) },
  });
  expect(meta.Error.Message.length).toBeGreaterThan(5);
  return meta.Error.Message as string;
}

describe('the success envelope of each of the twelve operations', () => {
  it('CreateAssetGroup, GetAssetGroup, ListAssetGroups, UpdateAssetGroup', async () => {
    const name = uniqueTag('env');
    const created = expectSuccess(await api('CreateAssetGroup', { Name: name, Description: 'd' }), 'CreateAssetGroup');
    expect(Object.keys(created)).toEqual(['Id']);
    expect(typeof created.Id).toBe('string');

    const got = expectSuccess(await api('GetAssetGroup', { Id: created.Id }), 'GetAssetGroup');
    expect(got).toEqual({ Id: created.Id, Name: name, Description: 'd', GroupType: 'AIGC' });

    const listed = expectSuccess(await api('ListAssetGroups', { Filter: { GroupIds: [created.Id] } }), 'ListAssetGroups');
    expect(Object.keys(listed).sort()).toEqual(['Items', 'PageNumber', 'PageSize', 'TotalCount']);
    expect(listed.TotalCount).toBe(1);
    expect(listed.Items[0]).toEqual({
      Id: created.Id,
      Name: name,
      Description: 'd',
      GroupType: 'AIGC',
      CreateTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
      UpdateTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
    });

    const updated = expectSuccess(await api('UpdateAssetGroup', { Id: created.Id, Name: `${name}-2` }), 'UpdateAssetGroup');
    expect(updated).toEqual({ Id: created.Id });
  });

  it('CreateAsset, GetAsset, ListAssets, UpdateAsset, DeleteAsset, DeleteAssetGroup (deletes return {})', async () => {
    const groupId = await newGroup();
    const created = expectSuccess(
      await api('CreateAsset', { GroupId: groupId, AssetType: 'Image', Name: 'cat', URL: `${media}/media/sample.png` }),
      'CreateAsset',
    );
    expect(Object.keys(created)).toEqual(['Id']);

    const got = expectSuccess(await api('GetAsset', { Id: created.Id }), 'GetAsset');
    expect(got).toMatchObject({ Id: created.Id, GroupId: groupId, Name: 'cat', URL: `${media}/media/sample.png`, AssetType: 'Image' });
    expect(['Processing', 'Active']).toContain(got.Status);
    expect(got.Error).toEqual({ Code: '', Message: '' });

    const listed = expectSuccess(await api('ListAssets', { Filter: { GroupIds: [groupId] } }), 'ListAssets');
    expect(listed.TotalCount).toBe(1);
    expect(Object.keys(listed.Items[0]).sort()).toEqual(['AssetType', 'Error', 'GroupId', 'Id', 'Name', 'Status', 'URL']);

    expect(expectSuccess(await api('UpdateAsset', { Id: created.Id, Name: 'dog' }), 'UpdateAsset')).toEqual({ Id: created.Id });
    expect(expectSuccess(await api('DeleteAsset', { Id: created.Id }), 'DeleteAsset')).toEqual({});
    expect(expectSuccess(await api('DeleteAssetGroup', { Id: groupId }), 'DeleteAssetGroup')).toEqual({});
  });

  it('CreatePortraitSession and ResolvePartnerToken', async () => {
    const session = expectSuccess(await api('CreatePortraitSession', {}), 'CreatePortraitSession');
    expect(Object.keys(session).sort()).toEqual(['ExpireTime', 'ExpiresIn', 'H5Link', 'PartnerToken']);
    const done = await helper('POST', '/sandbox/portrait/complete', { H5Link: session.H5Link, GroupName: 'Me', GroupDescription: '' });
    expect(done.status).toBe(200);
    const resolved = expectSuccess(await api('ResolvePartnerToken', { PartnerToken: session.PartnerToken }), 'ResolvePartnerToken');
    expect(Object.keys(resolved).sort()).toEqual(['GroupDescription', 'GroupId', 'GroupName']);
  });
});

describe('the failure envelope', () => {
  it('AccessDenied carries HTTP 403 with Error and no Result', async () => {
    expectFailure(await api('GetAssetGroup', { Id: 'group-does-not-exist' }), 'GetAssetGroup', 'AccessDenied', 403);
    expectFailure(await api('GetAsset', { Id: 'asset-does-not-exist' }), 'GetAsset', 'AccessDenied', 403);
  });

  it('ValidationError carries HTTP 200 with Error and no Result', async () => {
    const message = expectFailure(await api('CreateAssetGroup', { Name: '' }), 'CreateAssetGroup', 'ValidationError', 200);
    expect(message).toMatch(/^Name: /);
  });

  it('an unknown Action is a ValidationError (HTTP 200) naming Action, echoed in the envelope', async () => {
    const message = expectFailure(await api('CreateVideo', {}), 'CreateVideo', 'ValidationError', 200);
    expect(message).toMatch(/^Action: /);
    expect(message).toContain('CreateVideo');
  });

  it('an Action in the wrong case is unknown', async () => {
    expectFailure(await api('listassetgroups', {}), 'listassetgroups', 'ValidationError', 200);
  });

  it('a Version other than 2024-01-01 is a ValidationError naming Version, and the operation does not run', async () => {
    const name = uniqueTag('wrong-version');
    const message = expectFailure(await api('CreateAssetGroup', { Name: name }, { version: '2023-01-01' }), 'CreateAssetGroup', 'ValidationError', 200);
    expect(message).toMatch(/^Version: .*2024-01-01/);
    expect((await api('ListAssetGroups', { Filter: { Name: name } })).result.TotalCount).toBe(0);
  });

  it('malformed JSON (signed as sent) is a ValidationError naming the body', async () => {
    const message = expectFailure(await api('CreateAssetGroup', undefined, { rawBody: '{"Name": "x",' }), 'CreateAssetGroup', 'ValidationError', 200);
    expect(message).toMatch(/^body: .*JSON/);
  });

  it('an empty body is malformed JSON', async () => {
    expectFailure(await api('ListAssetGroups', undefined, { rawBody: '' }), 'ListAssetGroups', 'ValidationError', 200);
  });
});

describe('typical library flow', () => {
  it('creates a group, adds an image and sees it turn Active', async () => {
    const groupId = await newGroup('Cats');
    const assetId = await newAsset(groupId, `${media}/media/sample.png`, 'Image', 'cat');
    expect((await settled(assetId)).Status).toBe('Active');
  });
});
