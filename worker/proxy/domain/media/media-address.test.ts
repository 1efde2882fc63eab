import { describe, expect, it } from 'vitest';
import { checkAddress, signedAddress } from './media-address';

const SECRET = 'media-secret-for-this-test';
const parts = (url: string) => {
  const u = new URL(url);
  return { id: u.pathname.slice('/media/'.length), expires: u.searchParams.get('expires') ?? undefined, sig: u.searchParams.get('sig') ?? undefined };
};

describe('signed media addresses', () => {
  const url = signedAddress(SECRET, 'https://proxy.test', 'u-m0123456789abcdef-abc', 2_000_000_000);
  const { id, expires, sig } = parts(url);

  it('checks out until it expires, then says expired', () => {
    expect(url).toMatch(/^https:\/\/proxy\.test\/media\/u-m0123456789abcdef-abc\?expires=2000000000&sig=[0-9a-f]{64}$/);
    expect(checkAddress(SECRET, id, expires, sig, 1_999_999_999)).toBe('ok');
    expect(checkAddress(SECRET, id, expires, sig, 2_000_000_001)).toBe('expired');
  });

  it('refuses a tampered id, a stretched expiry, another secret, and junk', () => {
    expect(checkAddress(SECRET, 'u-m0123456789abcdef-abd', expires, sig, 0)).toBe('forged');
    expect(checkAddress(SECRET, id, '2000000001', sig, 0)).toBe('forged');
    expect(checkAddress('another-secret', id, expires, sig, 0)).toBe('forged');
    expect(checkAddress(SECRET, id, undefined, sig, 0)).toBe('forged');
    expect(checkAddress(SECRET, id, expires, 'x'.repeat(64), 0)).toBe('forged');
    expect(checkAddress(SECRET, id, '1e30', sig, 0)).toBe('forged');
  });

  it('a forged address that is also expired is forged, not expired', () => {
    expect(checkAddress(SECRET, id, '1', sig, 2_000_000_001)).toBe('forged');
  });
});
