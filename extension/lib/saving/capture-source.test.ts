import { describe, expect, it } from 'vitest';
import { sourceHowOf, sourceOf } from '@/lib/saving/capture-source';
import { addToLibrary } from '@/lib/saving/add-to-library';
import { assetStore } from '@/lib/storage/asset-store';
import { resetState } from '@/lib/testing/test-setup';

const upload = (reason: 'data' | 'file' | 'screenshot' | 'frame') => ({ how: 'upload' as const, reason, stage: 'waiting' as const, source: 'x', bytesKey: 'k' });

describe('sourceHowOf', () => {
  it('names a link, an upload, a screenshot, a frame and a file by how the media reaches the library', () => {
    expect(sourceHowOf(undefined)).toBe('link');
    expect(sourceHowOf({ how: 'link' })).toBe('link');
    expect(sourceHowOf(upload('data'))).toBe('upload');
    expect(sourceHowOf(upload('screenshot'))).toBe('screenshot');
    expect(sourceHowOf(upload('frame'))).toBe('frame');
    expect(sourceHowOf(upload('file'))).toBe('file');
  });
});

describe('sourceOf', () => {
  it('keeps the page address and title with the capture time', () => {
    expect(sourceOf({ how: 'link' }, { url: 'https://example.com/a', title: ' Cats ' }, 7)).toEqual({ how: 'link', capturedAt: 7, pageUrl: 'https://example.com/a', pageTitle: 'Cats' });
  });

  it('keeps no page for a local file, nor a page address that is not http(s) or too long', () => {
    expect(sourceOf(upload('file'), { url: 'https://example.com/' }, 1)).toEqual({ how: 'file', capturedAt: 1 });
    expect(sourceOf({ how: 'link' }, { url: 'chrome-extension://abc/page.html' }, 1)).toEqual({ how: 'link', capturedAt: 1 });
    expect(sourceOf({ how: 'link' }, { url: `https://example.com/${'a'.repeat(3000)}` }, 1)).toEqual({ how: 'link', capturedAt: 1 });
  });

  it('cuts a long title and drops direction-override characters', () => {
    const source = sourceOf({ how: 'link' }, { title: `\u202e${'t'.repeat(1000)}` }, 1);
    expect(source.pageTitle).toBe('t'.repeat(300));
  });
});

describe('addToLibrary keeps the provenance', () => {
  it('records the page, time and how on the new asset', async () => {
    await resetState();
    const outcome = await addToLibrary({ groupId: 'g', url: 'https://cdn.example.com/cat.png', name: 'cat', type: 'Image', page: { url: 'https://example.com/cats', title: 'Cats' } }, 1_000);
    expect((await assetStore.get(outcome.record.localId))?.source).toEqual({ how: 'link', capturedAt: 1_000, pageUrl: 'https://example.com/cats', pageTitle: 'Cats' });
  });
});
