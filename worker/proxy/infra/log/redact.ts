/**
 * Removes secrets from the values of a log line. Only the log sink calls it, on structured fields:
 * answers to members are never rewritten (member data is not a secret, and secrets are kept out of
 * answers by construction).
 */

const TOKEN_SHAPES: RegExp[] = [
  /abk_m[0-9a-f]{16}_[A-Za-z0-9_-]{43}/g, // member tokens
  /\bsk-[A-Za-z0-9_-]{4,}/g, // service API keys
  /\babks_[A-Za-z0-9_-]{8,}/g, // members' secret access keys (shared/access-keys.ts)
  /(Bearer|HMAC-SHA256)\s+[^\s",]+/gi, // credentials in header-like text
];

export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.split(secret).join('[redacted]');
  for (const shape of TOKEN_SHAPES) out = out.replace(shape, '[redacted]');
  return out;
}
