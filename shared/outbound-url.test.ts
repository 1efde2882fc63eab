import { describe, expect, it } from 'vitest';
import { outboundUrlProblem } from './outbound-url';

/** Spellings the WHATWG parser accepts, with what the proxy must make of them (docs/webhooks.md). */
const REFUSED: [url: string, why: RegExp][] = [
  // Loopback, in every IPv4 spelling the parser folds to 127.0.0.1.
  ['http://127.0.0.1/hook', /loopback/],
  ['http://127.0.0.1./hook', /loopback/],
  ['http://127.1/hook', /loopback/],
  ['http://2130706433/hook', /loopback/],
  ['http://0x7f.1/hook', /loopback/],
  ['http://0x7f000001/hook', /loopback/],
  ['http://0177.0.0.1/hook', /loopback/],
  ['http://127.255.255.254:9000/hook', /loopback/],
  ['http://①②⑦.0.0.1/hook', /loopback/],
  ['http://localhost/hook', /loopback/],
  ['http://LOCALHOST:8787/hook', /loopback/],
  ['http://localhost./hook', /loopback/],
  ['http://ｌｏｃａｌｈｏｓｔ/hook', /loopback/],
  ['http://api.localhost/hook', /loopback/],
  ['http://[::1]/hook', /loopback/],
  ['http://[0:0:0:0:0:0:0:1]:8080/hook', /loopback/],
  ['http://[::ffff:127.0.0.1]/hook', /loopback/],
  ['http://[::ffff:7f00:1]/hook', /loopback/],
  ['http://[::127.0.0.1]/hook', /loopback/],
  // Unspecified.
  ['http://0.0.0.0/hook', /unspecified/],
  ['http://0/hook', /unspecified/],
  ['http://0.1.2.3/hook', /unspecified/],
  ['http://[::]/hook', /unspecified/],
  ['http://[::ffff:0.0.0.0]/hook', /unspecified/],
  // Private networks.
  ['https://10.0.0.1/hook', /private/],
  ['https://012.0.0.1/hook', /private/],
  ['https://167772161/hook', /private/],
  ['https://172.16.0.1/hook', /private/],
  ['https://172.31.255.255/hook', /private/],
  ['https://192.168.1.1:8443/hook', /private/],
  ['https://[::ffff:10.0.0.1]/hook', /private/],
  ['https://[::ffff:c0a8:101]/hook', /private/],
  ['https://[fd00::1]/hook', /unique-local/],
  ['https://[FC00::1]/hook', /unique-local/],
  // Link-local: cloud metadata.
  ['http://169.254.169.254/latest/meta-data', /link-local/],
  ['http://0xa9fea9fe/latest/meta-data', /link-local/],
  ['http://[::ffff:169.254.169.254]/latest/meta-data', /link-local/],
  ['https://[fe80::1]/hook', /link-local/],
  // Names of the local network.
  ['http://metadata.google.internal/computeMetadata/v1/', /under \.internal/],
  ['https://METADATA.GOOGLE.INTERNAL./x', /under \.internal/],
  ['https://printer.local/hook', /under \.local/],
  ['https://nas.home.arpa/hook', /under \.home\.arpa/],
  ['http://metadata/computeMetadata/v1/', /single-label/],
  ['https://intranet/hook', /single-label/],
  // Other special-use ranges.
  ['https://100.64.0.1/hook', /carrier-grade NAT/],
  ['https://100.127.255.254/hook', /carrier-grade NAT/],
  ['https://192.0.2.10/hook', /special-use/],
  ['https://198.18.0.1/hook', /special-use/],
  ['https://240.0.0.1/hook', /special-use/],
  ['https://255.255.255.255/hook', /broadcast/],
  ['https://224.0.0.1/hook', /multicast/],
  ['https://[ff02::1]/hook', /multicast/],
  ['https://[2001:db8::1]/hook', /special-use/],
  ['https://[64:ff9b::a00:1]/hook', /special-use/],
  ['https://[2002:a00:1::]/hook', /special-use/],
];

const ALLOWED = [
  'https://example.com/hook',
  'https://EXAMPLE.com:8443/hook?x=1#y',
  'https://example.com./hook',
  'https://hooks.slack.com/services/T000/B000/XXXX',
  'https://bücher.example/hook',
  'https://xn--bcher-kva.example/hook',
  'https://8.8.8.8/hook',
  'https://134744072/hook',
  'https://100.63.255.255/hook',
  'https://100.128.0.1/hook',
  'https://172.32.0.1/hook',
  'https://172.15.255.255/hook',
  'https://192.169.0.1/hook',
  'https://[2606:4700:4700::1111]/hook',
  'https://[::ffff:8.8.8.8]/hook',
  'https://localhost.example.com/hook',
  'https://internal.example.com/hook',
  'https://local.example/hook',
];

describe('outboundUrlProblem', () => {
  it('holds at least 40 spellings', () => {
    expect(REFUSED.length + ALLOWED.length).toBeGreaterThanOrEqual(40);
  });

  it.each(REFUSED)('refuses %s', (url, why) => {
    const problem = outboundUrlProblem(url);
    expect(problem).toMatch(why);
    expect(problem).toMatch(/the proxy posts only to public hosts$/);
  });

  it.each(ALLOWED)('allows the public host of %s', (url) => {
    expect(outboundUrlProblem(url)).toBeNull();
    expect(outboundUrlProblem(url, { allowLoopback: true, selfOrigin: 'https://proxy.example.com' })).toBeNull();
  });

  it.each(REFUSED.filter(([, why]) => why.source === 'loopback'))('allows the loopback %s only with allowLoopback', (url) => {
    expect(outboundUrlProblem(url, { allowLoopback: true })).toBeNull();
  });

  it.each(REFUSED.filter(([, why]) => why.source !== 'loopback'))('refuses %s even with allowLoopback', (url, why) => {
    expect(outboundUrlProblem(url, { allowLoopback: true })).toMatch(why);
  });

  it('refuses what is not a URL', () => {
    expect(outboundUrlProblem('not a url')).toBe('must be an absolute URL');
    expect(outboundUrlProblem('')).toBe('must be an absolute URL');
  });
});

describe('the proxy\'s own origin', () => {
  const self = { allowLoopback: true, selfOrigin: 'http://127.0.0.1:8787' };

  it.each([
    'http://127.0.0.1:8787/proxy/me',
    'http://127.0.0.1.:8787/admin/members',
    'http://localhost:8787/admin/members',
    'http://LOCALHOST.:8787/x',
    'http://[::1]:8787/x',
    'http://[::ffff:127.0.0.1]:8787/x',
    'http://2130706433:8787/x',
    'http://127.0.0.2:8787/x',
  ])('is refused even where loopback is allowed: %s', (url) => {
    expect(outboundUrlProblem(url, self)).toBe('must not be the proxy itself (its own origin)');
  });

  it.each(['http://127.0.0.1:8788/hooks', 'http://localhost:9000/hooks', 'https://127.0.0.1:8787/hooks'])('another port or scheme of the same machine is not the proxy: %s', (url) => {
    expect(outboundUrlProblem(url, self)).toBeNull();
  });

  it.each([
    ['https://proxy.example.com/admin/members', 'https://proxy.example.com'],
    ['https://PROXY.example.com.:443/x', 'https://proxy.example.com'],
    ['https://proxy.example.com:8443/x', 'https://proxy.example.com:8443'],
  ])('%s is the deployed proxy %s', (url, origin) => {
    expect(outboundUrlProblem(url, { selfOrigin: origin })).toMatch(/proxy itself/);
  });

  it('a public host beside the proxy is fine', () => {
    expect(outboundUrlProblem('https://hooks.example.com/x', { selfOrigin: 'https://proxy.example.com' })).toBeNull();
    expect(outboundUrlProblem('https://proxy.example.com:8443/x', { selfOrigin: 'https://proxy.example.com' })).toBeNull();
  });
});
