import { describe, expect, inject, it } from 'vitest';
import { api, newAsset, newGroup, settled, sleep, uniqueTag, v1 } from './testing/sandbox-test-client';

/** Asset groups: listing (filters, sorting, paging, defaults), update and delete. */

const media = inject('mediaBaseUrl');

/** Creates groups one after another, a few milliseconds apart so their times differ. */
async function groupsInOrder(names: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const name of names) {
    ids.push(await newGroup(name));
    await sleep(5);
  }
  return ids;
}

const ids = (res: Awaited<ReturnType<typeof api<any>>>) => (res.result.Items as { Id: string }[]).map((g) => g.Id);

describe('ListAssetGroups', () => {
  it('Filter.GroupIds returns only those groups, and TotalCount counts only them', async () => {
    const [a, b, c] = await groupsInOrder([uniqueTag('a'), uniqueTag('b'), uniqueTag('c')]);
    const res = await api('ListAssetGroups', { Filter: { GroupIds: [a, c] } });
    expect(res.result.TotalCount).toBe(2);
    expect(ids(res).sort()).toEqual([a, c].sort());
    expect(ids(res)).not.toContain(b);
  });

  it('Filter.GroupIds with an unknown id returns nothing', async () => {
    const res = await api('ListAssetGroups', { Filter: { GroupIds: ['group-unknown'] } });
    expect(res.result).toEqual({ Items: [], TotalCount: 0, PageNumber: 1, PageSize: 20 });
  });

  it('Filter.Name matches the name (exactly, and by a part of it); others are left out', async () => {
    const tag = uniqueTag('name');
    const [cats, dogs] = await groupsInOrder([`cats ${tag}`, `dogs ${tag}`]);
    const exact = await api('ListAssetGroups', { Filter: { Name: `cats ${tag}` } });
    expect(ids(exact)).toEqual([cats]);
    const part = await api('ListAssetGroups', { Filter: { Name: tag } });
    expect(ids(part).sort()).toEqual([cats, dogs].sort());
    expect((await api('ListAssetGroups', { Filter: { Name: `birds ${tag}` } })).result.TotalCount).toBe(0);
  });

  it('Filter.GroupType AIGC includes virtual groups; LivenessFace excludes them', async () => {
    const id = await newGroup();
    const aigc = await api('ListAssetGroups', { Filter: { GroupIds: [id], GroupType: 'AIGC' } });
    expect(ids(aigc)).toEqual([id]);
    const face = await api('ListAssetGroups', { Filter: { GroupIds: [id], GroupType: 'LivenessFace' } });
    expect(face.result.TotalCount).toBe(0);
    expect(face.result.Items).toEqual([]);
  });

  it('sorts by CreateTime Desc by default, and Asc on request', async () => {
    const created = await groupsInOrder([uniqueTag('s1'), uniqueTag('s2'), uniqueTag('s3')]);
    const byDefault = await api('ListAssetGroups', { Filter: { GroupIds: created } });
    expect(ids(byDefault)).toEqual([...created].reverse());
    const desc = await api('ListAssetGroups', { Filter: { GroupIds: created }, SortBy: 'CreateTime', SortOrder: 'Desc' });
    expect(ids(desc)).toEqual([...created].reverse());
    const asc = await api('ListAssetGroups', { Filter: { GroupIds: created }, SortBy: 'CreateTime', SortOrder: 'Asc' });
    expect(ids(asc)).toEqual(created);
  });

  it('sorts by UpdateTime: the group updated last comes first (Desc) or last (Asc)', async () => {
    const [first, second, third] = await groupsInOrder([uniqueTag('u1'), uniqueTag('u2'), uniqueTag('u3')]);
    await sleep(5);
    expect((await api('UpdateAssetGroup', { Id: first, Description: 'touched' })).error).toBeUndefined();
    const desc = await api('ListAssetGroups', { Filter: { GroupIds: [first, second, third] }, SortBy: 'UpdateTime', SortOrder: 'Desc' });
    expect(ids(desc)).toEqual([first, third, second]);
    const asc = await api('ListAssetGroups', { Filter: { GroupIds: [first, second, third] }, SortBy: 'UpdateTime', SortOrder: 'Asc' });
    expect(ids(asc)).toEqual([second, third, first]);
    // CreateTime order is unchanged by the update.
    const byCreate = await api('ListAssetGroups', { Filter: { GroupIds: [first, second, third] }, SortOrder: 'Asc' });
    expect(ids(byCreate)).toEqual([first, second, third]);
  });

  it('pages with PageNumber and PageSize; TotalCount is the whole match', async () => {
    const created = await groupsInOrder([uniqueTag('p1'), uniqueTag('p2'), uniqueTag('p3'), uniqueTag('p4'), uniqueTag('p5')]);
    const filter = { GroupIds: created };
    const page1 = await api('ListAssetGroups', { Filter: filter, PageSize: 2, SortOrder: 'Asc' });
    expect(page1.result).toMatchObject({ TotalCount: 5, PageNumber: 1, PageSize: 2 });
    expect(ids(page1)).toEqual(created.slice(0, 2));
    const page2 = await api('ListAssetGroups', { Filter: filter, PageSize: 2, PageNumber: 2, SortOrder: 'Asc' });
    expect(page2.result).toMatchObject({ TotalCount: 5, PageNumber: 2, PageSize: 2 });
    expect(ids(page2)).toEqual(created.slice(2, 4));
    const page3 = await api('ListAssetGroups', { Filter: filter, PageSize: 2, PageNumber: 3, SortOrder: 'Asc' });
    expect(ids(page3)).toEqual(created.slice(4));
    const beyond = await api('ListAssetGroups', { Filter: filter, PageSize: 2, PageNumber: 4 });
    expect(beyond.result).toEqual({ Items: [], TotalCount: 5, PageNumber: 4, PageSize: 2 });
  });

  it('defaults to PageNumber 1 and PageSize 20: 21 matching groups show 20', async () => {
    const tag = uniqueTag('many');
    const created: string[] = [];
    for (let i = 0; i < 21; i++) created.push(await newGroup(`${tag} ${i}`));
    const res = await api('ListAssetGroups', { Filter: { GroupIds: created } });
    expect(res.result.PageNumber).toBe(1);
    expect(res.result.PageSize).toBe(20);
    expect(res.result.TotalCount).toBe(21);
    expect(res.result.Items).toHaveLength(20);
    const rest = await api('ListAssetGroups', { Filter: { GroupIds: created }, PageNumber: 2 });
    expect(rest.result.Items).toHaveLength(1);
    expect(new Set([...ids(res), ...ids(rest)])).toEqual(new Set(created));
  });
});

describe('GetAssetGroup and UpdateAssetGroup', () => {
  it('CreateAssetGroup stores Name and Description; GroupType defaults to AIGC', async () => {
    const name = uniqueTag('g');
    const id = await newGroup(name, undefined, 'my description');
    expect((await api('GetAssetGroup', { Id: id })).result).toEqual({ Id: id, Name: name, Description: 'my description', GroupType: 'AIGC' });
  });

  it('an omitted Name keeps the old name while Description changes', async () => {
    const name = uniqueTag('keep');
    const id = await newGroup(name, undefined, 'old');
    expect((await api('UpdateAssetGroup', { Id: id, Description: 'new' })).result).toEqual({ Id: id });
    expect((await api('GetAssetGroup', { Id: id })).result).toMatchObject({ Name: name, Description: 'new' });
  });

  it('an empty Description clears it; an omitted Description keeps it', async () => {
    const id = await newGroup(uniqueTag('clear'), undefined, 'to be cleared');
    await api('UpdateAssetGroup', { Id: id, Name: 'renamed' });
    expect((await api('GetAssetGroup', { Id: id })).result).toMatchObject({ Name: 'renamed', Description: 'to be cleared' });
    await api('UpdateAssetGroup', { Id: id, Description: '' });
    expect((await api('GetAssetGroup', { Id: id })).result).toMatchObject({ Name: 'renamed', Description: '' });
  });

  it('updating an unknown group is AccessDenied (403)', async () => {
    const res = await api('UpdateAssetGroup', { Id: 'group-unknown', Name: 'x' });
    expect(res.status).toBe(403);
    expect(res.error?.Code).toBe('AccessDenied');
  });
});

describe('DeleteAssetGroup', () => {
  it('removes the group: Get, Update and a second Delete are AccessDenied, and lists leave it out', async () => {
    const id = await newGroup();
    expect((await api('DeleteAssetGroup', { Id: id })).result).toEqual({});
    for (const [action, body] of [
      ['GetAssetGroup', { Id: id }],
      ['UpdateAssetGroup', { Id: id, Name: 'x' }],
      ['DeleteAssetGroup', { Id: id }],
    ] as const) {
      const res = await api(action, body);
      expect(res.status, action).toBe(403);
      expect(res.error?.Code, action).toBe('AccessDenied');
    }
    expect((await api('ListAssetGroups', { Filter: { GroupIds: [id] } })).result.TotalCount).toBe(0);
  });

  it('makes its assets unusable: GetAsset is AccessDenied, ListAssets shows none, and a video task cannot use them', async () => {
    const groupId = await newGroup();
    const assetId = await newAsset(groupId, `${media}/media/sample.png`);
    expect((await settled(assetId)).Status).toBe('Active');
    await api('DeleteAssetGroup', { Id: groupId });

    const got = await api('GetAsset', { Id: assetId });
    expect(got.status).toBe(403);
    expect(got.error?.Code).toBe('AccessDenied');
    expect((await api('ListAssets', { Filter: { GroupIds: [groupId] } })).result.TotalCount).toBe(0);
    const listedAll = await api('ListAssets', { PageSize: 100, Filter: { Name: '' } });
    expect((listedAll.result.Items as { Id: string }[]).map((a) => a.Id)).not.toContain(assetId);

    const task = await v1('POST', '/v1/video/generations', {
      model: 'doubao-seedance-2-0-260128',
      content: [{ type: 'text', text: 'a cat' }, { type: 'image_url', image_url: { url: `asset://${assetId}` }, role: 'reference_image' }],
    });
    expect(task.status).toBe(400);
    expect(task.body.error).toMatchObject({ code: 'invalid_parameter', param: 'content[1].image_url' });
  });

  it('a new asset cannot be added to a deleted group', async () => {
    const groupId = await newGroup();
    await api('DeleteAssetGroup', { Id: groupId });
    const res = await api('CreateAsset', { GroupId: groupId, AssetType: 'Image', Name: 'x', URL: `${media}/media/sample.png` });
    expect(res.status).toBe(403);
    expect(res.error?.Code).toBe('AccessDenied');
  });
});
