import { beforeEach, describe, expect, it } from 'vitest';
import { loadReadiness, refreshLibrary, refreshLibraryIfStale } from '@/lib/library/library-refresh';
import { type LibraryFakeProxy, libraryTestbed } from '@/lib/library/testing/fake-library';
import { GROUP_BATCH } from '@/lib/proxy/list-all-pages';
import type { ProxyClient } from '@/lib/proxy/proxy-client';
import { db } from '@/lib/storage/database';
import { assetRecord, putGroup } from '@/lib/testing/test-setup';

let proxy: LibraryFakeProxy;
let client: ProxyClient;
let messages: unknown[];

beforeEach(async () => {
  ({ proxy, client, messages } = await libraryTestbed());
});

const allAssets = async () => (await db()).getAll('assets');

describe('refreshLibrary', () => {
  it('reads the whole library with list calls only, 100 a page, never one GetAsset per asset', async () => {
    proxy.seedGroup('g1', 'Cats');
    proxy.seedGroup('g2', 'Dogs', 'LivenessFace');
    proxy.seedAssets('g1', 180);
    proxy.seedAssets('g2', 70, () => ({ Status: 'Active' }));

    const outcome = await refreshLibrary(client);

    expect(outcome).toMatchObject({ groups: 2, assets: 250 });
    expect(proxy.callsOf('GetAsset')).toHaveLength(0);
    // The groups others share come from one more call, of the proxy's own (`/proxy/shared`).
    expect(proxy.actions()).toEqual(['ListAssetGroups', '/proxy/shared', 'ListAssets', 'ListAssets', 'ListAssets']);
    for (const call of proxy.calls.filter((c) => c.path.startsWith('/api/v3'))) expect(call.body.PageSize).toBe(100);
    expect(proxy.callsOf('ListAssets').map((c) => c.body.PageNumber)).toEqual([1, 2, 3]);
    expect(proxy.callsOf('ListAssets')[0]!.body.Filter.GroupIds.sort()).toEqual(['g1', 'g2']);

    const records = await allAssets();
    expect(records).toHaveLength(250);
    expect(new Set(records.map((r) => r.localId)).size).toBe(250);
    expect(records.every((r) => r.assetId && r.idempotencyKey === '' && r.notified)).toBe(true);
    const groups = await (await db()).getAll('groups');
    expect(groups.map((g) => [g.id, g.name, g.type])).toEqual([
      ['g1', 'Cats', 'AIGC'],
      ['g2', 'Dogs', 'LivenessFace'],
    ]);
  });

  it('pages the groups and batches many group ids over several ListAssets filters', async () => {
    for (let i = 0; i < 150; i++) proxy.seedGroup(`g${String(i).padStart(3, '0')}`);
    proxy.seedAssets('g000', 3);
    proxy.seedAssets('g149', 2);

    await refreshLibrary(client);

    expect(proxy.callsOf('ListAssetGroups').map((c) => c.body.PageNumber)).toEqual([1, 2]);
    const lists = proxy.callsOf('ListAssets');
    expect(lists).toHaveLength(2);
    expect(lists.map((c) => c.body.Filter.GroupIds.length)).toEqual([GROUP_BATCH, 150 - GROUP_BATCH]);
    expect(await allAssets()).toHaveLength(5);
    expect(proxy.callsOf('GetAsset')).toHaveLength(0);
  });

  it('updates known records by asset id, keeps local ones, removes what the library no longer lists', async () => {
    proxy.seedGroup('g1', 'Cats');
    proxy.seedAsset({ Id: 'a1', GroupId: 'g1', Name: 'renamed elsewhere', Status: 'Failed', Error: { Code: 'ResourceDownloadFailed', Message: 'HTTP 404' } });
    await putGroup({ id: 'g1', name: 'Old name', usedAt: 42 });
    await putGroup({ id: 'gone', name: 'Deleted group' });
    const database = await db();
    await database.put('assets', assetRecord({ localId: 'l1', assetId: 'a1', groupId: 'g1', name: 'old', status: 'Processing', notified: true, idempotencyKey: 'k1' }));
    await database.put('assets', assetRecord({ localId: 'l2', groupId: 'g1', status: 'Queued' }));
    await database.put('assets', assetRecord({ localId: 'l3', assetId: 'a-deleted', groupId: 'g1', status: 'Active' }));
    await database.put('assets', assetRecord({ localId: 'l4', assetId: 'a-in-gone-group', groupId: 'gone', status: 'Active' }));

    const outcome = await refreshLibrary(client);

    expect(outcome.removed).toBe(2);
    const byId = new Map((await allAssets()).map((r) => [r.localId, r]));
    expect([...byId.keys()].sort()).toEqual(['l1', 'l2']);
    expect(byId.get('l1')).toMatchObject({ name: 'renamed elsewhere', status: 'Failed', error: 'HTTP 404', idempotencyKey: 'k1' });
    expect(byId.get('l2')).toMatchObject({ status: 'Queued', idempotencyKey: 'key-l2' });
    const groups = await database.getAll('groups');
    expect(groups).toEqual([{ id: 'g1', name: 'Cats', description: '', type: 'AIGC', usedAt: 42 }]);
    // The groups changed: the background rebuilds its menus.
    expect(messages).toContainEqual({ type: 'arkbridge:groups-changed' });
  });

  it('leaves a finished asset the background has not announced yet to the background, and wakes it', async () => {
    proxy.seedGroup('g1');
    proxy.seedAsset({ Id: 'a1', GroupId: 'g1', Name: 'cat', Status: 'Active' });
    await putGroup({ id: 'g1' });
    await (await db()).put('assets', assetRecord({ localId: 'l1', assetId: 'a1', groupId: 'g1', name: 'cat', status: 'Processing', notified: false }));

    await refreshLibrary(client);

    expect((await (await db()).get('assets', 'l1'))!.status).toBe('Processing');
    expect(messages).toContainEqual({ type: 'arkbridge:sync' });
    expect(messages).not.toContainEqual({ type: 'arkbridge:groups-changed' });
  });

  it('keeps everything stored when the proxy cannot be reached', async () => {
    await putGroup({ id: 'g1' });
    await (await db()).put('assets', assetRecord({ localId: 'l1', assetId: 'a1', groupId: 'g1' }));
    proxy.failNext('ListAssetGroups', { kind: 'network' });
    await expect(refreshLibrary(client)).rejects.toMatchObject({ failure: { kind: 'network' } });
    expect(await allAssets()).toHaveLength(1);
    expect(await (await db()).getAll('groups')).toHaveLength(1);
  });

  it('on popup open, skips a refresh that ran less than a minute ago', async () => {
    proxy.seedGroup('g1', 'Cats');
    let now = 1_000_000;
    expect(await refreshLibraryIfStale(client, 60_000, () => now)).not.toBeNull();
    const calls = proxy.calls.length;
    now += 30_000;
    expect(await refreshLibraryIfStale(client, 60_000, () => now)).toBeNull();
    expect(proxy.calls.length).toBe(calls);
    now += 31_000;
    expect(await refreshLibraryIfStale(client, 60_000, () => now)).not.toBeNull();
    expect(proxy.calls.length).toBeGreaterThan(calls);
  });

  it('loads per-model readiness with one GetAsset, for the detail panel', async () => {
    proxy.seedAsset({ Id: 'a1', GroupId: 'g1', Status: 'Active' });
    proxy.readiness.set('a1', [{ Models: ['doubao-seedance-2-0-260128'], Status: 'Active' }]);
    const asset = await loadReadiness(client, 'a1');
    expect(asset.ModelReadiness).toEqual([{ Models: ['doubao-seedance-2-0-260128'], Status: 'Active' }]);
    expect(proxy.actions()).toEqual(['GetAsset']);
  });
});
