import { beforeEach, describe, expect, it, vi } from 'vitest';
import { GRADIENT } from '@/lib/library/testing/gradient-pixels';
import { addLocalFiles } from '@/lib/saving/local-files';
import { db } from '@/lib/storage/database';
import { pngBytes } from '@/lib/testing/media-bytes';
import { assetRecord, putGroup, resetState } from '@/lib/testing/test-setup';

// Every decoded file is one gradient (happy-dom decodes no images): its hash is the library's.
vi.mock('@/lib/library/decode-pixels', async () => (await import('@/lib/library/testing/gradient-pixels')).decodesAsGradient);

const { pixelHash } = await import('@/lib/library/image-hash');

beforeEach(async () => {
  await resetState();
  await putGroup({ id: 'g1', name: 'Moodboard' });
  await putGroup({ id: 'g2', name: 'Shared refs', role: 'editor', owner: { id: 'm2', name: 'Ada' } });
  await (await db()).put('assets', assetRecord({ localId: 'old', groupId: 'g2', name: 'sunset', status: 'Active', pixelHash: pixelHash(GRADIENT)! }));
});

const png = () => new File([pngBytes()], 'copy.png', { type: 'image/png' });

describe('adding a file that nearly repeats an image in the library', () => {
  it('asks the member, naming the existing asset, its group and owner; "Open the existing one" adds nothing', async () => {
    const ask = vi.fn(async () => 'open' as const);
    const [result] = await addLocalFiles('g1', [png()], { onNearDuplicate: ask });
    expect(ask).toHaveBeenCalledWith('copy.png', expect.objectContaining({ groupName: 'Shared refs', owner: 'Ada', match: expect.objectContaining({ asset: expect.objectContaining({ localId: 'old' }) }) }));
    expect(result).toMatchObject({ ok: false, existing: 'old' });
    expect(await (await db()).count('assets')).toBe(1);
  });

  it('"Add anyway" adds it, with its hash', async () => {
    const [result] = await addLocalFiles('g1', [png()], { onNearDuplicate: async () => 'add' });
    expect(result).toMatchObject({ ok: true });
    const added = await (await db()).get('assets', (result as { localId: string }).localId);
    expect(added?.pixelHash).toBe(pixelHash(GRADIENT));
    expect(added?.source).toMatchObject({ how: 'file' });
  });
});
