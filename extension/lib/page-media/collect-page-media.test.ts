import { afterEach, describe, expect, it } from 'vitest';
import { collectPageMedia, type PageMediaLimits } from '@/lib/page-media/collect-page-media';
import { PAGE_MEDIA_LIMITS, pageMediaItems } from '@/lib/page-media/page-media-items';

const BASE = location.href;
const abs = (path: string) => new URL(path, BASE).href;

/** The page's items as the panel lists them (one frame). */
const listed = (limits: PageMediaLimits = PAGE_MEDIA_LIMITS) => pageMediaItems([{ frameId: 0, scan: collectPageMedia(limits) }]);

afterEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});

describe('collectPageMedia', () => {
  it('finds the largest srcset candidate of an image, not the shown one', () => {
    document.body.innerHTML = '<img src="/small.jpg" srcset="/small.jpg 400w, /large.jpg 1600w, /medium.jpg 800w" alt="Red fox">';
    expect(listed().items).toEqual([expect.objectContaining({ url: abs('/large.jpg'), type: 'image', format: 'jpg', alt: 'Red fox', kind: 'img' })]);
  });

  it('lists each <picture><source> by its largest candidate, with its format from the type when the name has none', () => {
    document.body.innerHTML = `<picture>
      <source srcset="/pic-1x 1x, /pic-2x 2x" type="image/webp">
      <img src="/fallback.png" alt="Landscape">
    </picture>`;
    const { items } = listed();
    expect(items.map((i) => [i.url, i.format, i.kind, i.alt])).toEqual([
      [abs('/fallback.png'), 'png', 'img', 'Landscape'],
      [abs('/pic-2x'), 'webp', 'source', 'Landscape'],
    ]);
  });

  it('finds videos and audio with their <source>s and a poster', () => {
    document.body.innerHTML = `<video poster="/poster.jpg" title="Clip"><source src="/clip.mp4" type="video/mp4"><source src="/clip.webm" type="video/webm"></video>
      <audio src="/song.mp3"></audio>`;
    const { items } = listed();
    expect(items.map((i) => [i.url, i.type, i.format])).toEqual(
      expect.arrayContaining([
        [abs('/clip.mp4'), 'video', 'mp4'],
        [abs('/clip.webm'), 'video', 'webm'],
        [abs('/poster.jpg'), 'image', 'jpg'],
        [abs('/song.mp3'), 'audio', 'mp3'],
      ]),
    );
    expect(items).toHaveLength(4);
  });

  it('reads CSS background images (several per element, quoted or not), and skips gradients', () => {
    document.body.innerHTML = `<div id="hero" style="background-image: url('/hero.webp'), linear-gradient(red, blue)"></div>
      <section style='background-image: url("/tile.png")'></section><p style="background-image: url(/plain.gif)"></p>`;
    const urls = listed().items.filter((i) => i.kind === 'background').map((i) => [i.url, i.format]);
    expect(urls).toEqual([
      [abs('/hero.webp'), 'webp'],
      [abs('/tile.png'), 'png'],
      [abs('/plain.gif'), 'gif'],
    ]);
  });

  it('reads og:image and twitter:image, resolved against the document', () => {
    document.head.innerHTML = '<meta property="og:image" content="/share.jpg"><meta name="twitter:image" content="https://cdn.example.com/card.png">';
    expect(listed().items.map((i) => [i.url, i.kind])).toEqual([
      [abs('/share.jpg'), 'meta'],
      ['https://cdn.example.com/card.png', 'meta'],
    ]);
  });

  it('lists an address once, however often the page shows it', () => {
    document.head.innerHTML = '<meta property="og:image" content="/same.jpg">';
    document.body.innerHTML = '<img src="/same.jpg" alt="First"><img src="/same.jpg"><div style="background-image: url(/same.jpg)"></div>';
    expect(listed().items).toEqual([expect.objectContaining({ url: abs('/same.jpg'), kind: 'img', alt: 'First' })]);
  });

  it('lists a data: image whole, and one over the limit as too large, without its bytes', () => {
    const small = `data:image/png;base64,${'A'.repeat(100)}`;
    const large = `data:image/jpeg;base64,${'B'.repeat(5000)}`;
    document.body.innerHTML = `<img src="${small}" alt="Dot"><img src="${large}">`;
    const { items } = listed({ ...PAGE_MEDIA_LIMITS, dataUrlMax: 1000 });
    expect(items[0]).toMatchObject({ url: small, format: 'png' });
    expect(items[1]).toMatchObject({ format: 'jpg', tooLarge: large.length });
    expect(items[1]!.url.length).toBeLessThan(100);
  });

  it('stops at its bounds: items, backgrounds and elements read', () => {
    document.body.innerHTML = Array.from({ length: 30 }, (_, i) => `<img src="/i${i}.png">`).join('');
    expect(collectPageMedia({ ...PAGE_MEDIA_LIMITS, itemsMax: 10 })).toMatchObject({ truncated: true, items: { length: 10 } });

    document.body.innerHTML = Array.from({ length: 30 }, (_, i) => `<div style="background-image: url(/b${i}.png)"></div>`).join('');
    expect(collectPageMedia({ ...PAGE_MEDIA_LIMITS, backgroundsMax: 5 }).items).toHaveLength(5);
    const scan = collectPageMedia({ ...PAGE_MEDIA_LIMITS, elementsMax: 12 });
    expect(scan.truncated).toBe(true);
    expect(scan.items.length).toBeLessThan(12);
  });

  it('cuts an over-long address one past the limit, which the panel then leaves out', () => {
    const long = `https://cdn.example.com/${'a'.repeat(300)}.png`;
    document.body.innerHTML = `<img src="${long}">`;
    const scan = collectPageMedia({ ...PAGE_MEDIA_LIMITS, urlMax: 100 });
    expect(scan.items[0]!.src).toHaveLength(101);
  });

  it('reads a long background list in one pass (linear: no regex backtracking)', () => {
    const value = Array.from({ length: 200 }, (_, i) => `url("/x${i}.png")`).join(', ');
    document.body.innerHTML = `<div style='background-image: ${value}'></div>`;
    expect(listed().items).toHaveLength(200);
  });
});
