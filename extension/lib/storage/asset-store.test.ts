import { deleteDB } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import { assetStore } from '@/lib/storage/asset-store';
import { closeDb, DB_NAME } from '@/lib/storage/database';
import { assetRecord, putGroup } from '@/lib/testing/test-setup';

afterEach(async () => {
  await closeDb();
  await deleteDB(DB_NAME);
});

describe('asset store', () => {
  it('finds records by status and by group, oldest first', async () => {
    await assetStore.put(assetRecord({ localId: 'a', groupId: 'g1', status: 'Processing', createdAt: 2 }));
    await assetStore.put(assetRecord({ localId: 'b', groupId: 'g1', status: 'Active', createdAt: 1 }));
    await assetStore.put(assetRecord({ localId: 'c', groupId: 'g2', status: 'Queued' }));
    expect((await assetStore.withStatus('Processing')).map((a) => a.localId)).toEqual(['a']);
    expect(await assetStore.countWithStatus('Queued')).toBe(1);
    expect((await assetStore.ofGroup('g1')).map((a) => a.localId)).toEqual(['b', 'a']);
  });

  it('queues a new record and marks its group used, unless the same URL is live in that group', async () => {
    await putGroup({ id: 'g1', usedAt: 0 });
    const first = assetRecord({ localId: 'a', groupId: 'g1', status: 'Queued', createdAt: 5 });
    expect(await assetStore.addQueued(first)).toBeNull();
    expect(await assetStore.addQueued({ ...first, localId: 'b' })).toMatchObject({ localId: 'a' });
    expect((await assetStore.all()).map((a) => a.localId)).toEqual(['a']);
  });

  it('keeps data across reopening, as after a service worker restart', async () => {
    await assetStore.put(assetRecord({ localId: 'kept' }));
    await closeDb();
    expect(await assetStore.get('kept')).toMatchObject({ localId: 'kept', status: 'Processing' });
  });
});
