import { beforeEach, describe, expect, it, vi } from 'vitest';
import { captureNote, captureProgress } from '@/lib/capture/capture-note';
import { ProxyClient } from '@/lib/proxy/proxy-client';
import { assetStore } from '@/lib/storage/asset-store';
import type { AssetRecord } from '@/lib/storage/records/asset-record';
import { uploadBytes } from '@/lib/storage/upload-bytes';
import { backgroundTestbed } from '@/lib/testing/test-setup';
import { readyToCreate } from '@/lib/uploads/upload-step';
import type { sendKeptBytes } from '@/lib/uploads/upload-transport';

const SIZE = 4_000_000;
const client = new ProxyClient({ proxyUrl: 'https://proxy.test', token: 't' });
const answer = { id: 'up-1', url: 'https://proxy.test/media/up-1?expires=2000000000&sig=ab', expiresAt: 2_000_000_000, size: SIZE, contentType: 'video/mp4', sha256: 'a'.repeat(64), name: 'clip.mp4' };

function record(): AssetRecord {
  return {
    localId: 'r1',
    groupId: 'g1',
    name: 'clip.mp4',
    url: 'file:video/mp4;sha256,abc',
    type: 'Video',
    status: 'Queued',
    idempotencyKey: 'k1',
    notified: false,
    capture: { how: 'upload', reason: 'file', stage: 'waiting', source: 'file:video/mp4;sha256,abc', bytesKey: 'r1', size: SIZE, contentType: 'video/mp4' },
    createdAt: 1,
    updatedAt: 1,
  };
}

let clock = 1_000;
const now = () => clock;

beforeEach(async () => {
  await backgroundTestbed();
  clock = 1_000;
  await uploadBytes.put({ key: 'r1', bytes: new Uint8Array(SIZE), contentType: 'video/mp4', storedAt: 1 });
  await assetStore.put(record());
});

describe('bytes sent, on the item', () => {
  it('writes the bytes sent while uploading, at most every 250 ms, and none after the answer', async () => {
    const seen: (string | null)[] = [];
    const send: typeof sendKeptBytes = async (_client, stored, _name, onProgress) => {
      expect(stored.bytes.byteLength).toBe(SIZE);
      onProgress(1_000_000, SIZE);
      clock += 100;
      onProgress(1_500_000, SIZE); // too soon: not written
      clock += 200;
      onProgress(3_000_000, SIZE);
      const during = await vi.waitFor(async () => {
        const current = (await assetStore.get('r1'))!;
        expect(current.capture).toMatchObject({ stage: 'uploading', sent: 3_000_000 });
        return current;
      });
      seen.push(captureNote(during), String(captureProgress(during)));
      onProgress(SIZE, SIZE); // the last report, still in flight when the answer comes
      return answer;
    };
    const pending = readyToCreate(client, record(), now, send);
    const ready = await pending;
    expect(seen).toEqual(['Uploading: 2.9 MB of 3.8 MB (a file from this computer)', String(3_000_000 / SIZE)]);
    expect(ready).toMatchObject({ url: answer.url, capture: { stage: 'uploaded', uploadId: 'up-1' } });
    const stored = (await assetStore.get('r1'))!;
    expect(stored.capture).toMatchObject({ stage: 'uploaded' });
    expect(stored.capture).not.toHaveProperty('sent');
    expect(captureProgress(stored)).toBeNull();
  });

  it('never brings back an item deleted while it uploads', async () => {
    const send: typeof sendKeptBytes = async (_client, _stored, _name, onProgress) => {
      await assetStore.remove('r1');
      onProgress(2_000_000, SIZE);
      return answer;
    };
    // Nothing to create: the queue drops the operation (a refusal for a record that is gone).
    await expect(readyToCreate(client, record(), now, send)).rejects.toMatchObject({ failure: { kind: 'rejected', code: 'capture_deleted' } });
    expect(await assetStore.get('r1')).toBeUndefined();
  });
});
