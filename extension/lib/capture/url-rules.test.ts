import { describe, expect, it } from 'vitest';
import { checkMediaUrl } from '@/lib/capture/url-rules';

describe('checkMediaUrl', () => {
  it.each([
    'https://cdn.example.com/cat.png',
    'https://cdn.example.com/photos/cat.jpg?w=2000&h=1000#top',
    'https://127.0.0.1:8443/clip.mp4',
  ])('accepts %s', (url) => {
    expect(checkMediaUrl(url)).toEqual({ ok: true, url });
  });

  it('refuses plain http unless the proxy allows http media', () => {
    const refused = checkMediaUrl('http://cdn.example.com/cat.png');
    expect(refused).toMatchObject({ ok: false, reason: expect.stringContaining('http://') });
    expect(refused.ok || refused.advice).toMatch(/https:\/\//);
    expect(checkMediaUrl('http://cdn.example.com/cat.png', false).ok).toBe(false);
    expect(checkMediaUrl('http://127.0.0.1:8080/cat.png', true)).toEqual({ ok: true, url: 'http://127.0.0.1:8080/cat.png' });
  });

  it.each([
    ['blob:https://www.example.com/8c9a-4f1e', /blob:/, /direct link/],
    ['data:image/png;base64,iVBORw0KGgo=', /data:/, /upload it/i],
    ['file:///home/ada/cat.png', /file on your computer/, /upload/i],
    ['ftp://files.example.com/cat.png', /ftp:/, /https:\/\//],
    ['javascript:alert(1)', /javascript:/, /https:\/\//],
    ['chrome-extension://abc/icon.png', /chrome-extension:/, /https:\/\//],
  ])('refuses %s with a reason and advice', (url, reason, advice) => {
    const verdict = checkMediaUrl(url);
    expect(verdict.ok).toBe(false);
    if (verdict.ok) return;
    expect(verdict.reason).toMatch(reason);
    expect(verdict.advice).toMatch(advice);
  });

  it('refuses blob: and data: even when http is allowed', () => {
    expect(checkMediaUrl('blob:http://localhost/1', true).ok).toBe(false);
    expect(checkMediaUrl('data:image/png;base64,AAAA', true).ok).toBe(false);
  });

  it.each(['not a url', '/relative/cat.png', 'cdn.example.com/cat.png'])('refuses the invalid address %s', (url) => {
    expect(checkMediaUrl(url)).toMatchObject({ ok: false, reason: expect.stringMatching(/not a valid URL/) });
  });

  it('refuses a missing address', () => {
    expect(checkMediaUrl(undefined)).toMatchObject({ ok: false, reason: expect.stringMatching(/no address/) });
    expect(checkMediaUrl('')).toMatchObject({ ok: false });
  });

  it('refuses user info and repaired forms the service would not accept', () => {
    expect(checkMediaUrl('https://ada:secret@cdn.example.com/cat.png')).toMatchObject({ ok: false, reason: expect.stringMatching(/user info/) });
    expect(checkMediaUrl('http://ada@127.0.0.1/cat.png', true)).toMatchObject({ ok: false, reason: expect.stringMatching(/user info/) });
    expect(checkMediaUrl('https:cdn.example.com/cat.png')).toMatchObject({ ok: false });
  });
});
