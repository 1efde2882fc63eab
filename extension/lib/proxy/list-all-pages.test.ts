import { beforeEach, describe, expect, it } from 'vitest';
import { LibraryFakeProxy } from '@/lib/library/testing/fake-library';
import { GROUP_BATCH, listAll, listAssetsOfGroups } from '@/lib/proxy/list-all-pages';
import { ProxyClient } from '@/lib/proxy/proxy-client';
import { PROXY_URL, TOKEN } from '@/lib/testing/fake-proxy';

let proxy: LibraryFakeProxy;
let client: ProxyClient;

beforeEach(() => {
  proxy = new LibraryFakeProxy();
  client = new ProxyClient({ proxyUrl: PROXY_URL, token: TOKEN }, proxy.fetch);
});

describe('listAll', () => {
  it('reads every page, 100 a page, and stops at the last one', async () => {
    proxy.seedGroup('g1');
    proxy.seedAssets('g1', 250);
    const listed = await listAll(client, 'ListAssets', { Filter: { GroupIds: ['g1'] }, SortBy: 'CreateTime', SortOrder: 'Asc' });
    expect(listed.complete).toBe(true);
    expect(listed.items).toHaveLength(250);
    expect(new Set(listed.items.map((a) => a.Id)).size).toBe(250);
    expect(proxy.callsOf('ListAssets').map((c) => [c.body.PageNumber, c.body.PageSize])).toEqual([[1, 100], [2, 100], [3, 100]]);
    expect(proxy.callsOf('ListAssets').every((c) => c.body.SortOrder === 'Asc' && c.body.Filter.GroupIds[0] === 'g1')).toBe(true);
  });

  it('does not ask for a page after exactly TotalCount items', async () => {
    for (let i = 0; i < 200; i++) proxy.seedGroup(`g${i}`);
    const listed = await listAll(client, 'ListAssetGroups', {});
    expect(listed.items).toHaveLength(200);
    expect(proxy.callsOf('ListAssetGroups')).toHaveLength(2);
  });

  it('answers one call for an empty list', async () => {
    expect(await listAll(client, 'ListAssetGroups', {})).toEqual({ items: [], complete: true });
    expect(proxy.calls).toHaveLength(1);
  });

  it('stops early once `until` is satisfied', async () => {
    proxy.seedGroup('g1');
    proxy.seedAssets('g1', 350);
    const listed = await listAll(client, 'ListAssets', { Filter: { GroupIds: ['g1'] } }, { until: (items) => items.some((a) => a.Id === 'g1-a150') });
    expect(listed).toMatchObject({ complete: true });
    expect(proxy.callsOf('ListAssets')).toHaveLength(2);
  });

  it('says the list is incomplete when maxPages stopped it', async () => {
    proxy.seedGroup('g1');
    proxy.seedAssets('g1', 350);
    const listed = await listAll(client, 'ListAssets', { Filter: { GroupIds: ['g1'] } }, { maxPages: 2 });
    expect(listed.complete).toBe(false);
    expect(listed.items).toHaveLength(200);
  });

  it('passes a failed page on to the caller', async () => {
    proxy.seedGroup('g1');
    proxy.seedAssets('g1', 150);
    proxy.failNext('ListAssets', { kind: 'status', status: 503 });
    await expect(listAll(client, 'ListAssets', { Filter: { GroupIds: ['g1'] } })).rejects.toMatchObject({ failure: { kind: 'service', status: 503 } });
  });
});

describe('listAssetsOfGroups', () => {
  it('lists many groups in batches of GROUP_BATCH group ids, keeping the other filters', async () => {
    const ids = Array.from({ length: GROUP_BATCH + 20 }, (_, i) => `g${i}`);
    for (const id of ids) {
      proxy.seedGroup(id);
      proxy.seedAssets(id, 1, () => ({ Status: 'Active' }));
      proxy.seedAsset({ Id: `${id}-p`, GroupId: id, Status: 'Processing' });
    }
    const listed = await listAssetsOfGroups(client, ids, { Filter: { Statuses: ['Active'] } });
    expect(listed.complete).toBe(true);
    expect(listed.items.map((a) => a.Id).sort()).toEqual(ids.map((id) => `${id}-a0`).sort());
    const filters = proxy.callsOf('ListAssets').map((c) => c.body.Filter);
    expect(filters.map((f) => f.GroupIds.length)).toEqual([GROUP_BATCH, 20]);
    expect(filters.every((f) => f.Statuses[0] === 'Active')).toBe(true);
  });

  it('makes no call for no groups, and `until` sees every batch read so far', async () => {
    expect(await listAssetsOfGroups(client, [], {})).toEqual({ items: [], complete: true });
    expect(proxy.calls).toHaveLength(0);

    const ids = Array.from({ length: GROUP_BATCH * 3 }, (_, i) => `g${i}`);
    for (const id of ids) proxy.seedAssets(id, 1);
    const listed = await listAssetsOfGroups(client, ids, {}, { until: (items) => items.some((a) => a.GroupId === `g${GROUP_BATCH + 5}`) });
    // One full page per batch; the third batch is never asked for.
    expect(listed.items).toHaveLength(GROUP_BATCH * 2);
    expect(proxy.callsOf('ListAssets')).toHaveLength(2);
  });
});
