import { afterEach, describe, expect, it } from 'vitest';
import { captureNote, captureProgress } from '@/lib/capture/capture-note';
import { setLocale } from '@/lib/i18n/translate';
import type { CaptureState } from '@/lib/storage/records/capture-state';

afterEach(() => setLocale('en'));

const upload = (over: Partial<Extract<CaptureState, { how: 'upload' }>>): { capture: CaptureState } => ({
  capture: { how: 'upload', reason: 'signin', stage: 'uploaded', source: 'https://x/a.png', bytesKey: 'k', size: 2.1 * 1024 * 1024, ...over },
});

describe('captureNote', () => {
  it('says how the item reached the library, and where its upload stands', () => {
    expect(captureNote({ capture: { how: 'link' } })).toBe('Saved by link');
    expect(captureNote({})).toBeNull();
    expect(captureNote(upload({ stage: 'reading', read: 0, size: undefined }))).toBe('Reading from the page…');
    expect(captureNote(upload({ stage: 'reading', read: 3 * 1024 * 1024, size: undefined }))).toBe('Reading from the page: 3 MB');
    expect(captureNote(upload({ stage: 'reading', read: 12 * 1024 * 1024, size: 48.3 * 1024 * 1024 }))).toBe('Reading from the page: 12 MB of 48.3 MB');
    expect(captureNote(upload({ stage: 'waiting', reason: 'data' }))).toBe('Waiting to upload 2.1 MB (embedded in the page)');
    expect(captureNote(upload({ stage: 'uploading', reason: 'http' }))).toBe('Uploading 2.1 MB (the proxy takes no http:// links)…');
    expect(captureNote(upload({ stage: 'uploading', reason: 'file', sent: 1024 * 1024 }))).toBe('Uploading: 1 MB of 2.1 MB (a file from this computer)');
    expect(captureNote(upload({}))).toBe('Uploaded 2.1 MB (the site needs sign-in)');
  });

  it('speaks Simplified Chinese', async () => {
    await setLocale('zh-CN');
    expect(captureNote({ capture: { how: 'link' } })).toBe('已通过链接保存');
    expect(captureNote(upload({ reason: 'blob' }))).toBe('已上传 2.1 MB（只有页面能读取）');
  });

  it('gives the reading and sending progress when the size is known', () => {
    expect(captureProgress(upload({ stage: 'reading', read: 25, size: 100 }))).toBe(0.25);
    expect(captureProgress(upload({ stage: 'uploading', sent: 75, size: 100 }))).toBe(0.75);
    expect(captureProgress(upload({ stage: 'uploading', size: 100 }))).toBeNull();
    expect(captureProgress(upload({ stage: 'reading', read: 25, size: undefined }))).toBeNull();
    expect(captureProgress(upload({}))).toBeNull();
  });
});
