/** The proxy verifies member access keys with the shared verifier, the one the sandbox uses. */
export { verifyV4, type SignedParts, type SigningKeyLookup, type Verification } from '../../../../shared/signing/verify-v4';
export { deriveSigningKey } from '../../../../shared/signing/signing-key';
export { parseAuthorization } from '../../../../shared/signing/authorization';
export { ALGORITHM } from '../../../../shared/signing/canonical-request';
export { signedHeaderList } from '../../../../shared/signing/signed-headers';
