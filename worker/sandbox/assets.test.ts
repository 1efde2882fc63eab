import { beforeAll, describe, expect, inject, it } from 'vitest';
import { MODELS } from '../../shared';
import { api, helper, newAsset, newGroup, settled, uniqueTag, waitFor } from './testing/sandbox-test-client';

/** Assets: real downloads, Processing -> Active / Failed, ModelReadiness, listing, update, delete. */

const media = inject('mediaBaseUrl');
const FAMILY_2_0 = MODELS.filter((m) => m.id.startsWith('doubao-seedance-2-0')).map((m) => m.id);
const OTHERS = MODELS.filter((m) => !m.id.startsWith('doubao-seedance-2-0')).map((m) => m.id);

/** The readiness entry whose Models contains `model`. */
const entryFor = (asset: any, model: string) => (asset.ModelReadiness as any[]).find((r) => (r.Models as string[]).includes(model));

describe('asset processing', () => {
  it('an image is Processing right after CreateAsset, then Active; ModelReadiness follows', async () => {
    const groupId = await newGroup();
    // The clock stands still until the download is done, so that the processing time (1 s) cannot
    // pass meanwhile however slow the machine is; real time still runs the download.
    await helper('POST', '/sandbox/clock', { advanceSeconds: 0, freeze: true });
    let id: string;
    try {
      id = await newAsset(groupId, `${media}/media/sample.png`, 'Image', 'png');
      const first = (await api('GetAsset', { Id: id })).result;
      expect(first.Status).toBe('Processing');
      expect(first.Error).toEqual({ Code: '', Message: '' });
      expect(['Preparing', 'Processing']).toContain(entryFor(first, FAMILY_2_0[0]!).Status);
      const listed = await api('ListAssets', { Filter: { GroupIds: [groupId], Statuses: ['Processing'] } });
      expect(listed.result.Items.map((a: any) => a.Id)).toEqual([id]);
      // The download done, the processing time not passed: still Processing.
      const downloaded = await waitFor(() => api('GetAsset', { Id: id }), (r) => entryFor(r.result, FAMILY_2_0[0]!).Status !== 'Preparing', 10_000);
      expect(downloaded.result.Status).toBe('Processing');
    } finally {
      await helper('POST', '/sandbox/clock', { advanceSeconds: 0, freeze: false });
    }

    const done = await settled(id);
    expect(done).toMatchObject({ Id: id, GroupId: groupId, Name: 'png', URL: `${media}/media/sample.png`, AssetType: 'Image', Status: 'Active' });
    expect(done.Error).toEqual({ Code: '', Message: '' });
  });

  it('ModelReadiness of an Active asset: the 2.0 family Active, the other models Unavailable with a reason', async () => {
    const id = await newAsset(await newGroup(), `${media}/media/sample.jpg`);
    const asset = await settled(id);
    expect(asset.Status).toBe('Active');
    expect(FAMILY_2_0.length).toBeGreaterThanOrEqual(2);
    for (const model of FAMILY_2_0) expect(entryFor(asset, model)?.Status, model).toBe('Active');
    for (const model of OTHERS) {
      const entry = entryFor(asset, model);
      expect(entry?.Status, model).toBe('Unavailable');
      expect(entry.Error.Message.length).toBeGreaterThan(5);
    }
    for (const entry of asset.ModelReadiness) expect(['Preparing', 'Processing', 'Active', 'Failed', 'Unavailable']).toContain(entry.Status);
  });

  it('a video (mp4 as Video) and an audio file (mp3 as Audio) turn Active', async () => {
    const groupId = await newGroup();
    const [video, audio] = await Promise.all([
      newAsset(groupId, `${media}/media/sample.mp4`, 'Video'),
      newAsset(groupId, `${media}/media/sample.mp3`, 'Audio'),
    ]);
    const [v, a] = await Promise.all([settled(video), settled(audio)]);
    expect(v).toMatchObject({ AssetType: 'Video', Status: 'Active' });
    expect(a).toMatchObject({ AssetType: 'Audio', Status: 'Active' });
  });

  it('stays Processing while the download is still running, past the processing time, without holding up other assets', async () => {
    const groupId = await newGroup();
    // The media server holds this download until the test releases it: no race with real time.
    const key = uniqueTag('asset');
    const id = await newAsset(groupId, `${media}/held/${key}/sample.png`);
    await waitFor(() => fetch(`${media}/held/${key}`).then((r) => r.json() as Promise<{ waiting: number }>), (r) => r.waiting === 1, 10_000);
    const quick = await newAsset(groupId, `${media}/media/sample.png`);
    expect((await settled(quick)).Status).toBe('Active');
    // The quick asset finished while the held download still runs: one download does not hold up another.
    expect((await api('GetAsset', { Id: id })).result.Status).toBe('Processing');
    await helper('POST', '/sandbox/clock', { advanceSeconds: 5 }); // well past SANDBOX_ASSET_SECONDS (1)
    const during = (await api('GetAsset', { Id: id })).result;
    expect(during.Status).toBe('Processing');
    expect(entryFor(during, FAMILY_2_0[0]!).Status).toBe('Preparing');
    expect(await (await fetch(`${media}/release/${key}`, { method: 'POST' })).json()).toEqual({ released: 1 });
    expect((await settled(id)).Status).toBe('Active');
  });

  it('a download whose connection drops before any answer is tried again, and the asset turns Active', async () => {
    const id = await newAsset(await newGroup(), `${media}/drop-once/${uniqueTag('drop')}/sample.png`);
    const asset = await settled(id);
    expect(asset.Error).toEqual({ Code: '', Message: '' });
    expect(asset.Status).toBe('Active');
  });

  it.each([
    ['an HTTP 404', '/status/404', 'Image', /404/],
    ['a wrong Content-Type (text/html for a PNG)', '/wrong-type/sample.png', 'Image', /Content-Type.*text\/html/],
    ['an SVG as Image', '/media/sample.svg', 'Image', /SVG/],
    ['an MP4 as Image', '/media/sample.mp4', 'Image', /video\/mp4/],
    ['a PNG as Video', '/media/sample.png', 'Video', /image\/png/],
    ['an MP3 as Video', '/media/sample.mp3', 'Video', /audio\/mpeg/],
    ['an HTTP 500', '/status/500', 'Audio', /500/],
  ])('%s ends Failed with ResourceDownloadFailed and a readable message', async (_what, path, type, reason) => {
    const id = await newAsset(await newGroup(), `${media}${path}`, type);
    const asset = await settled(id);
    expect(asset.Status).toBe('Failed');
    expect(asset.Error.Code).toBe('ResourceDownloadFailed');
    expect(asset.Error.Message).toMatch(reason);
    expect(asset.Error.Message).toContain(path);
    const entry = entryFor(asset, FAMILY_2_0[0]!);
    expect(entry.Status).toBe('Failed');
    expect(entry.Error.Message).toMatch(reason);
  });
});

describe('ListAssets', () => {
  const tag = uniqueTag('list');
  let groupA = '';
  let groupB = '';
  let active = '';
  let failed = '';
  let other = '';

  beforeAll(async () => {
    groupA = await newGroup(`${tag} A`);
    groupB = await newGroup(`${tag} B`);
    active = await newAsset(groupA, `${media}/media/sample.png`, 'Image', `${tag} sunrise`);
    failed = await newAsset(groupA, `${media}/status/404`, 'Image', `${tag} broken`);
    other = await newAsset(groupB, `${media}/media/sample.jpg`, 'Image', `${tag} sunset`);
    await Promise.all([settled(active), settled(failed), settled(other)]);
  });

  const listIds = async (body: object) => {
    const res = await api('ListAssets', body);
    expect(res.error, JSON.stringify(res.error)).toBeUndefined();
    return { ids: (res.result.Items as { Id: string }[]).map((a) => a.Id), result: res.result };
  };

  it('Filter.GroupIds returns the assets of those groups only', async () => {
    expect((await listIds({ Filter: { GroupIds: [groupA] } })).ids.sort()).toEqual([active, failed].sort());
    expect((await listIds({ Filter: { GroupIds: [groupB] } })).ids).toEqual([other]);
    const both = await listIds({ Filter: { GroupIds: [groupA, groupB] } });
    expect(both.result.TotalCount).toBe(3);
  });

  it('Filter.Statuses returns only assets in those statuses', async () => {
    const groups = [groupA, groupB];
    expect((await listIds({ Filter: { GroupIds: groups, Statuses: ['Failed'] } })).ids).toEqual([failed]);
    expect((await listIds({ Filter: { GroupIds: groups, Statuses: ['Active'] } })).ids.sort()).toEqual([active, other].sort());
    expect((await listIds({ Filter: { GroupIds: groups, Statuses: ['Processing'] } })).ids).toEqual([]);
    expect((await listIds({ Filter: { GroupIds: groups, Statuses: ['Active', 'Failed'] } })).result.TotalCount).toBe(3);
  });

  it('list items carry Status and Error (ResourceDownloadFailed for the failed one)', async () => {
    const { result } = await listIds({ Filter: { GroupIds: [groupA] } });
    const byId = new Map((result.Items as any[]).map((a) => [a.Id, a]));
    expect(byId.get(failed)).toMatchObject({ Status: 'Failed', Error: { Code: 'ResourceDownloadFailed' } });
    expect(byId.get(active)).toMatchObject({ Status: 'Active', Error: { Code: '', Message: '' } });
    expect(byId.get(active)).not.toHaveProperty('ModelReadiness');
  });

  it('Filter.Name matches asset names', async () => {
    expect((await listIds({ Filter: { Name: `${tag} sunrise` } })).ids).toEqual([active]);
    expect((await listIds({ Filter: { Name: `${tag} sun` } })).ids.sort()).toEqual([active, other].sort());
    expect((await listIds({ Filter: { Name: `${tag} moon` } })).ids).toEqual([]);
  });

  it('Filter.GroupType AIGC includes these assets; LivenessFace excludes them', async () => {
    expect((await listIds({ Filter: { GroupIds: [groupA, groupB], GroupType: 'AIGC' } })).result.TotalCount).toBe(3);
    expect((await listIds({ Filter: { GroupIds: [groupA, groupB], GroupType: 'LivenessFace' } })).result.TotalCount).toBe(0);
  });

  it('pages with PageSize and PageNumber, with defaults 1 and 20', async () => {
    const defaults = await listIds({ Filter: { GroupIds: [groupA, groupB] } });
    expect(defaults.result).toMatchObject({ PageNumber: 1, PageSize: 20, TotalCount: 3 });
    const p1 = await listIds({ Filter: { GroupIds: [groupA, groupB] }, PageSize: 2, SortOrder: 'Asc' });
    const p2 = await listIds({ Filter: { GroupIds: [groupA, groupB] }, PageSize: 2, PageNumber: 2, SortOrder: 'Asc' });
    expect(p1.ids).toHaveLength(2);
    expect(p2.ids).toHaveLength(1);
    expect(p1.result.TotalCount).toBe(3);
    expect([...p1.ids, ...p2.ids]).toEqual([active, failed, other]);
  });

  it('sorts by GroupId', async () => {
    const asc = await listIds({ Filter: { GroupIds: [groupA, groupB] }, SortBy: 'GroupId', SortOrder: 'Asc' });
    const groupsInOrder = (asc.result.Items as any[]).map((a) => a.GroupId);
    expect(groupsInOrder).toEqual([...groupsInOrder].sort());
    const desc = await listIds({ Filter: { GroupIds: [groupA, groupB] }, SortBy: 'GroupId', SortOrder: 'Desc' });
    expect((desc.result.Items as any[]).map((a) => a.GroupId)).toEqual([...groupsInOrder].reverse());
  });
});

describe('CreateAsset, UpdateAsset, DeleteAsset', () => {
  it('CreateAsset into an unknown group is AccessDenied (403)', async () => {
    const res = await api('CreateAsset', { GroupId: 'group-unknown', AssetType: 'Image', Name: 'x', URL: `${media}/media/sample.png` });
    expect(res.status).toBe(403);
    expect(res.error?.Code).toBe('AccessDenied');
  });

  it('UpdateAsset renames the asset; Get and List show the new name', async () => {
    const groupId = await newGroup();
    const id = await newAsset(groupId, `${media}/media/sample.png`, 'Image', 'before');
    const newName = uniqueTag('after');
    expect((await api('UpdateAsset', { Id: id, Name: newName })).result).toEqual({ Id: id });
    expect((await api('GetAsset', { Id: id })).result.Name).toBe(newName);
    expect((await api('ListAssets', { Filter: { Name: newName } })).result.Items.map((a: any) => a.Id)).toEqual([id]);
    const unknown = await api('UpdateAsset', { Id: 'asset-unknown', Name: 'x' });
    expect(unknown.status).toBe(403);
    expect(unknown.error?.Code).toBe('AccessDenied');
  });

  it('DeleteAsset returns {}; the asset is then AccessDenied and gone from lists; the group remains', async () => {
    const groupId = await newGroup();
    const keep = await newAsset(groupId, `${media}/media/sample.png`);
    const drop = await newAsset(groupId, `${media}/media/sample.jpg`);
    expect((await api('DeleteAsset', { Id: drop })).result).toEqual({});
    const got = await api('GetAsset', { Id: drop });
    expect(got.status).toBe(403);
    expect(got.error?.Code).toBe('AccessDenied');
    expect((await api('ListAssets', { Filter: { GroupIds: [groupId] } })).result.Items.map((a: any) => a.Id)).toEqual([keep]);
    expect((await api('DeleteAsset', { Id: drop })).error?.Code).toBe('AccessDenied');
    expect((await api('GetAssetGroup', { Id: groupId })).error).toBeUndefined();
  });

  it('CreateAsset into a real-person (LivenessFace) group is rejected and adds nothing', async () => {
    const session = (await api('CreatePortraitSession', {})).result;
    await helper('POST', '/sandbox/portrait/complete', { H5Link: session.H5Link, GroupName: uniqueTag('face') });
    const face = (await api('ResolvePartnerToken', { PartnerToken: session.PartnerToken })).result;
    const before = (await api('ListAssets', { Filter: { GroupIds: [face.GroupId] } })).result.TotalCount;
    expect(before).toBeGreaterThanOrEqual(1);

    const res = await api('CreateAsset', { GroupId: face.GroupId, AssetType: 'Image', Name: 'upload', URL: `${media}/media/sample.png` });
    expect(res.status).toBe(200);
    expect(res.error?.Code).toBe('ValidationError');
    expect(res.error?.Message).toMatch(/LivenessFace|real-person/);
    expect(res.envelope).not.toHaveProperty('Result');
    expect((await api('ListAssets', { Filter: { GroupIds: [face.GroupId] } })).result.TotalCount).toBe(before);
  });
});
