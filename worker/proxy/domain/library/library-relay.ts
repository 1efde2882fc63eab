import { isFailure, sentence, type Envelope } from '../../../../shared';
import { libraryFailure, rawJsonResponse, type ProxyResponse } from '../../infra/http/responses';
import type { Upstream } from '../../infra/upstream/fetch';

export type Relayed = { response: ProxyResponse; accepted: false } | { response: ProxyResponse; accepted: true; envelope: Envelope<any> & { Result: any } };

const FAILURE_CODES: Record<number, string> = { 503: 'ServiceUnavailable', 429: 'RequestLimitExceeded' };

/**
 * Turns an upstream `/api/v3` answer into the member's response: the service's bytes as sent,
 * 429 with its Retry-After, 5xx and unreadable answers as failure envelopes with a readable message.
 * `sent` are the secrets this call carried in its body (a portrait session's partner token): an
 * answer that repeats one is not passed on, so the member never learns it whatever the service says.
 */
export function relayLibrary(action: string, up: Upstream, sent: readonly string[] = []): Relayed {
  const headers: Record<string, string> = up.retryAfter ? { 'Retry-After': up.retryAfter } : {};
  let envelope: Envelope<unknown> | null = null;
  try {
    envelope = JSON.parse(up.body) as Envelope<unknown>;
    if (!envelope?.ResponseMetadata) envelope = null;
  } catch {
    envelope = null;
  }
  const failure = envelope && isFailure(envelope) ? envelope.ResponseMetadata.Error : null;
  if (up.status === 401) {
    // The service refused the proxy's own key pair: not the member's token, so never a 401 to them.
    const upstreamError = failure ? ` ${failure.Code}` : '';
    return { accepted: false, response: libraryFailure(502, action, failure?.Code ?? 'InternalError', `The asset library service refused the proxy's credentials (HTTP 401${upstreamError}). Ask the proxy's operator to check ACCESS_KEY_ID and SECRET_ACCESS_KEY.`) };
  }
  if (up.status >= 500 || (up.status === 429 && !envelope)) {
    const upstreamError = failure ? `: ${failure.Code} ${failure.Message}` : '';
    const code = FAILURE_CODES[up.status] ?? 'InternalError';
    const advice = up.status === 429 ? 'Wait before trying again.' : 'Try again later.';
    return { accepted: false, response: libraryFailure(up.status, action, code, `${sentence(`The asset library service answered HTTP ${up.status}${upstreamError}`)} ${advice}`, headers) };
  }
  if (!envelope) {
    return { accepted: false, response: libraryFailure(502, action, 'InternalError', `The asset library service answered HTTP ${up.status} with an unreadable body.`) };
  }
  if (sent.some((secret) => secret && up.body.includes(secret))) {
    const code = failure?.Code ?? 'InternalError';
    return { accepted: false, response: libraryFailure(up.status === 200 ? 502 : up.status, action, code, `The asset library service answered ${code} with a message that repeats this session's confidential token, so the proxy withheld it. Create a new session if this one no longer resolves.`) };
  }
  const response = rawJsonResponse(up.status, up.body, headers);
  return up.status === 200 && !failure
    ? { accepted: true, response, envelope: envelope as Envelope<any> & { Result: any } }
    : { accepted: false, response };
}
