/**
 * The canonical query string of a signed `/api/v3` request: each key and value percent-encoded as
 * RFC 3986 says (`encodeURIComponent` plus `!'()*`), the pairs sorted by key, then by value, joined
 * with `&`. The proxy's signer and the sandbox's verifier both use this one function.
 */

const encode = (s: string): string => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const order = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function canonicalQuery(params: URLSearchParams): string {
  return [...params]
    .map(([key, value]) => [encode(key), encode(value)] as const)
    .sort(([ak, av], [bk, bv]) => order(ak, bk) || order(av, bv))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
}
