/** The proxy's SHA-256 and HMAC are the shared ones (the signer's, beside the verifier). */
export * from '../../../../shared/signing/sha256';
