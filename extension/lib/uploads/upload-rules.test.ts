import { afterEach, describe, expect, it } from 'vitest';
import { UPLOAD_TYPES } from '@@/shared';
import { formatSize } from '@/lib/format/format-size';
import { setLocale } from '@/lib/i18n/translate';
import { jpegBytes, mp3Bytes, mp4Bytes, pngBytes, svgBytes } from '@/lib/testing/media-bytes';
import { checkUpload, readLimitFor, typeOfFormat } from '@/lib/uploads/upload-rules';

afterEach(() => setLocale('en'));

const MB = 1024 * 1024;

describe('checkUpload (the proxy’s rules, before any byte goes out)', () => {
  it('accepts what the proxy takes, with its kind and asset type', () => {
    expect(checkUpload('image/png', pngBytes(), 1024)).toEqual({ ok: true, contentType: 'image/png', kind: 'image', type: 'Image' });
    expect(checkUpload('video/quicktime', mp4Bytes(), 4096)).toEqual({ ok: true, contentType: 'video/quicktime', kind: 'video', type: 'Video' });
    expect(checkUpload('audio/mpeg; charset=binary', mp3Bytes(), 2048)).toMatchObject({ ok: true, contentType: 'audio/mpeg', type: 'Audio' });
  });

  it('goes by the bytes when the label is missing or wrong', () => {
    expect(checkUpload('application/octet-stream', jpegBytes(), 1024)).toMatchObject({ ok: true, contentType: 'image/jpeg' });
    expect(checkUpload('image/png', jpegBytes(), 1024)).toMatchObject({ ok: true, contentType: 'image/jpeg' });
    expect(checkUpload(null, mp4Bytes(), 4096)).toMatchObject({ ok: true, contentType: 'video/mp4', type: 'Video' });
  });

  it('refuses other types, naming the formats the library takes', () => {
    expect(checkUpload('image/svg+xml', svgBytes(), 60)).toEqual({
      ok: false,
      message: 'Not added: image/svg+xml files are not a type the library takes (PNG, JPEG, WEBP, GIF, BMP, TIFF, HEIC, MP4, MOV, MP3, WAV).',
    });
    expect(checkUpload('application/octet-stream', new Uint8Array(32), 32)).toEqual({ ok: false, message: expect.stringMatching(/^Not added: this file is not a type/) });
    expect(checkUpload('image/png', pngBytes(), 0)).toEqual({ ok: false, message: 'Not added: the file is empty.' });
  });

  it('refuses sizes over the kind’s limit: image 30 MB, video 50 MB, audio 15 MB', () => {
    expect(checkUpload('image/png', pngBytes(), 30 * MB)).toMatchObject({ ok: true });
    expect(checkUpload('image/png', pngBytes(), 30 * MB + 1)).toEqual({ ok: false, message: 'Not added: this image is 30 MB; the library takes image files up to 30 MB.' });
    expect(checkUpload('video/mp4', mp4Bytes(), 62 * MB)).toEqual({ ok: false, message: 'Not added: this video is 62 MB; the library takes video files up to 50 MB.' });
    expect(checkUpload('audio/mpeg', mp3Bytes(), 16 * MB)).toMatchObject({ ok: false });
  });

  it('speaks Simplified Chinese', async () => {
    await setLocale('zh-CN');
    expect(checkUpload('video/mp4', mp4Bytes(), 62 * MB)).toEqual({ ok: false, message: '未添加：此视频为 62 MB；素材库接受的视频文件最大 50 MB。' });
  });
});

describe('helpers', () => {
  it('names each format by its first type, derived from the shared table', () => {
    for (const format of ['png', 'jpeg', 'webp', 'gif', 'bmp', 'tiff', 'heic', 'mp4', 'mov', 'mp3', 'wav'] as const) {
      expect(UPLOAD_TYPES[typeOfFormat(format)!]!.formats[0]).toBe(format);
    }
    expect(typeOfFormat('mov')).toBe('video/quicktime');
  });

  it('formats sizes and read limits', () => {
    expect([812, 7782, 2.1 * MB, 50 * MB, 150 * MB].map(formatSize)).toEqual(['812 bytes', '7.6 KB', '2.1 MB', '50 MB', '150 MB']);
    expect(readLimitFor('Audio')).toBe(15 * MB);
    expect(readLimitFor(null)).toBe(50 * MB);
  });
});
