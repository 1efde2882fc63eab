import { beforeEach, describe, expect, it } from 'vitest';
import { pollAssets } from '@/lib/poll/asset-polling';
import { ApiError } from '@/lib/proxy/api-failure';
import { ProxyClient } from '@/lib/proxy/proxy-client';
import { db } from '@/lib/storage/database';
import type { AssetRecord } from '@/lib/storage/records/asset-record';
import { FakeProxy } from '@/lib/testing/fake-proxy';
import { assetRecord, proxyTestbed } from '@/lib/testing/test-setup';

const NOW = 1_700_000_000_000;
let proxy: FakeProxy;
let client: ProxyClient;

/** A Processing record and the same asset in the fake library. */
async function processing(localId: string, groupId: string, over: Partial<AssetRecord> = {}) {
  const assetId = `asset-${localId}`;
  proxy.seedAsset({ Id: assetId, GroupId: groupId });
  await (await db()).put('assets', assetRecord({ localId, assetId, groupId, ...over }));
  return assetId;
}

/** Assets a and b in g1, c in g2, d and e in g3, all Processing. */
async function fiveInThreeGroups() {
  for (const [id, group] of [['a', 'g1'], ['b', 'g1'], ['c', 'g2'], ['d', 'g3'], ['e', 'g3']] as const) await processing(id, group);
}

const record = async (localId: string) => (await db()).get('assets', localId);

beforeEach(async () => {
  ({ proxy, client } = await proxyTestbed());
});

describe('pollAssets', () => {
  it('calls nothing when no asset is Processing', async () => {
    const database = await db();
    await database.put('assets', assetRecord({ localId: 'q', status: 'Queued' }));
    await database.put('assets', assetRecord({ localId: 'a', status: 'Active', assetId: 'asset-a' }));
    await database.put('assets', assetRecord({ localId: 'f', status: 'Failed', assetId: 'asset-f' }));
    expect(await pollAssets(client, NOW)).toEqual({ changed: [], pending: 0 });
    expect(proxy.calls).toEqual([]);
  });

  it('checks every Processing asset of every group with one ListAssets call', async () => {
    await fiveInThreeGroups();
    expect(await pollAssets(client, NOW)).toEqual({ changed: [], pending: 5 });
    expect(proxy.actions()).toEqual(['ListAssets']);
    const { body } = proxy.calls[0]!;
    expect(body.Filter.Statuses).toEqual(['Processing']);
    expect([...body.Filter.GroupIds].sort()).toEqual(['g1', 'g2', 'g3']);
    expect(body).toMatchObject({ PageNumber: 1, PageSize: 100 });
  });

  it('stores how the assets that left Processing ended, with a second list call only', async () => {
    await fiveInThreeGroups();
    // Other members' assets in the same groups.
    proxy.seedAsset({ Id: 'someone-else', GroupId: 'g1', Status: 'Active' });
    proxy.setStatus('asset-a', 'Active');
    proxy.setStatus('asset-c', 'Failed', 'The URL could not be downloaded (HTTP 404).');

    const result = await pollAssets(client, NOW);
    expect(result.pending).toBe(3);
    expect(result.changed.map((r) => [r.localId, r.status, r.error])).toEqual([
      ['a', 'Active', undefined],
      ['c', 'Failed', 'The URL could not be downloaded (HTTP 404).'],
    ]);
    expect(proxy.actions()).toEqual(['ListAssets', 'ListAssets']);
    const second = proxy.calls[1]!.body;
    expect(second.Filter.Statuses).toEqual(['Active', 'Failed']);
    expect([...second.Filter.GroupIds].sort()).toEqual(['g1', 'g2']);
    expect(second).toMatchObject({ PageNumber: 1, PageSize: 100, SortBy: 'UpdateTime', SortOrder: 'Desc' });

    expect(await record('a')).toMatchObject({ status: 'Active', updatedAt: NOW, notified: false });
    expect(await record('c')).toMatchObject({ status: 'Failed', error: 'The URL could not be downloaded (HTTP 404).' });
    expect(await record('b')).toMatchObject({ status: 'Processing' });
    expect(proxy.callsOf('GetAsset')).toEqual([]);
  });

  it('reads every page when more than 100 assets are Processing', async () => {
    for (let i = 0; i < 250; i++) await processing(`p${i}`, i % 2 ? 'g1' : 'g2');
    expect(await pollAssets(client, NOW)).toEqual({ changed: [], pending: 250 });
    expect(proxy.calls.map((c) => [c.action, c.body.PageNumber, c.body.PageSize])).toEqual([
      ['ListAssets', 1, 100],
      ['ListAssets', 2, 100],
      ['ListAssets', 3, 100],
    ]);
  });

  it('stops reading finished assets once every one it looks for is found', async () => {
    for (let i = 0; i < 230; i++) proxy.seedAsset({ Id: `old-${i}`, GroupId: 'g1', Status: 'Active' });
    await processing('new', 'g1');
    proxy.setStatus('asset-new', 'Active');
    const result = await pollAssets(client, NOW);
    expect(result.changed.map((r) => r.localId)).toEqual(['new']);
    expect(proxy.calls.map((c) => [c.body.Filter.Statuses.join(), c.body.PageNumber])).toEqual([
      ['Processing', 1],
      ['Active,Failed', 1],
    ]);
  });

  it('pages through finished assets to find one updated long ago', async () => {
    await processing('early', 'g1');
    proxy.setStatus('asset-early', 'Active');
    for (let i = 0; i < 150; i++) proxy.seedAsset({ Id: `later-${i}`, GroupId: 'g1', Status: 'Active' });
    const result = await pollAssets(client, NOW);
    expect(result.changed.map((r) => [r.localId, r.status])).toEqual([['early', 'Active']]);
    expect(proxy.callsOf('ListAssets').map((c) => c.body.PageNumber)).toEqual([1, 1, 2]);
  });

  it('ends Failed an asset that is in neither list (deleted, or its group deleted)', async () => {
    await processing('gone', 'g1');
    await processing('kept', 'g1');
    proxy.assets.delete('asset-gone');
    const result = await pollAssets(client, NOW);
    expect(result).toMatchObject({ pending: 1, changed: [{ localId: 'gone', status: 'Failed' }] });
    expect((await record('gone'))?.error).toMatch(/no longer in the library/);
    // The one anomaly is settled with one GetAsset, for that asset only.
    expect(proxy.callsOf('GetAsset').map((c) => c.body)).toEqual([{ Id: 'asset-gone' }]);
  });

  it('leaves Processing an asset that moved between pages while they were read', async () => {
    await processing('shifted', 'g1');
    // Missing from the Processing list (a page shift), yet still Processing when asked directly.
    proxy.hideFromNextList('asset-shifted');
    const result = await pollAssets(client, NOW);
    expect(result.changed).toEqual([]);
    expect(await record('shifted')).toMatchObject({ status: 'Processing' });
  });

  it('leaves everything as it was when the proxy cannot be reached', async () => {
    await processing('a', 'g1');
    proxy.failNext('ListAssets', { kind: 'network' });
    await expect(pollAssets(client, NOW)).rejects.toBeInstanceOf(ApiError);
    expect(await record('a')).toMatchObject({ status: 'Processing' });
  });
});

describe('pollAssets with a proxy that follows the assets itself', () => {
  beforeEach(() => {
    proxy.followed = new Set();
  });

  it('reads how followed assets stand from the proxy alone: no call to the service', async () => {
    await fiveInThreeGroups();
    for (const id of ['a', 'b', 'c', 'd', 'e']) proxy.followed!.add(`asset-${id}`);
    proxy.setStatus('asset-a', 'Active');
    proxy.setStatus('asset-d', 'Failed', 'The URL could not be downloaded (HTTP 404).');
    const result = await pollAssets(client, NOW);
    expect(result.pending).toBe(3);
    expect(result.changed.map((r) => [r.localId, r.status, r.error])).toEqual([
      ['a', 'Active', undefined],
      ['d', 'Failed', 'The URL could not be downloaded (HTTP 404).'],
    ]);
    expect(proxy.calls, 'no library call').toEqual([]);
    expect(proxy.statusCalls.map((c) => [...c.body.ids].sort())).toEqual([['asset-a', 'asset-b', 'asset-c', 'asset-d', 'asset-e']]);
    expect(await record('a')).toMatchObject({ status: 'Active', updatedAt: NOW });
    expect(await record('b')).toMatchObject({ status: 'Processing' });
  });

  it('asks the service only for the assets the proxy does not follow', async () => {
    await fiveInThreeGroups();
    proxy.followed!.add('asset-a').add('asset-b');
    proxy.setStatus('asset-a', 'Active');
    proxy.setStatus('asset-c', 'Active');
    const result = await pollAssets(client, NOW);
    expect(result.changed.map((r) => r.localId).sort()).toEqual(['a', 'c']);
    expect(result.pending).toBe(3);
    // The library is listed for c, d, e only: their groups, not g1's followed pair.
    const lists = proxy.callsOf('ListAssets');
    expect(lists.map((c) => [...c.body.Filter.GroupIds].sort())).toEqual([['g2', 'g3'], ['g2']]);
  });

  it('sends at most 100 ids a call', async () => {
    for (let i = 0; i < 230; i++) {
      await processing(`p${i}`, 'g1');
      proxy.followed!.add(`asset-p${i}`);
    }
    expect(await pollAssets(client, NOW)).toEqual({ changed: [], pending: 230 });
    expect(proxy.statusCalls.map((c) => c.body.ids.length)).toEqual([100, 100, 30]);
    expect(proxy.calls).toEqual([]);
  });

  it('a proxy without the route (404): the extension polls the service for every asset, as before', async () => {
    proxy.followed = null;
    await processing('a', 'g1');
    proxy.setStatus('asset-a', 'Active');
    const result = await pollAssets(client, NOW);
    expect(result.changed.map((r) => r.localId)).toEqual(['a']);
    expect(proxy.statusCalls).toHaveLength(1);
    expect(proxy.actions()).toEqual(['ListAssets', 'ListAssets']);
  });

  it('a failing status call changes nothing and is reported', async () => {
    await processing('a', 'g1');
    proxy.followed!.add('asset-a');
    proxy.setStatus('asset-a', 'Active');
    proxy.failNext('/proxy/assets/statuses', { kind: 'network' });
    await expect(pollAssets(client, NOW)).rejects.toBeInstanceOf(ApiError);
    expect(await record('a')).toMatchObject({ status: 'Processing' });
  });
});
