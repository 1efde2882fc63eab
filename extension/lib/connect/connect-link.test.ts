import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONNECT_LINK_MAX, looksLikeLink, parseConnectLink } from '@/lib/connect/connect-link';
import { setLocale } from '@/lib/i18n/translate';

const TOKEN = `abk_m0123456789abcdef_${'a'.repeat(40)}-_Z`;
/** The link as the console writes it (worker/proxy/routes/console/console-members.ts, tokenPage). */
const linkOf = (origin: string, token = TOKEN) => `${origin}/connect#token=${encodeURIComponent(token)}`;

describe('connect link', () => {
  it('answers the proxy origin and the member token of a link the console makes', () => {
    expect(parseConnectLink(linkOf('https://ark.example.dev'))).toEqual({ ok: true, proxyUrl: 'https://ark.example.dev', token: TOKEN });
    expect(parseConnectLink(`  ${linkOf('http://127.0.0.1:8787')}\n`)).toEqual({ ok: true, proxyUrl: 'http://127.0.0.1:8787', token: TOKEN });
    // Other fragment parameters and a percent-encoded token are read as URLSearchParams reads them.
    expect(parseConnectLink(`https://ark.example.dev:8443/connect#v=1&token=${TOKEN.replace('_', '%5F')}`)).toEqual({ ok: true, proxyUrl: 'https://ark.example.dev:8443', token: TOKEN });
  });

  it('refuses what is not an http(s) link, naming the field', () => {
    for (const text of ['abk_nothing', 'ark.example.dev/connect#token=x', 'javascript:alert(1)//#token=x', `ftp://ark.example.dev/connect#token=${TOKEN}`, `chrome-extension://abc/connect#token=${TOKEN}`]) {
      expect(parseConnectLink(text), text).toEqual({ ok: false, message: expect.stringMatching(/^Connect link: paste the whole link/) });
    }
    expect(parseConnectLink('')).toEqual({ ok: false, message: expect.stringMatching(/^Connect link: paste the link/) });
  });

  it('holds the origin to the Proxy URL rules: https, http only on this machine, no credentials', () => {
    expect(parseConnectLink(linkOf('http://ark.example.dev'))).toEqual({ ok: false, message: expect.stringMatching(/^Connect link: must start with https:\/\//) });
    expect(parseConnectLink(linkOf('https://me:pw@ark.example.dev'))).toEqual({ ok: false, message: expect.stringMatching(/^Connect link: .*user name/) });
  });

  it('wants a member token of the usual form after #token=', () => {
    expect(parseConnectLink('https://ark.example.dev/connect')).toEqual({ ok: false, message: expect.stringMatching(/no member token/) });
    expect(parseConnectLink('https://ark.example.dev/connect#token=')).toEqual({ ok: false, message: expect.stringMatching(/no member token/) });
    // A token in the query is sent to the server with the request: the console never puts it there.
    expect(parseConnectLink(`https://ark.example.dev/connect?token=${TOKEN}`)).toEqual({ ok: false, message: expect.stringMatching(/no member token/) });
    expect(parseConnectLink('https://ark.example.dev/connect#token=sk-123')).toEqual({ ok: false, message: expect.stringMatching(/does not look like an Arkbridge member token/) });
    // Cut short while copying.
    expect(parseConnectLink(linkOf('https://ark.example.dev').slice(0, -3))).toMatchObject({ ok: false });
  });

  it('reads no further than its bound: longer text never reaches the URL parser, shorter text reaches it bounded', () => {
    // Every text handed to URL and URLSearchParams, by length: the parsing work a link costs.
    const parsed: number[] = [];
    const RealURL = URL;
    const RealParams = URLSearchParams;
    vi.stubGlobal('URL', class extends RealURL {
      constructor(input: string | URL, base?: string | URL) {
        parsed.push(String(input).length);
        super(input, base);
      }
    });
    vi.stubGlobal('URLSearchParams', class extends RealParams {
      constructor(input?: string) {
        parsed.push(String(input ?? '').length);
        super(input);
      }
    });
    try {
      const long = `https://ark.example.dev/connect#token=${TOKEN}&pad=${'a'.repeat(CONNECT_LINK_MAX)}`;
      expect(parseConnectLink(long)).toEqual({ ok: false, message: expect.stringMatching(/^Connect link: too long/) });
      expect(parseConnectLink('h'.repeat(1_000_000))).toMatchObject({ ok: false });
      expect(parsed).toEqual([]);

      expect(parseConnectLink(`https://${'a'.repeat(1000)}.dev/${'#token='.repeat(400)}`)).toMatchObject({ ok: false });
      expect(parsed.length).toBeGreaterThan(0);
      expect(Math.max(...parsed)).toBeLessThanOrEqual(CONNECT_LINK_MAX);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('tells a link from a bare token', () => {
    expect(looksLikeLink(linkOf('https://ark.example.dev'))).toBe(true);
    expect(looksLikeLink(` ${linkOf('http://localhost:8787')}`)).toBe(true);
    expect(looksLikeLink(TOKEN)).toBe(false);
    expect(looksLikeLink('')).toBe(false);
  });
});

describe('connect link in Simplified Chinese', () => {
  afterEach(() => setLocale('en'));

  it('names the field in Chinese', async () => {
    await setLocale('zh-CN');
    expect(parseConnectLink('https://ark.example.dev/connect#token=sk-123')).toEqual({ ok: false, message: expect.stringMatching(/^连接链接：/) });
  });
});
