import { describe, expect, it } from 'vitest';
import { signedRequest } from './signed-calls';

const authorization = (signedHeaders: string) =>
  `HMAC-SHA256 Credential=AKABm1K00/20261127/cn-beijing/ark/request, SignedHeaders=${signedHeaders}, Signature=${'0'.repeat(64)}`;

describe('signedRequest: what of a signed call crosses into the member object', () => {
  const headers = {
    'Content-Type': 'application/json',
    'X-Date': '20261127T120000Z',
    'X-Content-Sha256': 'a'.repeat(64),
    'X-Request-Id': 'r-1',
    Cookie: 'session=secret',
    'X-Other': 'not listed',
  };

  it('carries the headers the caller listed and those the verifier always reads, lowercase, and nothing else', () => {
    const list = 'content-type;host;x-content-sha256;x-date;x-request-id';
    const request = new Request('https://proxy.test/api/v3?Action=ListAssetGroups&Version=2024-01-01', { method: 'POST', headers: { ...headers, Authorization: authorization(list) } });
    const signed = signedRequest(request, list);
    expect(signed.method).toBe('POST');
    expect(signed.url).toBe(request.url);
    expect(Object.fromEntries(signed.headers)).toEqual({
      authorization: authorization(list),
      'content-type': 'application/json',
      'x-content-sha256': 'a'.repeat(64),
      'x-date': '20261127T120000Z',
      'x-request-id': 'r-1',
    });
  });

  it('a list the verifier will refuse adds no header of its own', () => {
    const list = 'Cookie;host;x-date';
    const request = new Request('https://proxy.test/api/v3', { method: 'POST', headers: { ...headers, Authorization: authorization(list) } });
    expect(signedRequest(request, list).headers.map(([name]) => name).sort()).toEqual(['authorization', 'x-content-sha256', 'x-date']);
  });
});
