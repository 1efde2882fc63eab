import { deleteDB } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import { closeDb, db, DB_NAME, type AssetRecord } from './db';

const asset = (over: Partial<AssetRecord>): AssetRecord => ({
  localId: 'l1',
  groupId: 'group-1',
  name: 'cat',
  url: 'https://example.com/cat.png',
  type: 'Image',
  status: 'Processing',
  idempotencyKey: 'k1',
  notified: false,
  createdAt: 1,
  updatedAt: 1,
  ...over,
});

afterEach(async () => {
  await closeDb();
  await deleteDB(DB_NAME);
});

describe('extension database', () => {
  it('creates every store with its indexes on first open', async () => {
    const database = await db();
    expect([...database.objectStoreNames].sort()).toEqual(['assets', 'groups', 'queue', 'settings', 'tasks']);
    expect([...database.transaction('assets').store.indexNames].sort()).toEqual(['byAssetId', 'byGroup', 'byStatus', 'byUrlGroup']);
  });

  it('finds assets by status and by URL within a group', async () => {
    const database = await db();
    await database.put('assets', asset({ localId: 'a', assetId: 'asset-a', status: 'Processing' }));
    await database.put('assets', asset({ localId: 'b', assetId: 'asset-b', status: 'Active', url: 'https://example.com/dog.png' }));
    await database.put('assets', asset({ localId: 'c', status: 'Queued', groupId: 'group-2' }));
    expect((await database.getAllFromIndex('assets', 'byStatus', 'Processing')).map((a) => a.localId)).toEqual(['a']);
    const same = await database.getAllFromIndex('assets', 'byUrlGroup', ['https://example.com/cat.png', 'group-1']);
    expect(same.map((a) => a.localId)).toEqual(['a']);
    expect((await database.getFromIndex('assets', 'byAssetId', 'asset-b'))?.localId).toBe('b');
  });

  it('keeps data across reopening, as after a service worker restart', async () => {
    await (await db()).put('assets', asset({ localId: 'kept' }));
    await closeDb();
    expect(await (await db()).get('assets', 'kept')).toMatchObject({ localId: 'kept', status: 'Processing' });
  });
});
