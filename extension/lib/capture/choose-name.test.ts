import { describe, expect, it } from 'vitest';
import { LIMITS } from '@@/shared';
import { chooseName, fileNameOf, NAME_TEXT_MAX } from '@/lib/capture/choose-name';

describe('fileNameOf', () => {
  it('takes the last path segment without its extension, dashes and underscores as spaces', () => {
    expect(fileNameOf('https://cdn.example.com/photos/sunset-beach.jpg?w=2')).toBe('sunset beach');
    expect(fileNameOf('https://cdn.example.com/a/b/my_cat__photo.webp')).toBe('my cat photo');
    expect(fileNameOf('https://cdn.example.com/clips/intro/')).toBe('intro');
    expect(fileNameOf('https://cdn.example.com/caf%C3%A9%20noir.png')).toBe('café noir');
  });

  it('answers empty text when there is no usable file name', () => {
    expect(fileNameOf('https://cdn.example.com/')).toBe('');
    expect(fileNameOf('https://cdn.example.com/%E0%A4%A.png')).toBe('');
    expect(fileNameOf('not a url')).toBe('');
  });
});

describe('chooseName', () => {
  const url = 'https://cdn.example.com/photos/sunset-beach.jpg';

  it('uses alt, then title, then the file name, then the page title, then a fallback', () => {
    expect(chooseName({ alt: 'A red fox', title: 'Fox', url, pageTitle: 'Gallery', kind: 'Image' })).toBe('A red fox');
    expect(chooseName({ alt: '  ', title: 'Fox in snow', url, pageTitle: 'Gallery', kind: 'Image' })).toBe('Fox in snow');
    expect(chooseName({ url, pageTitle: 'Gallery', kind: 'Image' })).toBe('sunset beach');
    expect(chooseName({ url: 'https://cdn.example.com/', pageTitle: '  Holiday   gallery ', kind: 'Image' })).toBe('Holiday gallery');
    expect(chooseName({ url: 'https://cdn.example.com/', kind: 'Video' })).toBe('Video from the web');
  });

  it('collapses whitespace in alt and title', () => {
    expect(chooseName({ alt: ' A\n red\t fox ', url, kind: 'Image' })).toBe('A red fox');
  });

  it(`truncates to ${LIMITS.assetNameMax} characters with an ellipsis`, () => {
    const name = chooseName({ alt: 'x'.repeat(400), url, kind: 'Image' });
    expect(name).toHaveLength(LIMITS.assetNameMax);
    expect(name.endsWith('…')).toBe(true);
    expect(chooseName({ alt: 'y'.repeat(LIMITS.assetNameMax), url, kind: 'Image' })).toBe('y'.repeat(LIMITS.assetNameMax));
  });

  it(`reads at most ${NAME_TEXT_MAX} characters of the page's alt, title and page title`, () => {
    const megabyte = 'fox '.repeat(256 * 1024);
    const name = chooseName({ alt: megabyte, url, kind: 'Image' });
    expect(name).toBe(`${'fox '.repeat(64).slice(0, LIMITS.assetNameMax - 1)}…`);
    // What lies past the limit is not read: an alt of only blanks there counts as empty.
    expect(chooseName({ alt: `${' '.repeat(NAME_TEXT_MAX)}Fox`, title: 'Title', url, kind: 'Image' })).toBe('Title');
    expect(chooseName({ url: 'https://cdn.example.com/', pageTitle: `${' '.repeat(NAME_TEXT_MAX)}Page`, kind: 'Image' })).toBe('Image from the web');
  });
});
