/** The proxy signs with the shared signer, the one the shared verifier (shared/signing/verify-v4.ts) mirrors. */
export * from '../../../../shared/signing/signer';
