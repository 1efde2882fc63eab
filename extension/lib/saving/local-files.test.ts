import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { setLocale } from '@/lib/i18n/translate';
import { addLocalFiles, readFile, sizeRefusal } from '@/lib/saving/local-files';
import { db } from '@/lib/storage/database';
import { lastUsedGroup } from '@/lib/storage/last-used-group';
import type { AssetRecord } from '@/lib/storage/records/asset-record';
import { uploadBytes } from '@/lib/storage/upload-bytes';
import { mp4Bytes, pngBytes, svgBytes } from '@/lib/testing/media-bytes';
import { putGroup, resetState } from '@/lib/testing/test-setup';

const GB = 1024 ** 3;
let messages: unknown[];

beforeEach(async () => {
  await resetState();
  await putGroup({ id: 'g1', name: 'Moodboard' });
  messages = [];
  fakeBrowser.runtime.onMessage.addListener((message) => void messages.push(message));
});

afterEach(() => setLocale('en'));

const assets = async (): Promise<AssetRecord[]> => (await db()).getAll('assets');
const queued = async () => (await db()).getAll('queue');
const file = (bytes: Uint8Array<ArrayBuffer>, name: string, type: string) => new File([bytes], name, { type });

/** A file that must never be read: its size alone refuses it. */
function unreadable(name: string, type: string, size: number) {
  const read = { arrayBuffer: vi.fn(), stream: vi.fn(), text: vi.fn(), slice: vi.fn(), bytes: vi.fn() };
  return { file: { name, type, size, lastModified: 0, ...read } as unknown as File, read };
}

describe('local files', () => {
  it('refuses a 3 GB video from its size alone: recorded Failed, never read, nothing kept or queued', async () => {
    const { file: huge, read } = unreadable('holiday.mp4', 'video/mp4', 3 * GB);
    const [result] = await addLocalFiles('g1', [huge]);
    expect(result).toMatchObject({ ok: false, recorded: true, message: 'Not added: this video is 3072 MB; the library takes video files up to 50 MB.' });
    for (const method of Object.values(read)) expect(method).not.toHaveBeenCalled();
    expect(await assets()).toEqual([expect.objectContaining({ name: 'holiday.mp4', status: 'Failed', error: result!.ok ? '' : result!.message, groupId: 'g1' })]);
    expect(await queued()).toEqual([]);
    expect(await uploadBytes.keys()).toEqual([]);
  });

  it('holds a file of no known type to the largest limit', () => {
    expect(sizeRefusal({ type: 'text/plain', size: 60 * 1024 * 1024 })).toBe('Not added: this file is 60 MB; the library takes files up to 50 MB.');
    expect(sizeRefusal({ type: '', size: 40 * 1024 * 1024 })).toBeNull();
    // Declared an image: the image limit.
    expect(sizeRefusal({ type: 'image/png', size: 40 * 1024 * 1024 })).toMatch(/image is 40 MB.*30 MB/);
  });

  it('records several files, each its own item with its bytes kept and its create queued; remembers the group and tells the background', async () => {
    const settled = vi.fn();
    const onRead = vi.fn();
    const results = await addLocalFiles('g1', [file(pngBytes(), 'board.png', 'image/png'), file(mp4Bytes(), 'clip.mp4', 'video/mp4')], { onRead, onSettled: settled });
    expect(results).toEqual([
      { name: 'board.png', ok: true, localId: expect.any(String) },
      { name: 'clip.mp4', ok: true, localId: expect.any(String) },
    ]);
    const records = await assets();
    expect(records.map((r) => [r.name, r.type, r.status, r.capture?.how === 'upload' && r.capture.stage]).sort()).toEqual([
      ['board.png', 'Image', 'Queued', 'waiting'],
      ['clip.mp4', 'Video', 'Queued', 'waiting'],
    ]);
    expect(await queued()).toHaveLength(2);
    expect((await uploadBytes.keys()).sort()).toEqual(records.map((r) => r.localId).sort());
    expect(await lastUsedGroup.id()).toBe('g1');
    expect(messages).toContainEqual({ type: 'arkbridge:groups-changed' });
    expect(settled.mock.calls.map(([index]) => index)).toEqual([0, 1]);
    // Each file's read reached its size.
    expect(onRead).toHaveBeenCalledWith(0, 1024, 1024);
    expect(onRead).toHaveBeenCalledWith(1, 4096, 4096);
  });

  it('records a file the proxy would refuse (an SVG) Failed with the reason, nothing kept or queued', async () => {
    const [result] = await addLocalFiles('g1', [file(svgBytes(), 'logo.svg', 'image/svg+xml')]);
    expect(result).toMatchObject({ ok: false, recorded: true, message: expect.stringMatching(/not a type the library takes/) });
    expect(await assets()).toEqual([expect.objectContaining({ name: 'logo.svg', status: 'Failed' })]);
    expect(await queued()).toEqual([]);
    expect(await uploadBytes.keys()).toEqual([]);
  });

  it('answers a file already in the group as a duplicate, not recorded twice', async () => {
    await addLocalFiles('g1', [file(pngBytes(), 'board.png', 'image/png')]);
    const [again] = await addLocalFiles('g1', [file(pngBytes(), 'board copy.png', 'image/png')]);
    expect(again).toMatchObject({ ok: false, recorded: false, message: expect.stringMatching(/board\.png/) });
    expect(await assets()).toHaveLength(1);
  });

  it('reads a file by its stream, reporting bytes read', async () => {
    const bytes = pngBytes(200_000);
    const seen: number[] = [];
    const read = await readFile(file(bytes, 'big.png', 'image/png'), (n) => seen.push(n));
    expect(Buffer.compare(read, bytes)).toBe(0);
    expect(seen.at(-1)).toBe(200_000);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
  });
});
