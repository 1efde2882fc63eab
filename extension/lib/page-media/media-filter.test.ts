import { describe, expect, it } from 'vitest';
import { ALL_MEDIA, filterMedia, formatsIn } from '@/lib/page-media/media-filter';
import type { PageMediaItem } from '@/lib/page-media/page-media-items';

const item = (url: string, over: Partial<PageMediaItem> = {}): PageMediaItem => ({ url, type: 'image', format: url.split('.').pop()!, kind: 'img', frameId: 0, documentUrl: 'https://www.example.com/', ...over });
const ITEMS = [
  item('https://cdn.example.com/hero.jpg', { width: 1600, height: 900 }),
  item('https://cdn.example.com/icon.png', { width: 16, height: 16 }),
  item('https://cdn.example.com/bg.webp'),
  item('https://cdn.example.com/clip.mp4', { type: 'video', width: 640, height: 360 }),
  item('https://cdn.example.com/song.mp3', { type: 'audio', alt: 'Theme song' }),
];
const urls = (items: PageMediaItem[]) => items.map((i) => i.url.split('/').pop());

describe('filterMedia', () => {
  it('keeps everything by default', () => {
    expect(filterMedia(ITEMS, ALL_MEDIA)).toHaveLength(5);
  });

  it('keeps the chosen types', () => {
    expect(urls(filterMedia(ITEMS, { ...ALL_MEDIA, types: ['video', 'audio'] }))).toEqual(['clip.mp4', 'song.mp3']);
  });

  it('drops what is known to be smaller than the minimum, keeping what has no known size', () => {
    expect(urls(filterMedia(ITEMS, { ...ALL_MEDIA, minWidth: 100, minHeight: 100 }))).toEqual(['hero.jpg', 'bg.webp', 'clip.mp4', 'song.mp3']);
    expect(urls(filterMedia(ITEMS, { ...ALL_MEDIA, minHeight: 600 }))).toEqual(['hero.jpg', 'bg.webp', 'song.mp3']);
  });

  it('uses sizes learnt from previews for items the page gave none', () => {
    const learnt = new Map([['https://cdn.example.com/bg.webp', { width: 50, height: 40 }]]);
    expect(urls(filterMedia(ITEMS, { ...ALL_MEDIA, minWidth: 100 }, learnt))).not.toContain('bg.webp');
  });

  it('matches words against the format, the address and the name', () => {
    expect(urls(filterMedia(ITEMS, { ...ALL_MEDIA, text: 'webp' }))).toEqual(['bg.webp']);
    expect(urls(filterMedia(ITEMS, { ...ALL_MEDIA, text: ' MP4 ' }))).toEqual(['clip.mp4']);
    expect(urls(filterMedia(ITEMS, { ...ALL_MEDIA, text: 'theme' }))).toEqual(['song.mp3']);
    expect(urls(filterMedia(ITEMS, { ...ALL_MEDIA, text: 'cdn hero' }))).toEqual(['hero.jpg']);
  });

  it('lists the formats present', () => {
    expect(formatsIn(ITEMS)).toEqual(['jpg', 'mp3', 'mp4', 'png', 'webp']);
  });
});
