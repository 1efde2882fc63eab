import { describe, expect, it } from 'vitest';
import { PAGE_MEDIA_MAX } from '@/lib/messaging/page-media-bounds';
import type { PageMediaScan, RawMedia } from '@/lib/page-media/collect-page-media';
import { formatOf, pageMediaItems } from '@/lib/page-media/page-media-items';

const scan = (items: RawMedia[], over: Partial<PageMediaScan> = {}): PageMediaScan => ({ documentUrl: 'https://www.example.com/gallery/', title: 'Gallery', items, truncated: false, ...over });

describe('formatOf', () => {
  it('reads the file ending, a data: type, or a <source type>', () => {
    expect(formatOf('https://cdn.example.com/a/photo.JPEG?w=2')).toBe('jpg');
    expect(formatOf('https://cdn.example.com/clip.mov#t=1')).toBe('mov');
    expect(formatOf('data:image/svg+xml;utf8,<svg/>')).toBe('svg');
    expect(formatOf('data:audio/mpeg;base64,AAAA')).toBe('mp3');
    expect(formatOf('https://cdn.example.com/image?id=4', 'image/webp')).toBe('webp');
    expect(formatOf('https://cdn.example.com/image?id=4')).toBe('');
    expect(formatOf('blob:https://www.example.com/8c9a')).toBe('');
  });
});

describe('pageMediaItems', () => {
  it('resolves relative srcset candidates against the frame document, and keeps no dimensions of another candidate', () => {
    const { items } = pageMediaItems([{ frameId: 0, scan: scan([{ kind: 'img', type: 'image', src: 'https://www.example.com/s.jpg', srcset: 's.jpg 1x, l.jpg 2x', width: 300, height: 200 }]) }]);
    expect(items).toEqual([expect.objectContaining({ url: 'https://www.example.com/gallery/l.jpg', frameId: 0 })]);
    expect(items[0]!.width).toBeUndefined();
  });

  it('keeps the dimensions of what is shown', () => {
    const { items } = pageMediaItems([{ frameId: 0, scan: scan([{ kind: 'img', type: 'image', src: 'https://www.example.com/s.jpg', width: 300, height: 200 }]) }]);
    expect(items[0]).toMatchObject({ width: 300, height: 200 });
  });

  it('lists the top frame first, one item per address across frames, with what another finding knows', () => {
    const inner = scan([{ kind: 'img', type: 'image', src: 'https://cdn.example.com/a.png', width: 64, height: 64, alt: 'Inner' }], { documentUrl: 'https://ads.example.net/' });
    const top = scan([
      { kind: 'background', type: 'image', src: 'https://cdn.example.com/a.png' },
      { kind: 'video', type: 'video', src: 'https://cdn.example.com/v.mp4' },
    ]);
    const { items } = pageMediaItems([
      { frameId: 3, scan: inner },
      { frameId: 0, scan: top },
    ]);
    expect(items.map((i) => [i.url, i.frameId, i.kind, i.width, i.alt])).toEqual([
      ['https://cdn.example.com/a.png', 0, 'background', 64, 'Inner'],
      ['https://cdn.example.com/v.mp4', 0, 'video', undefined, undefined],
    ]);
  });

  it('leaves out what cannot be saved: other schemes, addresses over the limit', () => {
    const { items } = pageMediaItems([
      {
        frameId: 0,
        scan: scan([
          { kind: 'img', type: 'image', src: 'chrome-extension://abc/icon.png' },
          { kind: 'img', type: 'image', src: 'about:blank' },
          { kind: 'img', type: 'image', src: `https://cdn.example.com/${'a'.repeat(9000)}.png` },
          { kind: 'img', type: 'image', src: 'blob:https://www.example.com/8c9a' },
        ]),
      },
    ]);
    expect(items.map((i) => i.url)).toEqual(['blob:https://www.example.com/8c9a']);
  });

  it('lists at most PAGE_MEDIA_MAX items and says so', () => {
    const many = Array.from({ length: PAGE_MEDIA_MAX + 5 }, (_, i): RawMedia => ({ kind: 'img', type: 'image', src: `https://cdn.example.com/${i}.png` }));
    const { items, truncated } = pageMediaItems([{ frameId: 0, scan: scan(many) }]);
    expect(items).toHaveLength(PAGE_MEDIA_MAX);
    expect(truncated).toBe(true);
    expect(pageMediaItems([{ frameId: 0, scan: scan(many.slice(0, 3)) }]).truncated).toBe(false);
  });
});
