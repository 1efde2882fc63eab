import ipaddr from 'ipaddr.js';

/**
 * Where the proxy itself may POST (docs/webhooks.md): the one rule for every webhook (a member's,
 * the team's) and for ALERT_WEBHOOK_URL, applied when a URL is set and again before each send.
 * The proxy must not be a way to reach its own routes, cloud metadata or a private network (SSRF).
 *
 * The WHATWG URL parser canonicalises the host first (`0x7f.1`, `2130706433`, `0177.0.0.1` and
 * `127.1` all become `127.0.0.1`; IPv6 is written in its compressed hex form; names are lower-cased
 * and IDNA-mapped), so only canonical hosts are judged here. Names only: Workers cannot resolve DNS,
 * so a public name that points at a private address is not caught (the platform's own fetch is).
 * The shape of a webhook URL (scheme, length, user info) is the media rule's: shared/media-url.ts.
 */

export interface OutboundUrlOptions {
  /** Loopback hosts allowed: ALLOW_HTTP_MEDIA=on (the local stack, tests). Never the proxy's own origin. */
  allowLoopback?: boolean;
  /** The proxy's own origin (scheme, host, port of the request), when a request names it: always refused. */
  selfOrigin?: string;
}

/** The problem of a URL on the proxy's own origin (the routes answer it as they did before this rule). */
export const OWN_ORIGIN_PROBLEM = 'must not be the proxy itself (its own origin)';

/** Why the proxy refuses to POST to `value`, or null: host names and addresses, then its own origin. */
export function outboundUrlProblem(value: string, options: OutboundUrlOptions = {}): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  const host = hostKind(url.hostname);
  if (host.kind === 'refused') return `must not be ${host.what}: the proxy posts only to public hosts`;
  if (host.kind === 'loopback' && !options.allowLoopback) return `must not be a loopback host (${url.hostname}): the proxy posts only to public hosts`;
  if (options.selfOrigin && isSelf(url, host.kind, options.selfOrigin)) return OWN_ORIGIN_PROBLEM;
  return null;
}

type HostKind = { kind: 'public' } | { kind: 'loopback' } | { kind: 'refused'; what: string };

/** Names that never leave the machine or the private network (RFC 6761, 6762, 8375; `.internal`: cloud metadata). */
const LOCAL_SUFFIXES = ['.internal', '.local', '.home.arpa'];

/** What the canonical hostname of a parsed URL names. */
function hostKind(hostname: string): HostKind {
  if (hostname.startsWith('[')) return addressKind(hostname.slice(1, -1), 6);
  if (ipaddr.IPv4.isValidFourPartDecimal(hostname)) return addressKind(hostname, 4);
  // `localhost.` is `localhost`: a trailing dot only marks the name as absolute.
  const name = withoutTrailingDots(hostname);
  if (name === 'localhost' || name.endsWith('.localhost')) return { kind: 'loopback' };
  const suffix = LOCAL_SUFFIXES.find((s) => name.endsWith(s) || name === s.slice(1));
  if (suffix) return { kind: 'refused', what: `a host under ${suffix} (${hostname})` };
  // A name without a dot is completed by a local search list (GCE's `metadata` is one).
  if (!name.includes('.')) return { kind: 'refused', what: `a single-label host (${hostname})` };
  return { kind: 'public' };
}

/** A scan, not `/\.+$/`: that regex restarts at every dot of a long run and is quadratic. */
function withoutTrailingDots(name: string): string {
  let end = name.length;
  while (end > 0 && name.charCodeAt(end - 1) === 0x2e) end--;
  return name.slice(0, end);
}

const RANGE_WORDS: Record<string, string> = {
  unspecified: 'an unspecified address',
  private: 'a private address',
  linkLocal: 'a link-local address',
  uniqueLocal: 'a unique-local address',
  carrierGradeNat: 'a carrier-grade NAT address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
};

function addressKind(text: string, version: 4 | 6): HostKind {
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    address = version === 4 ? ipaddr.IPv4.parse(text) : ipaddr.IPv6.parse(text);
  } catch {
    // The parser wrote it, so this does not happen; refused rather than guessed.
    return { kind: 'refused', what: `an address that cannot be classified (${text})` };
  }
  const range = address.range();
  if (address instanceof ipaddr.IPv6 && range !== 'loopback' && range !== 'unspecified') {
    // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d) forms reach the IPv4 address
    // they carry: judged as it.
    const parts = address.parts;
    if (range === 'ipv4Mapped' || parts.slice(0, 6).every((p) => p === 0)) {
      const v4 = ipaddr.IPv4.parse(`${parts[6]! >> 8}.${parts[6]! & 255}.${parts[7]! >> 8}.${parts[7]! & 255}`);
      return addressKind(v4.toString(), 4);
    }
  }
  if (range === 'unicast') return { kind: 'public' };
  if (range === 'loopback') return { kind: 'loopback' };
  // Everything else is special-use: reserved, documentation, benchmarking, and the IPv6 forms that
  // carry an IPv4 address (NAT64, 6to4, Teredo), which may well be a private one.
  return { kind: 'refused', what: `${RANGE_WORDS[range] ?? `a special-use address (${range})`} (${version === 6 ? `[${text}]` : text})` };
}

/**
 * Whether `url` is the proxy's own origin: same scheme, host and port. Loopback hosts are one host
 * here (`localhost` and `127.0.0.1` reach the same listener), and a trailing dot changes nothing.
 */
function isSelf(url: URL, kind: HostKind['kind'], selfOrigin: string): boolean {
  let self: URL;
  try {
    self = new URL(selfOrigin);
  } catch {
    return false;
  }
  if (url.protocol !== self.protocol || url.port !== self.port) return false;
  if (kind === 'loopback' && hostKind(self.hostname).kind === 'loopback') return true;
  return withoutTrailingDots(url.hostname) === withoutTrailingDots(self.hostname);
}
