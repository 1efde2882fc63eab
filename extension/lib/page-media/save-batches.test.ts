import { describe, expect, it } from 'vitest';
import { DATA_URL_MAX, SAVE_CHARS_MAX, SAVE_ITEMS_MAX } from '@/lib/messaging/page-media-bounds';
import { saveBatches } from '@/lib/page-media/save-batches';

describe('saveBatches', () => {
  it('splits by count', () => {
    const items = Array.from({ length: 12 }, (_, i) => ({ url: `https://cdn.example.com/${i}.png` }));
    expect(saveBatches(items, 5).map((b) => b.length)).toEqual([5, 5, 2]);
    expect(saveBatches(items, 1000).map((b) => b.length)).toEqual([12]);
    expect(saveBatches(Array.from({ length: SAVE_ITEMS_MAX + 1 }, () => ({ url: 'u' })), 1000).map((b) => b.length)).toEqual([SAVE_ITEMS_MAX, 1]);
  });

  it('keeps the addresses of a batch within the message limit', () => {
    const big = { url: `data:image/png;base64,${'A'.repeat(DATA_URL_MAX - 30)}` };
    const batches = saveBatches(Array.from({ length: 9 }, () => big), 50);
    expect(batches.length).toBeGreaterThan(1);
    for (const batch of batches) expect(batch.reduce((n, i) => n + i.url.length, 0)).toBeLessThanOrEqual(SAVE_CHARS_MAX);
    expect(batches.flat()).toHaveLength(9);
  });
});
