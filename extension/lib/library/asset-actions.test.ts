import { beforeEach, describe, expect, it } from 'vitest';
import { checkAssetName, deleteAsset, renameAsset } from '@/lib/library/asset-actions';
import { type LibraryFakeProxy, libraryTestbed } from '@/lib/library/testing/fake-library';
import type { ProxyClient } from '@/lib/proxy/proxy-client';
import { db } from '@/lib/storage/database';
import { assetRecord } from '@/lib/testing/test-setup';

let proxy: LibraryFakeProxy;
let client: ProxyClient;

beforeEach(async () => {
  ({ proxy, client } = await libraryTestbed());
});

describe('asset actions', () => {
  it('checks the new name with the shared schema', () => {
    expect(checkAssetName('  ')).toEqual({ ok: false, problem: { field: 'name', message: 'Asset name: must be 1 to 255 characters' } });
    expect(checkAssetName('x'.repeat(256)).ok).toBe(false);
    expect(checkAssetName(' cat ')).toEqual({ ok: true, value: 'cat' });
  });

  it('renames with UpdateAsset and deletes with DeleteAsset', async () => {
    proxy.seedAsset({ Id: 'a1', GroupId: 'g1', Name: 'cat' });
    const record = assetRecord({ localId: 'l1', assetId: 'a1', groupId: 'g1', name: 'cat' });
    await (await db()).put('assets', record);

    expect(await renameAsset(client, record, 'tabby')).toMatchObject({ ok: true, value: { name: 'tabby' } });
    expect(proxy.callsOf('UpdateAsset')[0]!.body).toEqual({ Id: 'a1', Name: 'tabby' });
    expect(proxy.assets.get('a1')!.Name).toBe('tabby');

    expect(await deleteAsset(client, record)).toEqual({ ok: true, value: undefined });
    expect(proxy.callsOf('DeleteAsset')[0]!.body).toEqual({ Id: 'a1' });
    expect(await (await db()).get('assets', 'l1')).toBeUndefined();
  });

  it('removes a record the service never accepted without a call, and refuses one still being sent', async () => {
    const refused = assetRecord({ localId: 'l1', status: 'Failed', error: 'URL: must be https' });
    const sending = assetRecord({ localId: 'l2', status: 'Queued' });
    await (await db()).put('assets', refused);
    await (await db()).put('assets', sending);
    expect((await deleteAsset(client, refused)).ok).toBe(true);
    expect((await deleteAsset(client, sending)).ok).toBe(false);
    expect(proxy.calls).toHaveLength(0);
    expect((await (await db()).getAll('assets')).map((a) => a.localId)).toEqual(['l2']);
  });
});
