import { beforeEach, describe, expect, it, vi } from 'vitest';
import { sha256Hex } from '@@/shared';
import type { Pixels } from '@/lib/library/image-hash';
import { addLocalFiles } from '@/lib/saving/local-files';
import { db } from '@/lib/storage/database';
import { pngBytes } from '@/lib/testing/media-bytes';
import { putGroup, resetState } from '@/lib/testing/test-setup';

// happy-dom decodes no images: each file here (a PNG's header, then padding) decodes to a plain
// 64 × 64 square of the colour its last three bytes name; the byte before them stands for the encoding.
vi.mock('@/lib/library/decode-pixels', () => ({
  canDecodePixels: () => true,
  decodePixels: async (bytes: Uint8Array): Promise<Pixels> => {
    const data = new Uint8ClampedArray(64 * 64 * 4);
    const [r, g, b] = bytes.subarray(-3);
    for (let i = 0; i < data.length; i += 4) data.set([r!, g!, b!, 255], i);
    return { width: 64, height: 64, data };
  },
}));

const bytesOf = (colour: [number, number, number], encoding = 1) => new Uint8Array([...pngBytes(), encoding, ...colour]);
const file = (name: string, colour: [number, number, number], encoding = 1) => new File([bytesOf(colour, encoding)], name, { type: 'image/png' });
const RED: [number, number, number] = [220, 30, 30];
const BLUE: [number, number, number] = [30, 60, 220];

beforeEach(async () => {
  await resetState();
  await putGroup({ id: 'g1', name: 'Moodboard' });
  await addLocalFiles('g1', [file('red.png', RED)], { onNearDuplicate: async () => 'add' });
});

describe('adding a plain picture beside another plain picture in the library', () => {
  it('keeps a plain picture’s bytes’ SHA-256 and mean colour, not its perceptual hash', async () => {
    const [stored] = await (await db()).getAll('assets');
    expect(stored?.pixelHash).toBe(`flat:${await sha256Hex(bytesOf(RED))}:dc1e1e`);
  });

  it('does not ask about a plain square of another colour', async () => {
    const ask = vi.fn(async () => 'open' as const);
    const [result] = await addLocalFiles('g1', [file('blue.png', BLUE)], { onNearDuplicate: ask });
    expect(ask).not.toHaveBeenCalled();
    expect(result).toMatchObject({ ok: true });
  });

  it('asks about the same file again, and about the same colour encoded otherwise', async () => {
    const ask = vi.fn(async (_name: string) => 'open' as const);
    await addLocalFiles('g1', [file('red again.png', RED), file('red re-encoded.png', [221, 31, 29], 2)], { onNearDuplicate: ask });
    expect(ask.mock.calls.map(([name]) => name)).toEqual(['red again.png', 'red re-encoded.png']);
    expect(await (await db()).count('assets')).toBe(1);
  });
});
