import { describe, expect, it } from 'vitest';
import { api, mediaUrl, sandbox, waitFor } from '../../testing/proxy-test-client';
import { asset, group, heldMedia, member, noUpstream, PNG, portraitSession, untilActive, upstream } from '../../testing/proxy-test-steps';

/** The twelve `/api/v3` operations through the proxy: same bodies and envelopes as the service. */

const expectEnvelope = (envelope: any, action: string) =>
  expect(envelope.ResponseMetadata).toMatchObject({ Action: action, Version: '2024-01-01', Service: 'ark', Region: 'cn-beijing', RequestId: expect.any(String) });

describe('asset groups', () => {
  it('CreateAssetGroup signs and relays the call and answers the Id', async () => {
    const m = await member();
    const { value: r, calls } = await upstream(() => api(m, 'CreateAssetGroup', { Name: 'Cats', Description: 'reference cats' }));
    expect(r.status).toBe(200);
    expectEnvelope(r.envelope, 'CreateAssetGroup');
    expect(r.error).toBeUndefined();
    expect(r.result).toEqual({ Id: expect.any(String) });
    // Exactly one signed call, which the sandbox accepted (a bad signature would be a 401 SignatureDoesNotMatch).
    expect(calls('api/v3', 'CreateAssetGroup')).toBe(1);
  });

  it('GetAssetGroup answers Id, Name, Description and GroupType', async () => {
    const m = await member();
    const created = await api(m, 'CreateAssetGroup', { Name: 'Dogs', Description: 'd' });
    const r = await api(m, 'GetAssetGroup', { Id: created.result.Id });
    expect(r.status).toBe(200);
    expectEnvelope(r.envelope, 'GetAssetGroup');
    expect(r.result).toEqual({ Id: created.result.Id, Name: 'Dogs', Description: 'd', GroupType: 'AIGC' });
  });

  it('UpdateAssetGroup keeps an omitted Name and clears the Description with an empty string', async () => {
    const m = await member();
    const id = (await api(m, 'CreateAssetGroup', { Name: 'Before', Description: 'desc' })).result.Id;
    const renamed = await api(m, 'UpdateAssetGroup', { Id: id, Name: 'After' });
    expect(renamed.result).toEqual({ Id: id });
    expect((await api(m, 'GetAssetGroup', { Id: id })).result).toMatchObject({ Name: 'After', Description: 'desc' });
    await api(m, 'UpdateAssetGroup', { Id: id, Description: '' });
    expect((await api(m, 'GetAssetGroup', { Id: id })).result).toMatchObject({ Name: 'After', Description: '' });
  });

  it('ListAssetGroups lists the member\'s groups with times and paging', async () => {
    const m = await member();
    const ids = [await group(m, 'one'), await group(m, 'two'), await group(m, 'three')];
    const r = await api(m, 'ListAssetGroups', { PageSize: 2, SortOrder: 'Asc' });
    expect(r.status).toBe(200);
    expectEnvelope(r.envelope, 'ListAssetGroups');
    expect(r.result).toMatchObject({ TotalCount: 3, PageNumber: 1, PageSize: 2 });
    expect(r.result.Items).toHaveLength(2);
    for (const item of r.result.Items) {
      expect(item).toMatchObject({ GroupType: 'AIGC', CreateTime: expect.any(String), UpdateTime: expect.any(String) });
    }
    const page2 = await api(m, 'ListAssetGroups', { PageSize: 2, PageNumber: 2, SortOrder: 'Asc' });
    expect(page2.result).toMatchObject({ TotalCount: 3, PageNumber: 2 });
    expect([...r.result.Items, ...page2.result.Items].map((g: any) => g.Id).sort()).toEqual([...ids].sort());
    const named = await api(m, 'ListAssetGroups', { Filter: { Name: 'tw' } });
    expect(named.result.Items.map((g: any) => g.Id)).toEqual([ids[1]]);
  });

  it('ListAssetGroups of a member without groups is an empty page, answered without an upstream call', async () => {
    const m = await member();
    const r = await noUpstream(() => api(m, 'ListAssetGroups', {}));
    expect(r.status).toBe(200);
    expectEnvelope(r.envelope, 'ListAssetGroups');
    expect(r.result).toEqual({ Items: [], TotalCount: 0, PageNumber: 1, PageSize: 20 });
  });

  it('DeleteAssetGroup answers an empty Result; the group and its assets are then out of reach without an upstream call', async () => {
    const m = await member();
    const g = await group(m);
    const a = await asset(m, g);
    const r = await api(m, 'DeleteAssetGroup', { Id: g });
    expect(r.status).toBe(200);
    expectEnvelope(r.envelope, 'DeleteAssetGroup');
    expect(r.result).toEqual({});
    const gone = await noUpstream(() => api(m, 'GetAssetGroup', { Id: g }));
    expect([gone.status, gone.error?.Code]).toEqual([403, 'AccessDenied']);
    const assetGone = await noUpstream(() => api(m, 'GetAsset', { Id: a }));
    expect([assetGone.status, assetGone.error?.Code]).toEqual([403, 'AccessDenied']);
    const list = await noUpstream(() => api(m, 'ListAssetGroups', {}));
    expect(list.result.TotalCount).toBe(0);
  });
});

describe('assets', () => {
  it('CreateAsset answers the Id; GetAsset shows Processing, then Active with ModelReadiness', async () => {
    const m = await member();
    const g = await group(m);
    // The media server holds the download until the test has read Processing: no race with the sandbox's 1 s.
    const { url, release } = heldMedia();
    const created = await api(m, 'CreateAsset', { GroupId: g, AssetType: 'Image', Name: 'cat.png', URL: url });
    expect(created.status).toBe(200);
    expectEnvelope(created.envelope, 'CreateAsset');
    expect(created.result).toEqual({ Id: expect.any(String) });
    const first = await api(m, 'GetAsset', { Id: created.result.Id });
    expectEnvelope(first.envelope, 'GetAsset');
    expect(first.result).toMatchObject({ Id: created.result.Id, GroupId: g, Name: 'cat.png', URL: url, AssetType: 'Image', Status: 'Processing', Error: { Code: '', Message: '' } });
    await release();
    const active = await untilActive(m, created.result.Id);
    expect(active.result.Status).toBe('Active');
    expect(active.result.ModelReadiness).toEqual(expect.arrayContaining([expect.objectContaining({ Models: expect.arrayContaining(['doubao-seedance-2-0-260128']), Status: 'Active' })]));
  });

  it('a URL the service cannot download ends Failed with ResourceDownloadFailed, relayed as is', async () => {
    const m = await member();
    const g = await group(m);
    const created = await api(m, 'CreateAsset', { GroupId: g, AssetType: 'Image', Name: 'missing', URL: `${mediaUrl}/status/404` });
    const failed = await waitFor(() => api(m, 'GetAsset', { Id: created.result.Id }), (r) => r.result?.Status !== 'Processing');
    expect(failed.result.Status).toBe('Failed');
    expect(failed.result.Error.Code).toBe('ResourceDownloadFailed');
    expect(failed.result.Error.Message).toMatch(/404/);
  });

  it('ListAssets lists the assets of the member\'s groups, with filters', async () => {
    const m = await member();
    const g1 = await group(m, 'g1');
    const g2 = await group(m, 'g2');
    const a1 = await asset(m, g1, 'first');
    const a2 = await asset(m, g2, 'second');
    const all = await api(m, 'ListAssets', { SortOrder: 'Asc' });
    expect(all.status).toBe(200);
    expectEnvelope(all.envelope, 'ListAssets');
    expect(all.result.TotalCount).toBe(2);
    expect(all.result.Items.map((a: any) => a.Id).sort()).toEqual([a1, a2].sort());
    expect(all.result.Items.find((a: any) => a.Id === a1)).toMatchObject({ Id: a1, GroupId: g1, Name: 'first', URL: PNG(), AssetType: 'Image', Status: expect.any(String), Error: expect.any(Object) });
    const inG2 = await api(m, 'ListAssets', { Filter: { GroupIds: [g2] } });
    expect(inG2.result.Items.map((a: any) => a.Id)).toEqual([a2]);
    const byName = await api(m, 'ListAssets', { Filter: { Name: 'firs' } });
    expect(byName.result.Items.map((a: any) => a.Id)).toEqual([a1]);
    await untilActive(m, a1);
    await untilActive(m, a2);
    const active = await api(m, 'ListAssets', { Filter: { Statuses: ['Active'] }, PageSize: 1 });
    expect(active.result).toMatchObject({ TotalCount: 2, PageSize: 1 });
    expect(active.result.Items).toHaveLength(1);
  });

  it('UpdateAsset renames the asset', async () => {
    const m = await member();
    const a = await asset(m, await group(m), 'old');
    const r = await api(m, 'UpdateAsset', { Id: a, Name: 'new' });
    expect(r.status).toBe(200);
    expectEnvelope(r.envelope, 'UpdateAsset');
    expect(r.result).toEqual({ Id: a });
    expect((await api(m, 'GetAsset', { Id: a })).result.Name).toBe('new');
  });

  it('DeleteAsset answers an empty Result; the asset is then out of reach without an upstream call', async () => {
    const m = await member();
    const g = await group(m);
    const a = await asset(m, g);
    const r = await api(m, 'DeleteAsset', { Id: a });
    expect(r.status).toBe(200);
    expectEnvelope(r.envelope, 'DeleteAsset');
    expect(r.result).toEqual({});
    const gone = await noUpstream(() => api(m, 'GetAsset', { Id: a }));
    expect([gone.status, gone.error?.Code]).toEqual([403, 'AccessDenied']);
    expect((await api(m, 'ListAssets', {})).result.TotalCount).toBe(0);
  });

  it('a failure envelope of the service is relayed with its code (a real-person group takes no uploads)', async () => {
    const m = await member();
    const session = await portraitSession(m);
    await sandbox.complete(session.h5Link, 'Person', '');
    const resolved = await api(m, 'ResolvePartnerToken', { PartnerToken: session.handle });
    const r = await api(m, 'CreateAsset', { GroupId: resolved.result.GroupId, AssetType: 'Image', Name: 'x', URL: PNG() });
    expect(r.error?.Code).toBe('ValidationError');
    expect(r.error?.Message).toMatch(/GroupId/);
    expect(r.envelope.Result).toBeUndefined();
  });
});

describe('portrait operations', () => {
  it('CreatePortraitSession answers H5Link, an opaque PartnerToken, ExpiresIn and ExpireTime; ResolvePartnerToken the group', async () => {
    const m = await member();
    const session = await portraitSession(m);
    expect(session.result).toEqual({ H5Link: expect.stringMatching(/^http/), PartnerToken: expect.stringMatching(/^ph_/), ExpiresIn: expect.any(Number), ExpireTime: expect.any(String) });
    expect(session.result.ExpiresIn).toBeGreaterThan(0);
    expect(Date.parse(session.result.ExpireTime)).toBeGreaterThan(Date.now());
    expect((await sandbox.complete(session.h5Link, 'Jane', 'the actor')).status).toBe(200);
    const r = await api(m, 'ResolvePartnerToken', { PartnerToken: session.handle });
    expect(r.status).toBe(200);
    expectEnvelope(r.envelope, 'ResolvePartnerToken');
    expect(r.result).toEqual({ GroupId: expect.any(String), GroupName: 'Jane', GroupDescription: 'the actor' });
  });
});
