import { describe, expect, it } from 'vitest';
import { largestSrcsetCandidate, pickSource, SRCSET_MAX } from '@/lib/capture/pick-source';

const PAGE = 'https://www.example.com/gallery/page.html';

describe('largestSrcsetCandidate', () => {
  it('picks the widest w candidate, whatever the order', () => {
    expect(largestSrcsetCandidate('https://cdn.example.com/a-800.jpg 800w, https://cdn.example.com/a-1600.jpg 1600w, https://cdn.example.com/a-400.jpg 400w', PAGE)).toBe(
      'https://cdn.example.com/a-1600.jpg',
    );
  });

  it('picks the highest x density; a candidate without descriptor counts as 1x', () => {
    expect(largestSrcsetCandidate('https://cdn.example.com/a.jpg, https://cdn.example.com/a@3x.jpg 3x, https://cdn.example.com/a@2x.jpg 2x', PAGE)).toBe(
      'https://cdn.example.com/a@3x.jpg',
    );
    expect(largestSrcsetCandidate('https://cdn.example.com/a.jpg 1.5x, https://cdn.example.com/b.jpg', PAGE)).toBe('https://cdn.example.com/a.jpg');
  });

  it('resolves relative candidates against the page', () => {
    expect(largestSrcsetCandidate('small.jpg 320w, /img/large.jpg 1280w', PAGE)).toBe('https://www.example.com/img/large.jpg');
    expect(largestSrcsetCandidate('thumbs/small.jpg 1x, thumbs/big.jpg 2x', PAGE)).toBe('https://www.example.com/gallery/thumbs/big.jpg');
    expect(largestSrcsetCandidate('//cdn.example.com/x.jpg 2x', PAGE)).toBe('https://cdn.example.com/x.jpg');
  });

  it('reads candidates separated by commas without spaces', () => {
    expect(largestSrcsetCandidate('a-400.jpg 400w,a-1200.jpg 1200w,a-800.jpg 800w', PAGE)).toBe('https://www.example.com/gallery/a-1200.jpg');
  });

  it('keeps commas inside candidate URLs (image CDNs)', () => {
    expect(
      largestSrcsetCandidate('https://res.cdn.example.com/w_400,h_300/cat.jpg 400w, https://res.cdn.example.com/w_1200,h_900/cat.jpg 1200w', PAGE),
    ).toBe('https://res.cdn.example.com/w_1200,h_900/cat.jpg');
  });

  it('drops trailing commas of a URL in linear time (a long run of commas inside the URL)', () => {
    // `url.replace(/,+$/, '')` restarted at every comma of the run: quadratic, seconds on this input.
    const url = `a${','.repeat(SRCSET_MAX - 100)}b`;
    expect(largestSrcsetCandidate(`${url}, big.jpg 2x`, PAGE)).toBe('https://www.example.com/gallery/big.jpg');
    expect(largestSrcsetCandidate(`${url}, small.jpg 0.5x`, PAGE)).toBe(new URL(url, PAGE).href);
  });

  it(`ignores a srcset longer than ${SRCSET_MAX} characters`, () => {
    const long = `${'x'.repeat(SRCSET_MAX)} 1x, big.jpg 2x`;
    expect(largestSrcsetCandidate(long, PAGE)).toBeNull();
    expect(pickSource('https://cdn.example.com/shown.jpg', { tag: 'img', srcset: long }, PAGE)).toBe('https://cdn.example.com/shown.jpg');
  });

  it('answers null when nothing usable is offered', () => {
    expect(largestSrcsetCandidate('', PAGE)).toBeNull();
    expect(largestSrcsetCandidate('   ', PAGE)).toBeNull();
    expect(largestSrcsetCandidate('a.jpg wide', PAGE)).toBeNull();
  });
});

describe('pickSource', () => {
  const srcUrl = 'https://cdn.example.com/shown-400.jpg';

  it('prefers the largest srcset candidate', () => {
    expect(pickSource(srcUrl, { tag: 'img', currentSrc: srcUrl, srcset: 'shown-400.jpg 400w, full-2000.jpg 2000w' }, 'https://cdn.example.com/p/')).toBe(
      'https://cdn.example.com/p/full-2000.jpg',
    );
  });

  it('falls back to currentSrc, then the menu srcUrl, then the element src', () => {
    expect(pickSource(srcUrl, { tag: 'img', currentSrc: 'https://cdn.example.com/current.jpg', src: 'https://cdn.example.com/src.jpg' }, PAGE)).toBe(
      'https://cdn.example.com/current.jpg',
    );
    expect(pickSource(srcUrl, { tag: 'img', srcset: '   ', src: 'https://cdn.example.com/src.jpg' }, PAGE)).toBe(srcUrl);
    expect(pickSource(srcUrl, undefined, PAGE)).toBe(srcUrl);
    expect(pickSource(undefined, { tag: 'video', src: 'https://cdn.example.com/clip.mp4' }, PAGE)).toBe('https://cdn.example.com/clip.mp4');
    expect(pickSource(undefined, undefined, PAGE)).toBeUndefined();
  });
});
