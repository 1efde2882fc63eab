import { describe, expect, it } from 'vitest';
import { bytesProblem, checkDeclared, mediaType, sniffFormat, UPLOAD_LIMITS } from './media-kinds';

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));

describe('sniffFormat', () => {
  it.each([
    ['png', bytes([0x89], 'PNG\r\n\x1a\n', [0, 0, 0, 13])],
    ['jpeg', bytes([0xff, 0xd8, 0xff, 0xe0])],
    ['gif', bytes('GIF89a', [1, 0])],
    ['webp', bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 ')],
    ['wav', bytes('RIFF', [0, 0, 0, 0], 'WAVEfmt ')],
    ['bmp', bytes('BM', [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])],
    ['tiff', bytes('II*\0', [8, 0, 0, 0])],
    ['tiff', bytes('MM\0*', [0, 0, 0, 8])],
    ['heic', bytes([0, 0, 0, 24], 'ftypheic', [0, 0, 0, 0])],
    ['mp4', bytes([0, 0, 0, 32], 'ftypisom', [0, 0, 2, 0])],
    ['mov', bytes([0, 0, 0, 20], 'ftypqt  ', [0, 0, 0, 0])],
    ['mov', bytes([0, 0, 0, 8], 'wide', [0, 0, 0, 0])],
    ['mp3', bytes('ID3', [4, 0, 0])],
    ['mp3', bytes([0xff, 0xfb, 0x90, 0x64])],
  ])('%s', (format, head) => {
    expect(sniffFormat(head)).toBe(format);
  });

  it('knows nothing of text, SVG, or too few bytes', () => {
    expect(sniffFormat(bytes('<svg xmlns="http://www.w3.org/2000/svg">'))).toBeNull();
    expect(sniffFormat(bytes('hello world, this is text'))).toBeNull();
    expect(sniffFormat(bytes([0x89, 0x50]))).toBeNull();
    expect(sniffFormat(new Uint8Array())).toBeNull();
  });
});

describe('checkDeclared and bytesProblem', () => {
  it('takes the media types of the library, with their limit per kind', () => {
    expect(checkDeclared('image/png', 10)).toMatchObject({ ok: true, kind: 'image', limit: UPLOAD_LIMITS.image });
    expect(checkDeclared('Video/MP4; codecs="avc1"', null)).toMatchObject({ ok: true, type: 'video/mp4', kind: 'video', limit: 50 * 1024 * 1024 });
    expect(mediaType(' audio/mpeg ; x=1')).toBe('audio/mpeg');
  });

  it('refuses other types with 415 and sizes over the kind limit with 413, naming both', () => {
    expect(checkDeclared('image/svg+xml', 10)).toMatchObject({ ok: false, status: 415, message: expect.stringContaining('image/svg+xml') });
    expect(checkDeclared(null, 10)).toMatchObject({ ok: false, status: 415, message: expect.stringContaining('(none)') });
    expect(checkDeclared('audio/wav', 16 * 1024 * 1024)).toEqual({ ok: false, status: 413, message: 'body: the file is 16 MB; audio may be at most 15 MB.' });
  });

  it('refuses bytes that are not the declared type, naming what they are', () => {
    const declared = checkDeclared('image/png', 100);
    if (!declared.ok) throw new Error('declared');
    expect(bytesProblem(declared, bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe('The file is labelled image/png but its bytes are JPEG: send it with the matching Content-Type.');
    expect(bytesProblem(declared, bytes('<html>'))).toBe('The file is labelled image/png but its bytes are not PNG.');
    const video = checkDeclared('video/quicktime', 100);
    if (!video.ok) throw new Error('declared');
    expect(bytesProblem(video, bytes([0, 0, 0, 32], 'ftypisom', [0, 0, 2, 0]))).toBeNull();
  });
});
