import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type AddRequest, addToLibrary } from '@/lib/saving/add-to-library';
import { db } from '@/lib/storage/database';
import { assetRecord, putGroup, resetState } from '@/lib/testing/test-setup';

const request: AddRequest = { groupId: 'group-1', url: 'https://cdn.example.com/cat.png', name: 'cat', type: 'Image' };

beforeEach(async () => {
  vi.restoreAllMocks();
  await resetState();
});

describe('addToLibrary', () => {
  it('records a Queued asset, its queue entry and its Idempotency-Key together', async () => {
    await putGroup({ id: 'group-1', usedAt: 5 });
    const outcome = await addToLibrary(request, 1_000);
    expect(outcome.kind).toBe('queued');
    const database = await db();
    const stored = await database.get('assets', outcome.record.localId);
    expect(stored).toMatchObject({ ...request, status: 'Queued', notified: false, createdAt: 1_000, updatedAt: 1_000 });
    expect(stored?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(stored?.idempotencyKey).not.toBe(stored?.localId);
    expect(await database.getAll('queue')).toEqual([{ key: expect.any(Number), kind: 'createAsset', localId: outcome.record.localId, attempts: 0, notBefore: 1_000 }]);
    // The group becomes the most recently used one (the menu's "recent groups").
    expect((await database.get('groups', 'group-1'))?.usedAt).toBe(1_000);
  });

  it.each(['Queued', 'Processing', 'Active'] as const)('does not record the same URL again in the group while %s', async (status) => {
    const database = await db();
    await database.put('assets', assetRecord({ localId: 'existing', url: request.url, groupId: request.groupId, status }));
    const outcome = await addToLibrary(request);
    expect(outcome).toMatchObject({ kind: 'duplicate', record: { localId: 'existing', status } });
    expect(await database.count('assets')).toBe(1);
    expect(await database.count('queue')).toBe(0);
  });

  it('records a new asset when the earlier one Failed', async () => {
    const database = await db();
    await database.put('assets', assetRecord({ localId: 'failed', url: request.url, groupId: request.groupId, status: 'Failed', error: 'download failed' }));
    const outcome = await addToLibrary(request);
    expect(outcome.kind).toBe('queued');
    expect(outcome.record.localId).not.toBe('failed');
    expect(await database.count('assets')).toBe(2);
    expect(await database.count('queue')).toBe(1);
  });

  it('records the same URL in a different group', async () => {
    const database = await db();
    await database.put('assets', assetRecord({ localId: 'other', url: request.url, groupId: 'group-2', status: 'Active' }));
    expect((await addToLibrary(request)).kind).toBe('queued');
    expect((await addToLibrary({ ...request, url: 'https://cdn.example.com/dog.png' })).kind).toBe('queued');
    expect(await database.count('assets')).toBe(3);
  });

  it('a second add right after the first is a duplicate of the first', async () => {
    const first = await addToLibrary(request);
    const second = await addToLibrary(request);
    expect(second).toMatchObject({ kind: 'duplicate', record: { localId: first.record.localId } });
  });

  it('writes nothing when part of the transaction fails', async () => {
    const database = await db();
    // A stale queue entry already holds the local id the new record will get: the queue write fails.
    await database.add('queue', { kind: 'createAsset', localId: 'fixed-id', attempts: 0, notBefore: 0 });
    vi.spyOn(crypto, 'randomUUID').mockReturnValue('fixed-id' as `${string}-${string}-${string}-${string}-${string}`);
    await expect(addToLibrary(request)).rejects.toThrow();
    expect(await database.count('assets')).toBe(0);
    expect(await database.count('queue')).toBe(1);
  });
});
