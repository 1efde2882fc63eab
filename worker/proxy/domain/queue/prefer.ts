import { PREFER_RESPOND_ASYNC } from '../../../../shared';

/** Longer Prefer headers are ignored: no client sends more than a few preferences. */
const PREFER_MAX = 1024;

/**
 * Whether a `Prefer` header (RFC 7240) asks `respond-async`. Preferences are comma-separated, each
 * a token with an optional `=value` and `;parameters`; anything malformed is ignored, as the RFC
 * says, so a bad header is a create without the preference. One linear scan.
 */
export function prefersRespondAsync(header: string | null | undefined): boolean {
  if (!header || header.length > PREFER_MAX) return false;
  return header.split(',').some((preference) => {
    const name = preference.split(';')[0]!.split('=')[0]!.trim().toLowerCase();
    return name === PREFER_RESPOND_ASYNC;
  });
}
