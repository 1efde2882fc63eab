import { isFailure, type Envelope } from '../../../shared';
import { libraryFailure, jsonResponse, type ProxyResponse } from '../http/responses';
import { redact } from '../log/redact';
import type { Upstream } from '../upstream/fetch';

export type Relayed = { response: ProxyResponse; accepted: false } | { response: ProxyResponse; accepted: true; envelope: Envelope<any> & { Result: any } };

const FAILURE_CODES: Record<number, string> = { 503: 'ServiceUnavailable', 429: 'RequestLimitExceeded' };

/**
 * Turns an upstream `/api/v3` answer into the member's response: bodies scrubbed of secrets,
 * 429 with its Retry-After, 5xx and unreadable answers as failure envelopes with a readable message.
 */
export function relayLibrary(action: string, up: Upstream, secrets: readonly string[]): Relayed {
  const headers: Record<string, string> = up.retryAfter ? { 'Retry-After': up.retryAfter } : {};
  let envelope: Envelope<unknown> | null = null;
  try {
    envelope = JSON.parse(redact(up.body, secrets)) as Envelope<unknown>;
    if (!envelope?.ResponseMetadata) envelope = null;
  } catch {
    envelope = null;
  }
  if (up.status === 401) {
    // The service refused the proxy's own key pair: not the member's token, so never a 401 to them.
    const upstreamError = envelope && isFailure(envelope) ? ` ${envelope.ResponseMetadata.Error.Code}` : '';
    const code = envelope && isFailure(envelope) ? envelope.ResponseMetadata.Error.Code : 'InternalError';
    return { accepted: false, response: libraryFailure(502, action, code, `The asset library service refused the proxy's credentials (HTTP 401${upstreamError}). Ask the proxy's operator to check ACCESS_KEY_ID and SECRET_ACCESS_KEY.`) };
  }
  if (up.status >= 500 || (up.status === 429 && !envelope)) {
    const upstreamError = envelope && isFailure(envelope) ? `: ${envelope.ResponseMetadata.Error.Code} ${envelope.ResponseMetadata.Error.Message}` : '';
    const code = FAILURE_CODES[up.status] ?? 'InternalError';
    const advice = up.status === 429 ? 'Wait before trying again.' : 'Try again later.';
    return { accepted: false, response: libraryFailure(up.status, action, code, `The asset library service answered HTTP ${up.status}${upstreamError}. ${advice}`, headers) };
  }
  if (!envelope) {
    return { accepted: false, response: libraryFailure(502, action, 'InternalError', `The asset library service answered HTTP ${up.status} with an unreadable body.`) };
  }
  const response = jsonResponse(up.status, envelope, headers);
  return up.status === 200 && !isFailure(envelope)
    ? { accepted: true, response, envelope: envelope as Envelope<any> & { Result: any } }
    : { accepted: false, response };
}
