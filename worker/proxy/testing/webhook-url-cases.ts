import fc from 'fast-check';

/**
 * Webhook URLs for the fuzz tests, each with what its host deserves under the outbound rule
 * (docs/webhooks.md), worked out from the address or name generated, independently of
 * shared/outbound-url.ts: every spelling of one IPv4 address the URL parser folds to it.
 */

/** A generated webhook URL and what its host deserves (the tests run with ALLOW_HTTP_MEDIA=on: loopback is allowed). */
export interface UrlCase {
  url: string;
  allowed: boolean;
  why: string;
}

/** IPv4 ranges the proxy does not post to, as [first address, prefix length, what]; loopback is allowed here. */
const V4_REFUSED: [number, number, string][] = [
  [0x00000000, 8, 'unspecified'], [0x0a000000, 8, 'private'], [0x64400000, 10, 'CGNAT'], [0xa9fe0000, 16, 'link-local'],
  [0xac100000, 12, 'private'], [0xc0000000, 24, 'IETF'], [0xc0000200, 24, 'documentation'], [0xc01fc400, 24, 'AS112'],
  [0xc034c100, 24, 'AMT'], [0xc0586300, 24, '6to4 relay'], [0xc0a80000, 16, 'private'], [0xc0af3000, 24, 'AS112'],
  [0xc6120000, 15, 'benchmarking'], [0xc6336400, 24, 'documentation'], [0xcb007100, 24, 'documentation'], [0xe0000000, 4, 'multicast'], [0xf0000000, 4, 'reserved'],
];
const inRange = (n: number, [base, bits]: [number, number, string]) => (n >>> (32 - bits)) === (base >>> (32 - bits));
const v4Verdict = (n: number): { allowed: boolean; why: string } => {
  if (n >>> 24 === 127) return { allowed: true, why: 'loopback' };
  const range = V4_REFUSED.find((r) => inRange(n, r));
  return range ? { allowed: false, why: range[2] } : { allowed: true, why: 'public' };
};
const octets = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
/** The spellings of one IPv4 address that the URL parser reads as it. */
const V4_SPELLINGS: ((n: number) => string)[] = [
  (n) => octets(n).join('.'),
  (n) => `${octets(n).join('.')}.`,
  (n) => String(n),
  (n) => `0x${n.toString(16)}`,
  (n) => octets(n).map((o) => `0${o.toString(8)}`).join('.'),
  (n) => `${n >>> 24}.${n & 0xffffff}`,
  (n) => `0x${(n >>> 24).toString(16)}.${(n >>> 16) & 255}.${n & 0xffff}`,
  (n) => `[::ffff:${octets(n).join('.')}]`,
  (n) => `[::FFFF:${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}]`,
  (n) => `[0:0:0:0:0:ffff:${octets(n).join('.')}]`,
];
const label = fc.stringMatching(/^[a-z0-9]{1,12}$/);
/** Names: a suffix the proxy refuses, a loopback one, or a public one; upper case and a trailing dot at random. */
const NAME_SUFFIXES: [string, boolean][] = [['.internal', false], ['.local', false], ['.home.arpa', false], ['', false], ['.localhost', true], ['.example.com', true], ['.workers.dev', true]];

export function webhookUrlCase(): fc.Arbitrary<UrlCase> {
  const someV4 = fc.oneof(
    fc.tuple(fc.constantFrom(...V4_REFUSED, [0x7f000000, 8, 'loopback'] as [number, number, string]), fc.nat()).map(([[base, bits], k]) => (base | (k % 2 ** (32 - bits))) >>> 0),
    fc.nat({ max: 0xffffffff }),
  );
  const address = fc.tuple(someV4, fc.nat(V4_SPELLINGS.length - 1)).map(([n, i]) => ({ host: V4_SPELLINGS[i]!(n), ...v4Verdict(n) }));
  const name = fc.tuple(label, fc.constantFrom(...NAME_SUFFIXES), fc.boolean(), fc.boolean()).map(([l, [suffix, allowed], upper, dot]) => {
    const host = `${l}${suffix}${dot ? '.' : ''}`;
    // A single label is refused, except `localhost` itself (loopback).
    return { host: upper ? host.toUpperCase() : host, allowed: suffix === '' ? l === 'localhost' : allowed, why: suffix || 'single label' };
  });
  const v6 = fc.constantFrom(
    { host: '[::1]', allowed: true, why: 'loopback' }, { host: '[::]', allowed: false, why: 'unspecified' }, { host: '[fd12:3456::1]', allowed: false, why: 'unique-local' },
    { host: '[fe80::1]', allowed: false, why: 'link-local' }, { host: '[2001:db8::1]', allowed: false, why: 'documentation' }, { host: '[64:ff9b::a00:1]', allowed: false, why: 'NAT64' },
    { host: '[2606:4700:4700::1111]', allowed: true, why: 'public' }, { host: '[2a00:1450:4001::200e]', allowed: true, why: 'public' },
  );
  return fc.tuple(fc.oneof(address, name, v6), fc.constantFrom('http', 'https', 'HTTPS'), fc.option(fc.integer({ min: 1, max: 65535 })), fc.constantFrom('/', '/hook', '/a?b=c#d'))
    .map(([h, scheme, port, path]) => ({ url: `${scheme}://${h.host}${port === null ? '' : `:${port}`}${path}`, allowed: h.allowed, why: h.why }));
}
