import { describe, expect, it } from 'vitest';
import { accountBook } from '../accounts';
import { AUTHORIZATION_MAX, verifySignature } from './verify-signature';

const NOW = Date.UTC(2025, 0, 1, 12);

function request(authorization: string): Request {
  return new Request('https://sandbox.test/api/v3?Action=ListAssetGroups&Version=2024-01-01', {
    method: 'POST',
    headers: { Authorization: authorization, 'X-Date': '20250101T120000Z', 'Content-Type': 'application/json' },
  });
}

const verdictFor = (authorization: string) => verifySignature(request(authorization), new ArrayBuffer(0), accountBook(undefined), NOW);

describe('verifySignature: the Authorization header', () => {
  it(`is refused past ${AUTHORIZATION_MAX} characters, before it is parsed`, async () => {
    const long = `HMAC-SHA256 Credential=AKSANDBOXDEV/20250101/cn-beijing/ark/request, SignedHeaders=${'a'.repeat(1024 * 1024)}`;
    expect(await verdictFor(long)).toEqual({ ok: false, code: 'SignatureDoesNotMatch', message: expect.stringContaining(`${AUTHORIZATION_MAX} characters`) });
  });

  it('is parsed up to the limit: a malformed one is named as such, an unknown key as unknown', async () => {
    const credential = 'a'.repeat(AUTHORIZATION_MAX - 200);
    const signature = '0'.repeat(64);
    expect(await verdictFor(`HMAC-SHA256 Credential=${credential}`)).toMatchObject({ ok: false, message: expect.stringContaining('not of the form') });
    const wellFormed = `HMAC-SHA256 Credential=${credential}/20250101/cn-beijing/ark/request, SignedHeaders=content-type;host;x-content-sha256;x-date, Signature=${signature}`;
    expect(wellFormed.length).toBeLessThanOrEqual(AUTHORIZATION_MAX);
    expect(await verdictFor(wellFormed)).toMatchObject({ ok: false, code: 'InvalidAccessKey' });
  });
});
