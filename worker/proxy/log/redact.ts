/**
 * Removes secrets from text. Applied by the logger to every line and to every upstream body the
 * proxy passes on, so no call site has to remember it.
 */

const TOKEN_SHAPES: RegExp[] = [
  /abk_m[0-9a-f]{16}_[A-Za-z0-9_-]{43}/g, // member tokens
  /\bsk-[A-Za-z0-9_-]{4,}/g, // service API keys
  /(Bearer|HMAC-SHA256)\s+[^\s",]+/gi, // credentials in header-like text
];

export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.split(secret).join('[redacted]');
  for (const shape of TOKEN_SHAPES) out = out.replace(shape, '[redacted]');
  return out;
}
