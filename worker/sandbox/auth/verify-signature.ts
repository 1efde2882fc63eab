import { API_REGION, API_SERVICE } from '../../../shared';
import { deriveSigningKey } from '../../../shared/signing/signing-key';
import { verifyV4 } from '../../../shared/signing/verify-v4';
import type { Account, AccountBook } from '../accounts';

/**
 * The service's check of a signed `/api/v3` request: the shared verifier (shared/signing/verify-v4.ts)
 * with the sandbox's accounts as keys. The vendor's own signers are tested against it
 * (vendor-signers.test.ts), so a mistake shared with the proxy's signer cannot hide.
 */

export { AUTHORIZATION_MAX } from '../../../shared/signing/authorization';

export type Verdict =
  | { ok: true; account: Account }
  | { ok: false; code: 'SignatureDoesNotMatch' | 'InvalidAccessKey'; message: string };

/**
 * Verifies a request's signature over `body` (the exact bytes received).
 * @param nowMs the server's real time, for the 15-minute skew rule.
 */
export async function verifySignature(request: Request, body: ArrayBuffer, accounts: AccountBook, nowMs: number): Promise<Verdict> {
  const result = await verifyV4(request, new Uint8Array(body), {
    now: nowMs,
    region: API_REGION,
    service: API_SERVICE,
    signingKey: async (accessKeyId, date, region, service) => {
      const account = accounts.byAccessKey(accessKeyId);
      return account && deriveSigningKey(account.secretAccessKey, date, region, service);
    },
  });
  if (!result.ok) return { ok: false, code: result.code, message: result.message };
  return { ok: true, account: accounts.byAccessKey(result.accessKeyId)! };
}
