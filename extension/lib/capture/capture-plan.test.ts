import { beforeEach, describe, expect, it, vi } from 'vitest';
import { nameSourceOf, planCapture, planFromUrl } from '@/lib/capture/capture-plan';
import { type BrowserMocks, resetState } from '@/lib/testing/test-setup';

let mocks: BrowserMocks;
beforeEach(async () => {
  vi.restoreAllMocks();
  mocks = await resetState();
});

describe('planFromUrl', () => {
  it('links https://, uploads data:, blob: and http:// (unless the proxy takes http), refuses the rest', () => {
    expect(planFromUrl('https://cdn.example.com/a.png', false)).toEqual({ how: 'link', url: 'https://cdn.example.com/a.png' });
    expect(planFromUrl('data:image/png;base64,AAAA', false)).toEqual({ how: 'upload', url: 'data:image/png;base64,AAAA', reason: 'data' });
    expect(planFromUrl('blob:https://www.example.com/1', true)).toEqual({ how: 'upload', url: 'blob:https://www.example.com/1', reason: 'blob' });
    expect(planFromUrl('http://cdn.example.com/a.png', false)).toEqual({ how: 'upload', url: 'http://cdn.example.com/a.png', reason: 'http' });
    expect(planFromUrl('http://cdn.example.com/a.png', true)).toEqual({ how: 'link', url: 'http://cdn.example.com/a.png' });
    expect(planFromUrl('file:///home/me/a.png', false)).toMatchObject({ how: 'refuse', reason: expect.stringContaining('file on your computer') });
    expect(planFromUrl('ftp://x/a.png', false)).toMatchObject({ how: 'refuse' });
    expect(planFromUrl(undefined, false)).toMatchObject({ how: 'refuse' });
    expect(planFromUrl('http://', false)).toMatchObject({ how: 'refuse' });
  });

  it('takes names from addresses with a file name only', () => {
    expect(nameSourceOf({ how: 'upload', url: 'blob:https://x/1', reason: 'blob' })).toBe('');
    expect(nameSourceOf({ how: 'upload', url: 'https://x/kite.png', reason: 'signin' })).toBe('https://x/kite.png');
  });
});

describe('planCapture', () => {
  it('uploads a link the site refuses without cookies; links it otherwise', async () => {
    mocks.executeScript.mockResolvedValueOnce([{ result: { status: 403, contentType: 'text/plain' } }]);
    expect(await planCapture('https://x.example/a.png', false, { tabId: 1 })).toEqual({ how: 'upload', url: 'https://x.example/a.png', reason: 'signin' });
    mocks.executeScript.mockResolvedValueOnce([{ result: { status: 200, contentType: 'image/png' } }]);
    expect(await planCapture('https://x.example/a.png', false, { tabId: 1 })).toEqual({ how: 'link', url: 'https://x.example/a.png' });
    expect(await planCapture('https://x.example/a.png', false, undefined)).toEqual({ how: 'link', url: 'https://x.example/a.png' });
    expect(mocks.executeScript).toHaveBeenCalledTimes(2);
  });
});
