import { describe, expect, it } from 'vitest';
import { DATA_IMAGE_URI_MAX, dataImageUriProblem, MEDIA_URL_MAX, mediaUrlProblem, schemeCount } from './media-url';

describe('mediaUrlProblem', () => {
  it.each([
    'https://cdn.example.com/cat.png',
    'https://cdn.example.com:8443/a/b.mp4?sig=abc&t=1#frag',
    'HTTPS://CDN.EXAMPLE.COM/A.PNG',
    'https://[2001:db8::1]/a.png',
    'https://example.com/path@with-at.png',
    'https://xn--bcher-kva.example/a.png',
  ])('accepts the absolute https URL %s', (url) => {
    expect(mediaUrlProblem(url)).toBeNull();
  });

  it('rejects an empty value', () => {
    expect(mediaUrlProblem('')).toMatch(/empty/);
  });

  it('rejects plain http by default and says https is required', () => {
    expect(mediaUrlProblem('http://cdn.example.com/cat.png')).toMatch(/https:\/\//);
    expect(mediaUrlProblem('http://cdn.example.com/cat.png', { allowHttp: false })).toMatch(/https:\/\//);
  });

  it('accepts plain http only with allowHttp', () => {
    expect(mediaUrlProblem('http://127.0.0.1:8080/cat.png', { allowHttp: true })).toBeNull();
    expect(mediaUrlProblem('https://cdn.example.com/cat.png', { allowHttp: true })).toBeNull();
  });

  it.each(['ftp://example.com/a.png', 'file:///etc/passwd', 'ws://example.com/a', 'javascript:alert(1)', 'asset://abc', 'data:image/png;base64,AAAA'])(
    'rejects the non-http(s) address %s, even with allowHttp',
    (url) => {
      expect(mediaUrlProblem(url)).toMatch(/https:\/\/ URL/);
      expect(mediaUrlProblem(url, { allowHttp: true })).toMatch(/http:\/\/ or https:\/\//);
    },
  );

  it.each(['https://user:pass@example.com/a.png', 'https://user@example.com/a.png', 'https://:pass@example.com/a.png', 'https://@example.com/a.png'])(
    'rejects the URL with user info %s',
    (url) => {
      expect(mediaUrlProblem(url)).toMatch(/user info/);
    },
  );

  it('rejects user info in http URLs too when http is allowed', () => {
    expect(mediaUrlProblem('http://u:p@localhost/a.png', { allowHttp: true })).toMatch(/user info/);
  });

  it.each(['/images/cat.png', 'images/cat.png', 'cdn.example.com/cat.png', '//cdn.example.com/cat.png', 'https://'])(
    'rejects the relative or incomplete URL %s as not absolute',
    (url) => {
      expect(mediaUrlProblem(url)).toMatch(/absolute/);
    },
  );

  it.each(['https:cdn.example.com/cat.png', 'https:/cdn.example.com/cat.png', 'https:///cdn.example.com/cat.png', 'https:\\\\cdn.example.com\\cat.png'])(
    'rejects %s, which only a forgiving parser would read as https://host',
    (url) => {
      expect(mediaUrlProblem(url)).toMatch(/absolute/);
    },
  );

  it('rejects two URLs separated by a space as not a single URL', () => {
    expect(mediaUrlProblem('https://a.example/1.png https://b.example/2.png')).toMatch(/single URL/);
  });

  it('rejects surrounding or embedded whitespace', () => {
    expect(mediaUrlProblem(' https://a.example/1.png')).toMatch(/single URL/);
    expect(mediaUrlProblem('https://a.example/1.png\n')).toMatch(/single URL/);
    expect(mediaUrlProblem('https://a.example/1\t.png')).toMatch(/single URL/);
  });

  it('rejects two URLs joined by a comma or concatenated', () => {
    expect(mediaUrlProblem('https://a.example/1.png,https://b.example/2.png')).toMatch(/exactly one URL/);
    expect(mediaUrlProblem('https://a.example/1.pnghttps://b.example/2.png')).toMatch(/exactly one URL/);
    expect(mediaUrlProblem('https://a.example/1.png;http://b.example/2.png', { allowHttp: true })).toMatch(/exactly one URL/);
  });
});

describe('media URL length', () => {
  const urlOf = (length: number) => { const head = 'https://cdn.example.com/'; return head + 'a'.repeat(length - head.length); };

  it(`accepts a URL of exactly ${MEDIA_URL_MAX} characters and refuses one more, saying the limit`, () => {
    expect(mediaUrlProblem(urlOf(MEDIA_URL_MAX))).toBeNull();
    expect(mediaUrlProblem(urlOf(MEDIA_URL_MAX + 1))).toBe(`must be at most ${MEDIA_URL_MAX} characters (${MEDIA_URL_MAX + 1} given)`);
  });

  it('refuses a megabyte of letters by its length before looking at it', () => {
    expect(mediaUrlProblem('a'.repeat(1 << 20))).toMatch(/^must be at most 8192 characters/);
  });
});

describe('schemeCount', () => {
  it.each([
    ['https://a.example/1.png', 1],
    ['https://a.example/1.pnghttps://b.example/2.png', 2],
    ['1https://x', 1],
    ['12://x', 0],
    ['a+b.c-d://x', 1],
    ['https://x://y', 2],
    [':// no scheme', 0],
  ])('counts the schemes of %s as %i', (value, expected) => {
    expect(schemeCount(value)).toBe(expected);
  });

  it('stays linear on long runs of scheme characters (a quadratic scan would not finish 4 MB)', () => {
    // The old global regex restarted at every letter: 4 MB of letters was ~10^13 steps.
    expect(schemeCount('a'.repeat(4 << 20))).toBe(0);
    expect(schemeCount(`${'a'.repeat(2 << 20)}://${'b'.repeat(2 << 20)}://`)).toBe(2);
    expect(schemeCount('a://'.repeat(1 << 20))).toBe(1 << 20);
  });
});

describe('dataImageUriProblem', () => {
  it(`accepts an image data URI of ${DATA_IMAGE_URI_MAX} characters and refuses a longer one, pointing to URLs`, () => {
    const head = 'data:image/png;base64,';
    const body = (n: number) => 'A'.repeat(n - head.length - ((n - head.length) % 4));
    expect(dataImageUriProblem(head + body(DATA_IMAGE_URI_MAX))).toBeNull();
    expect(dataImageUriProblem(head + body(DATA_IMAGE_URI_MAX) + 'AAAA'.repeat(4))).toMatch(/^must be at most 10485760 characters \(10 MB; .*send larger pictures as a URL/);
  });

  it.each([
    'data:image/png;base64,iVBORw0KGgo=',
    'data:image/png;base64,iVBORw0KGgoAAAANSUhEUg==',
    'data:image/jpeg;base64,/9j/4AAQ',
    'data:image/webp;base64,UklGRg==',
    'data:image/gif;base64,R0lGODlh',
    'data:image/PNG;base64,AAAA',
  ])('accepts the bitmap image data URI %s', (uri) => {
    expect(dataImageUriProblem(uri)).toBeNull();
  });

  it('rejects a value that is not a data URI', () => {
    expect(dataImageUriProblem('https://example.com/a.png')).toMatch(/data:/);
  });

  it.each(['data:text/plain;base64,aGk=', 'data:video/mp4;base64,AAAA', 'data:audio/mpeg;base64,AAAA', 'data:;base64,AAAA', 'data:,hello'])(
    'rejects the non-image data URI %s',
    (uri) => {
      expect(dataImageUriProblem(uri)).toMatch(/must be images/);
    },
  );

  it.each(['data:image/svg+xml;base64,PHN2Zz4=', 'data:image/SVG+XML;base64,PHN2Zz4=', 'data:image/svg;base64,PHN2Zz4='])(
    'rejects the SVG data URI %s as not a bitmap',
    (uri) => {
      expect(dataImageUriProblem(uri)).toMatch(/not SVG/);
    },
  );

  it.each([
    ['no base64 marker', 'data:image/png,AAAA'],
    ['empty data', 'data:image/png;base64,'],
    ['empty subtype', 'data:image/;base64,AAAA'],
    ['an extra parameter', 'data:image/png;charset=utf-8;base64,AAAA'],
    ['a character outside base64', 'data:image/png;base64,AA$A'],
    ['url-safe base64', 'data:image/png;base64,AA-_'],
    ['padding in the middle', 'data:image/png;base64,AA=A'],
    ['three padding characters', 'data:image/png;base64,A==='],
    ['a trailing newline', 'data:image/png;base64,AAAA\n'],
    ['embedded whitespace', 'data:image/png;base64,AA AA'],
  ])('rejects a malformed data URI (%s)', (_label, uri) => {
    expect(dataImageUriProblem(uri)).toMatch(/form data:image/);
  });

  it.each(['data:image/png;base64,AAA', 'data:image/png;base64,AAAAA', 'data:image/png;base64,AAAAAA=', 'data:image/png;base64,iVBORw0KGgo'])(
    'rejects base64 data of a length that is not a multiple of 4 (%s)',
    (uri) => {
      expect(dataImageUriProblem(uri)).toMatch(/invalid length/);
    },
  );
});
