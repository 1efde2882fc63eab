import { describe, expect, inject, it } from 'vitest';
import { api, newGroup, uniqueTag } from './testing/sandbox-test-client';

/**
 * Every check the shared request schemas apply, seen through the HTTP interface: a
 * `ValidationError` with HTTP 200, a message that starts with the offending field, no Result.
 */

const media = inject('mediaBaseUrl');
const ID = 'group-0000';
const asset = { GroupId: ID, AssetType: 'Image', Name: 'cat', URL: 'https://cdn.example.com/cat.png' };

type Case = [action: string, body: unknown, field: string, message: RegExp];

const CASES: Case[] = [
  ['CreateAssetGroup', { Name: '' }, 'Name', /1 to 64 characters/],
  ['CreateAssetGroup', { Name: 'n'.repeat(65) }, 'Name', /1 to 64 characters/],
  ['CreateAssetGroup', {}, 'Name', /required/],
  ['CreateAssetGroup', { Name: 7 }, 'Name', /string/],
  ['CreateAssetGroup', { Name: 'a', Description: 'd'.repeat(301) }, 'Description', /at most 300/],
  ['CreateAssetGroup', { Name: 'a', GroupType: 'LivenessFace' }, 'GroupType', /AIGC/],
  ['CreateAssetGroup', { Name: 'a', Colour: 'red' }, 'Colour', /not a parameter/],
  ['CreateAssetGroup', [{ Name: 'a' }], 'body', /JSON object/],
  ['CreateAssetGroup', 'hello', 'body', /JSON object/],
  ['CreateAssetGroup', null, 'body', /JSON object/],
  ['ListAssetGroups', { PageSize: 101 }, 'PageSize', /at most 100/],
  ['ListAssetGroups', { PageSize: 0 }, 'PageSize', /at least 1/],
  ['ListAssetGroups', { PageSize: '20' }, 'PageSize', /integer/],
  ['ListAssetGroups', { PageNumber: 0 }, 'PageNumber', /at least 1/],
  ['ListAssetGroups', { PageNumber: 1.5 }, 'PageNumber', /integer/],
  ['ListAssetGroups', { SortBy: 'GroupId' }, 'SortBy', /CreateTime/],
  ['ListAssetGroups', { SortOrder: 'asc' }, 'SortOrder', /Desc, Asc/],
  ['ListAssetGroups', { Filter: { Statuses: ['Active'] } }, 'Filter.Statuses', /not a parameter/],
  ['ListAssetGroups', { Filter: { GroupType: 'Other' } }, 'Filter.GroupType', /AIGC, LivenessFace/],
  ['ListAssetGroups', { Filter: { GroupIds: 'g1' } }, 'Filter.GroupIds', /list of ids/],
  ['ListAssetGroups', { Filter: { GroupIds: ['g1', ''] } }, 'Filter.GroupIds[1]', /empty/],
  ['ListAssetGroups', { Filter: { Name: 3 } }, 'Filter.Name', /string/],
  ['ListAssetGroups', { Limit: 10 }, 'Limit', /not a parameter/],
  ['ListAssets', { PageSize: 101 }, 'PageSize', /at most 100/],
  ['ListAssets', { Filter: { Statuses: ['Active', 'Deleted'] } }, 'Filter.Statuses[1]', /Processing, Active, Failed/],
  ['ListAssets', { Filter: { Statuses: 'Active' } }, 'Filter.Statuses', /list of statuses/],
  ['ListAssets', { Filter: { Colour: 'red' } }, 'Filter.Colour', /not a parameter/],
  ['ListAssets', { SortBy: 'Name' }, 'SortBy', /CreateTime/],
  ['GetAssetGroup', {}, 'Id', /required/],
  ['GetAssetGroup', { Id: '' }, 'Id', /empty/],
  ['GetAssetGroup', { Id: 'x'.repeat(129) }, 'Id', /128/],
  ['UpdateAssetGroup', { Id: ID, Name: '' }, 'Name', /1 to 64 characters/],
  ['UpdateAssetGroup', { Id: ID, Name: 'n'.repeat(65) }, 'Name', /1 to 64 characters/],
  ['UpdateAssetGroup', { Id: ID, Description: 'd'.repeat(301) }, 'Description', /at most 300/],
  ['UpdateAssetGroup', { Id: ID, GroupType: 'AIGC' }, 'GroupType', /not a parameter/],
  ['UpdateAssetGroup', { Name: 'a' }, 'Id', /required/],
  ['DeleteAssetGroup', {}, 'Id', /required/],
  ['CreateAsset', { ...asset, AssetType: 'Document' }, 'AssetType', /Image, Video, Audio/],
  ['CreateAsset', { ...asset, AssetType: 'image' }, 'AssetType', /Image, Video, Audio/],
  ['CreateAsset', { ...asset, URL: 'https://user:pw@cdn.example.com/cat.png' }, 'URL', /user info/],
  ['CreateAsset', { ...asset, URL: 'https://user@cdn.example.com/cat.png' }, 'URL', /user info/],
  ['CreateAsset', { ...asset, URL: 'cat.png' }, 'URL', /absolute/],
  ['CreateAsset', { ...asset, URL: 'see my cat' }, 'URL', /single URL/],
  ['CreateAsset', { ...asset, URL: 'ftp://cdn.example.com/cat.png' }, 'URL', /http:\/\/ or https:\/\//],
  ['CreateAsset', { ...asset, URL: 'asset://asset-1' }, 'URL', /http:\/\/ or https:\/\//],
  ['CreateAsset', { ...asset, URL: 'https://a.example/1.png,https://b.example/2.png' }, 'URL', /one URL/],
  ['CreateAsset', { ...asset, URL: '' }, 'URL', /empty/],
  ['CreateAsset', { ...asset, Name: '' }, 'Name', /empty/],
  ['CreateAsset', { ...asset, Name: 'n'.repeat(256) }, 'Name', /255/],
  ['CreateAsset', { AssetType: 'Image', Name: 'cat', URL: asset.URL }, 'GroupId', /required/],
  ['CreateAsset', { ...asset, Status: 'Active' }, 'Status', /not a parameter/],
  ['GetAsset', { Id: 12 }, 'Id', /string/],
  ['UpdateAsset', { Id: 'a' }, 'Name', /required/],
  ['UpdateAsset', { Id: 'a', Name: '' }, 'Name', /empty/],
  ['UpdateAsset', { Id: 'a', Name: 'n', URL: 'https://x.example/' }, 'URL', /not a parameter/],
  ['DeleteAsset', {}, 'Id', /required/],
  ['CreatePortraitSession', { ContinuousCreate: 'yes' }, 'ContinuousCreate', /true or false/],
  ['CreatePortraitSession', { Consent: true }, 'Consent', /not a parameter/],
  ['ResolvePartnerToken', {}, 'PartnerToken', /required/],
  ['ResolvePartnerToken', { PartnerToken: '' }, 'PartnerToken', /empty/],
];

describe('request validation through /api/v3', () => {
  const short = (body: unknown) => JSON.stringify(body).replace(/(.)\1{9,}/g, (run, ch: string) => `${ch}×${run.length}`);
  const rows = CASES.map(([action, body, field, message]) => [`${action} ${short(body)}`, action, body, field, message] as const);
  it.each(rows)('%s is a ValidationError naming its field', async (_title, action, body, field, message) => {
    const res = await api(action, body);
    expect(res.status).toBe(200);
    expect(res.error?.Code, JSON.stringify(res.envelope)).toBe('ValidationError');
    expect(res.error!.Message.startsWith(`${field}: `), res.error!.Message).toBe(true);
    expect(res.error!.Message).toMatch(message);
    expect(res.envelope).not.toHaveProperty('Result');
  });
});

describe('values at the limits are accepted', () => {
  it('group Name of 1 and 64 characters and Description of 300 characters', async () => {
    const one = await api('CreateAssetGroup', { Name: 'a' });
    expect(one.error).toBeUndefined();
    const long = await api('CreateAssetGroup', { Name: 'n'.repeat(64), Description: 'd'.repeat(300) });
    expect(long.error).toBeUndefined();
    const got = await api('GetAssetGroup', { Id: long.result.Id });
    expect(got.result.Name).toHaveLength(64);
    expect(got.result.Description).toHaveLength(300);
  });

  it('PageSize 100 and 1', async () => {
    expect((await api('ListAssetGroups', { PageSize: 100 })).result.PageSize).toBe(100);
    expect((await api('ListAssets', { PageSize: 1 })).result.PageSize).toBe(1);
  });

  it('a plain http:// asset URL in this configuration (SANDBOX_ALLOW_HTTP=on)', async () => {
    const groupId = await newGroup();
    const res = await api('CreateAsset', { GroupId: groupId, AssetType: 'Image', Name: 'cat', URL: `${media}/media/sample.png` });
    expect(res.error).toBeUndefined();
    expect(typeof res.result.Id).toBe('string');
  });
});

describe('rejected requests change nothing', () => {
  it('a group with a 65-character name is not created', async () => {
    const name = `${uniqueTag('long')}-${'n'.repeat(60)}`;
    expect((await api('CreateAssetGroup', { Name: name })).error?.Code).toBe('ValidationError');
    expect((await api('ListAssetGroups', { Filter: { Name: name.slice(0, 13) } })).result.TotalCount).toBe(0);
  });

  it('an asset with a bad URL is not created', async () => {
    const groupId = await newGroup();
    const res = await api('CreateAsset', { GroupId: groupId, AssetType: 'Image', Name: 'cat', URL: 'https://u:p@cdn.example.com/cat.png' });
    expect(res.error?.Code).toBe('ValidationError');
    expect((await api('ListAssets', { Filter: { GroupIds: [groupId] } })).result.TotalCount).toBe(0);
  });

  it('a rename to an empty name keeps the old name', async () => {
    const name = uniqueTag('keep');
    const groupId = await newGroup(name);
    expect((await api('UpdateAssetGroup', { Id: groupId, Name: '' })).error?.Code).toBe('ValidationError');
    expect((await api('GetAssetGroup', { Id: groupId })).result.Name).toBe(name);
  });
});
