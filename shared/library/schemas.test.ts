import { describe, expect, it } from 'vitest';
import { check } from '../validation';
import { ACTIONS, type Action } from './constants';
import { librarySchemas } from './schemas';
import { expectAccepted, expectRejected } from '../testing/checked-expectations';

const schemas = librarySchemas();
const httpSchemas = librarySchemas({ allowHttp: true });

const validAsset = { GroupId: 'group-1', AssetType: 'Image', Name: 'cat', URL: 'https://cdn.example.com/cat.png' };

const validBodies: Record<Action, Record<string, unknown>> = {
  CreateAssetGroup: { Name: 'Heroes' },
  ListAssetGroups: {},
  GetAssetGroup: { Id: 'g1' },
  UpdateAssetGroup: { Id: 'g1' },
  DeleteAssetGroup: { Id: 'g1' },
  CreateAsset: validAsset,
  GetAsset: { Id: 'a1' },
  ListAssets: {},
  UpdateAsset: { Id: 'a1', Name: 'n' },
  DeleteAsset: { Id: 'a1' },
  CreatePortraitSession: {},
  ResolvePartnerToken: { PartnerToken: 'pt' },
};

describe('librarySchemas', () => {
  it('has exactly one schema for each of the twelve operations', () => {
    expect(Object.keys(schemas).sort()).toEqual([...ACTIONS].sort());
    expect(ACTIONS).toHaveLength(12);
  });

  it('returns the same https-only schemas when allowHttp is off or omitted', () => {
    expect(librarySchemas()).toBe(librarySchemas({ allowHttp: false }));
    expect(librarySchemas({ allowHttp: true })).not.toBe(librarySchemas());
  });

  it.each(ACTIONS)('%s accepts a minimal valid body', (action) => {
    expectAccepted(check(schemas[action], validBodies[action]));
  });

  it.each(ACTIONS)('%s rejects an unknown parameter beside a valid body, naming the key', (action) => {
    expectRejected(check(schemas[action], { ...validBodies[action], Bogus: 1 }), 'Bogus', /not a parameter/);
  });

  it.each(ACTIONS)('%s rejects a body that is not an object, naming the body', (action) => {
    expectRejected(check(schemas[action], 'hello'), 'body', /JSON object/);
    expectRejected(check(schemas[action], null), 'body', /JSON object/);
    expectRejected(check(schemas[action], [1]), 'body', /JSON object/);
  });
});

describe('CreateAssetGroup', () => {
  const create = (body: unknown) => check(schemas.CreateAssetGroup, body);

  it('accepts a name of 1 character and applies defaults Description "" and GroupType AIGC', () => {
    expect(expectAccepted(create({ Name: 'a' }))).toEqual({ Name: 'a', Description: '', GroupType: 'AIGC' });
  });

  it('accepts a name of exactly 64 characters', () => {
    expect(expectAccepted(create({ Name: 'n'.repeat(64) })).Name).toHaveLength(64);
  });

  it('rejects an empty name (0 characters), naming Name', () => {
    expectRejected(create({ Name: '' }), 'Name', /1 to 64/);
  });

  it('rejects a name of 65 characters, naming Name', () => {
    expectRejected(create({ Name: 'n'.repeat(65) }), 'Name', /1 to 64/);
  });

  it('rejects a missing name as required, naming Name', () => {
    expectRejected(create({}), 'Name', /required/);
    expectRejected(create({ Description: 'x' }), 'Name', /required/);
  });

  it('rejects a name that is not a string, naming Name', () => {
    expectRejected(create({ Name: 42 }), 'Name', /string/);
  });

  it('accepts a description of exactly 300 characters and an empty one', () => {
    expect(expectAccepted(create({ Name: 'a', Description: 'd'.repeat(300) })).Description).toHaveLength(300);
    expect(expectAccepted(create({ Name: 'a', Description: '' })).Description).toBe('');
  });

  it('rejects a description of 301 characters, naming Description', () => {
    expectRejected(create({ Name: 'a', Description: 'd'.repeat(301) }), 'Description', /at most 300/);
  });

  it('accepts GroupType AIGC explicitly', () => {
    expect(expectAccepted(create({ Name: 'a', GroupType: 'AIGC' })).GroupType).toBe('AIGC');
  });

  it('rejects GroupType LivenessFace (real-person groups come only from the portrait flow), naming GroupType', () => {
    expectRejected(create({ Name: 'a', GroupType: 'LivenessFace' }), 'GroupType', /AIGC/);
  });

  it('rejects an unknown GroupType, naming GroupType', () => {
    expectRejected(create({ Name: 'a', GroupType: 'aigc' }), 'GroupType', /AIGC/);
  });

  it('rejects an unknown parameter, naming the key', () => {
    expectRejected(create({ Name: 'a', Id: 'x' }), 'Id', /not a parameter/);
  });
});

describe.each(['ListAssetGroups', 'ListAssets'] as const)('%s paging', (action) => {
  const list = (body: unknown) => check(schemas[action], body);

  it('applies defaults PageNumber 1, PageSize 20, SortBy CreateTime, SortOrder Desc, Filter {} when omitted', () => {
    const value = expectAccepted(list({}));
    expect(value.PageNumber).toBe(1);
    expect(value.PageSize).toBe(20);
    expect(value.SortBy).toBe('CreateTime');
    expect(value.SortOrder).toBe('Desc');
    expect(value.Filter).toEqual({});
  });

  it('keeps given PageNumber and PageSize', () => {
    const value = expectAccepted(list({ PageNumber: 3, PageSize: 7 }));
    expect(value.PageNumber).toBe(3);
    expect(value.PageSize).toBe(7);
  });

  it('accepts PageSize 100 and PageSize 1', () => {
    expect(expectAccepted(list({ PageSize: 100 })).PageSize).toBe(100);
    expect(expectAccepted(list({ PageSize: 1 })).PageSize).toBe(1);
  });

  it('rejects PageSize 101, naming PageSize', () => {
    expectRejected(list({ PageSize: 101 }), 'PageSize', /at most 100/);
  });

  it('rejects PageSize 0 and a fractional PageSize, naming PageSize', () => {
    expectRejected(list({ PageSize: 0 }), 'PageSize', /at least 1/);
    expectRejected(list({ PageSize: 2.5 }), 'PageSize', /integer/);
    expectRejected(list({ PageSize: '20' }), 'PageSize', /integer/);
  });

  it('accepts PageNumber 1 and rejects PageNumber 0 and -1, naming PageNumber', () => {
    expect(expectAccepted(list({ PageNumber: 1 })).PageNumber).toBe(1);
    expectRejected(list({ PageNumber: 0 }), 'PageNumber', /at least 1/);
    expectRejected(list({ PageNumber: -1 }), 'PageNumber', /at least 1/);
  });

  it('rejects a non-integer PageNumber, naming PageNumber', () => {
    expectRejected(list({ PageNumber: 1.5 }), 'PageNumber', /integer/);
    expectRejected(list({ PageNumber: '1' }), 'PageNumber', /integer/);
  });

  it('accepts SortOrder Asc and rejects another SortOrder, naming SortOrder', () => {
    expect(expectAccepted(list({ SortOrder: 'Asc' })).SortOrder).toBe('Asc');
    expectRejected(list({ SortOrder: 'asc' }), 'SortOrder', /Desc, Asc/);
  });

  it('accepts SortBy UpdateTime and rejects an unknown SortBy, naming SortBy', () => {
    expect(expectAccepted(list({ SortBy: 'UpdateTime' })).SortBy).toBe('UpdateTime');
    expectRejected(list({ SortBy: 'Name' }), 'SortBy', /CreateTime/);
  });

  it('accepts Filter.GroupIds as a list of ids', () => {
    expect(expectAccepted(list({ Filter: { GroupIds: ['g1', 'g2'] } })).Filter.GroupIds).toEqual(['g1', 'g2']);
  });

  it('rejects Filter.GroupIds that is not a list, naming Filter.GroupIds', () => {
    expectRejected(list({ Filter: { GroupIds: 'g1' } }), 'Filter.GroupIds', /list of ids/);
  });

  it('rejects an empty id inside Filter.GroupIds, naming the list item', () => {
    expectRejected(list({ Filter: { GroupIds: ['g1', ''] } }), 'Filter.GroupIds[1]', /empty/);
    expectRejected(list({ Filter: { GroupIds: [7] } }), 'Filter.GroupIds[0]', /string/);
  });

  it('accepts Filter.GroupType AIGC and LivenessFace', () => {
    expect(expectAccepted(list({ Filter: { GroupType: 'AIGC' } })).Filter.GroupType).toBe('AIGC');
    expect(expectAccepted(list({ Filter: { GroupType: 'LivenessFace' } })).Filter.GroupType).toBe('LivenessFace');
  });

  it('rejects another Filter.GroupType, naming Filter.GroupType', () => {
    expectRejected(list({ Filter: { GroupType: 'Other' } }), 'Filter.GroupType', /AIGC, LivenessFace/);
  });

  it('accepts Filter.Name as a string and rejects a non-string, naming Filter.Name', () => {
    expect(expectAccepted(list({ Filter: { Name: 'cat' } })).Filter.Name).toBe('cat');
    expectRejected(list({ Filter: { Name: 3 } }), 'Filter.Name', /string/);
  });

  it('rejects an unknown key inside Filter, naming Filter.<key>', () => {
    expectRejected(list({ Filter: { Colour: 'red' } }), 'Filter.Colour', /not a parameter/);
  });

  it('rejects an unknown top-level parameter, naming the key', () => {
    expectRejected(list({ Limit: 10 }), 'Limit', /not a parameter/);
  });
});

describe('ListAssetGroups', () => {
  it('rejects Filter.Statuses (only ListAssets defines it), naming Filter.Statuses', () => {
    expectRejected(check(schemas.ListAssetGroups, { Filter: { Statuses: ['Active'] } }), 'Filter.Statuses', /not a parameter/);
  });

  it('rejects SortBy GroupId (only ListAssets sorts by it), naming SortBy', () => {
    expectRejected(check(schemas.ListAssetGroups, { SortBy: 'GroupId' }), 'SortBy');
  });
});

describe('ListAssets', () => {
  const list = (body: unknown) => check(schemas.ListAssets, body);

  it('accepts Filter.Statuses with Processing, Active and Failed', () => {
    const value = expectAccepted(list({ Filter: { Statuses: ['Processing', 'Active', 'Failed'] } }));
    expect(value.Filter.Statuses).toEqual(['Processing', 'Active', 'Failed']);
  });

  it('rejects an unknown status in Filter.Statuses, naming the list item', () => {
    expectRejected(list({ Filter: { Statuses: ['Active', 'Deleted'] } }), 'Filter.Statuses[1]', /Processing, Active, Failed/);
  });

  it('rejects Filter.Statuses that is not a list, naming Filter.Statuses', () => {
    expectRejected(list({ Filter: { Statuses: 'Active' } }), 'Filter.Statuses', /list of statuses/);
  });

  it('accepts SortBy GroupId', () => {
    expect(expectAccepted(list({ SortBy: 'GroupId' })).SortBy).toBe('GroupId');
  });

  it('accepts the real-person follow-up filter GroupIds + GroupType LivenessFace', () => {
    const value = expectAccepted(list({ Filter: { GroupIds: ['g-face'], GroupType: 'LivenessFace' } }));
    expect(value.Filter).toEqual({ GroupIds: ['g-face'], GroupType: 'LivenessFace' });
  });
});

describe.each(['GetAssetGroup', 'DeleteAssetGroup', 'GetAsset', 'DeleteAsset'] as const)('%s', (action) => {
  it('accepts an Id', () => {
    expect(expectAccepted(check(schemas[action], { Id: 'abc' }))).toEqual({ Id: 'abc' });
  });

  it('rejects a missing Id as required, naming Id', () => {
    expectRejected(check(schemas[action], {}), 'Id', /required/);
  });

  it('rejects an empty Id, naming Id', () => {
    expectRejected(check(schemas[action], { Id: '' }), 'Id', /empty/);
  });

  it('rejects an Id over 128 characters and a non-string Id, naming Id', () => {
    expectRejected(check(schemas[action], { Id: 'x'.repeat(129) }), 'Id', /128/);
    expectRejected(check(schemas[action], { Id: 12 }), 'Id', /string/);
  });
});

describe('UpdateAssetGroup', () => {
  const update = (body: unknown) => check(schemas.UpdateAssetGroup, body);

  it('accepts an Id alone (Name optional: omitted keeps the old name)', () => {
    const value = expectAccepted(update({ Id: 'g' }));
    expect(value).toEqual({ Id: 'g' });
    expect('Name' in value).toBe(false);
  });

  it('accepts an empty Description (clears it) and keeps it as the empty string', () => {
    expect(expectAccepted(update({ Id: 'g', Description: '' }))).toEqual({ Id: 'g', Description: '' });
  });

  it('accepts names of 1 and 64 characters', () => {
    expect(expectAccepted(update({ Id: 'g', Name: 'a' })).Name).toBe('a');
    expect(expectAccepted(update({ Id: 'g', Name: 'a'.repeat(64) })).Name).toHaveLength(64);
  });

  it('rejects a given Name of 0 or 65 characters, naming Name', () => {
    expectRejected(update({ Id: 'g', Name: '' }), 'Name', /1 to 64/);
    expectRejected(update({ Id: 'g', Name: 'a'.repeat(65) }), 'Name', /1 to 64/);
  });

  it('rejects a Description of 301 characters, naming Description', () => {
    expectRejected(update({ Id: 'g', Description: 'd'.repeat(301) }), 'Description', /at most 300/);
  });

  it('rejects a missing Id, naming Id', () => {
    expectRejected(update({ Name: 'a' }), 'Id', /required/);
  });

  it('rejects GroupType (not updatable), naming GroupType', () => {
    expectRejected(update({ Id: 'g', GroupType: 'AIGC' }), 'GroupType', /not a parameter/);
  });
});

describe('CreateAsset', () => {
  const create = (body: unknown, http = false) => check((http ? httpSchemas : schemas).CreateAsset, body);

  it.each(['Image', 'Video', 'Audio'])('accepts AssetType %s', (type) => {
    expect(expectAccepted(create({ ...validAsset, AssetType: type })).AssetType).toBe(type);
  });

  it.each(['image', 'Document', '', 3])('rejects AssetType %j, naming AssetType', (type) => {
    expectRejected(create({ ...validAsset, AssetType: type }), 'AssetType', /Image, Video, Audio/);
  });

  it('rejects a missing AssetType, naming AssetType', () => {
    const { AssetType: _omitted, ...body } = validAsset;
    expectRejected(create(body), 'AssetType');
  });

  it('accepts an absolute https URL', () => {
    expect(expectAccepted(create(validAsset)).URL).toBe(validAsset.URL);
  });

  it('rejects an http URL by default, naming URL', () => {
    expectRejected(create({ ...validAsset, URL: 'http://cdn.example.com/cat.png' }), 'URL', /https:\/\//);
  });

  it('accepts an http URL only when allowHttp is on', () => {
    expect(expectAccepted(create({ ...validAsset, URL: 'http://localhost:8080/cat.png' }, true)).URL).toBe(
      'http://localhost:8080/cat.png',
    );
  });

  it('rejects other schemes even with allowHttp, naming URL', () => {
    expectRejected(create({ ...validAsset, URL: 'ftp://cdn.example.com/cat.png' }, true), 'URL', /http:\/\/ or https:\/\//);
    expectRejected(create({ ...validAsset, URL: 'asset://abc' }), 'URL', /https:\/\//);
    expectRejected(create({ ...validAsset, URL: 'data:image/png;base64,AAAA' }), 'URL', /https:\/\//);
  });

  it('rejects a URL with user info, naming URL', () => {
    expectRejected(create({ ...validAsset, URL: 'https://user:pw@cdn.example.com/cat.png' }), 'URL', /user info/);
    expectRejected(create({ ...validAsset, URL: 'https://user@cdn.example.com/cat.png' }), 'URL', /user info/);
  });

  it('rejects a relative URL, naming URL', () => {
    expectRejected(create({ ...validAsset, URL: '/images/cat.png' }), 'URL', /absolute/);
    expectRejected(create({ ...validAsset, URL: 'cdn.example.com/cat.png' }), 'URL', /absolute/);
    expectRejected(create({ ...validAsset, URL: '//cdn.example.com/cat.png' }), 'URL', /absolute/);
  });

  it('rejects two URLs in one URL field, naming URL', () => {
    expectRejected(create({ ...validAsset, URL: 'https://a.example/1.png https://b.example/2.png' }), 'URL', /single URL/);
    expectRejected(create({ ...validAsset, URL: 'https://a.example/1.png,https://b.example/2.png' }), 'URL', /one URL/);
  });

  it('rejects an empty or non-string URL, naming URL', () => {
    expectRejected(create({ ...validAsset, URL: '' }), 'URL', /empty/);
    expectRejected(create({ ...validAsset, URL: 5 }), 'URL', /string/);
  });

  it('rejects a missing or empty Name, and a Name over 255 characters, naming Name', () => {
    const { Name: _omitted, ...body } = validAsset;
    expectRejected(create(body), 'Name', /required/);
    expectRejected(create({ ...validAsset, Name: '' }), 'Name', /empty/);
    expectRejected(create({ ...validAsset, Name: 'n'.repeat(256) }), 'Name', /255/);
  });

  it('rejects a missing GroupId, naming GroupId', () => {
    const { GroupId: _omitted, ...body } = validAsset;
    expectRejected(create(body), 'GroupId', /required/);
  });

  it('rejects an unknown parameter, naming the key', () => {
    expectRejected(create({ ...validAsset, Status: 'Active' }), 'Status', /not a parameter/);
  });
});

describe('UpdateAsset', () => {
  it('accepts Id and Name', () => {
    expect(expectAccepted(check(schemas.UpdateAsset, { Id: 'a', Name: 'new' }))).toEqual({ Id: 'a', Name: 'new' });
  });

  it('rejects a missing or empty Name, naming Name', () => {
    expectRejected(check(schemas.UpdateAsset, { Id: 'a' }), 'Name', /required/);
    expectRejected(check(schemas.UpdateAsset, { Id: 'a', Name: '' }), 'Name', /empty/);
  });

  it('rejects URL (not updatable), naming URL', () => {
    expectRejected(check(schemas.UpdateAsset, { Id: 'a', Name: 'n', URL: 'https://x.example/' }), 'URL', /not a parameter/);
  });
});

describe('CreatePortraitSession', () => {
  const create = (body: unknown) => check(schemas.CreatePortraitSession, body);

  it('defaults ContinuousCreate to false when omitted', () => {
    expect(expectAccepted(create({}))).toEqual({ ContinuousCreate: false });
  });

  it('keeps ContinuousCreate true when given', () => {
    expect(expectAccepted(create({ ContinuousCreate: true }))).toEqual({ ContinuousCreate: true });
  });

  it('rejects a non-boolean ContinuousCreate, naming ContinuousCreate', () => {
    expectRejected(create({ ContinuousCreate: 'yes' }), 'ContinuousCreate', /true or false/);
  });

  it('rejects an unknown parameter, naming the key', () => {
    expectRejected(create({ Consent: true }), 'Consent', /not a parameter/);
  });
});

describe('ResolvePartnerToken', () => {
  const resolve = (body: unknown) => check(schemas.ResolvePartnerToken, body);

  it('accepts a PartnerToken', () => {
    expect(expectAccepted(resolve({ PartnerToken: 'pt_123' }))).toEqual({ PartnerToken: 'pt_123' });
  });

  it('rejects a missing PartnerToken as required, naming PartnerToken', () => {
    expectRejected(resolve({}), 'PartnerToken', /required/);
  });

  it('rejects an empty, non-string or over-long PartnerToken, naming PartnerToken', () => {
    expectRejected(resolve({ PartnerToken: '' }), 'PartnerToken', /empty/);
    expectRejected(resolve({ PartnerToken: 1 }), 'PartnerToken', /string/);
    expectRejected(resolve({ PartnerToken: 't'.repeat(513) }), 'PartnerToken', /too long/);
  });

  it('rejects an unknown parameter, naming the key', () => {
    expectRejected(resolve({ PartnerToken: 'pt', GroupId: 'g' }), 'GroupId', /not a parameter/);
  });
});
