import { sentence, videoError } from '../../../../shared';
import { rawJsonResponse, videoFailure, type ProxyResponse } from '../../infra/http/responses';
import type { Upstream } from '../../infra/upstream/fetch';

const FAILURES: Record<number, [string, string, string]> = {
  429: ['rate_limited', 'rate_limit_error', 'Wait before trying again; do not resubmit repeatedly.'],
  503: ['model_unavailable', 'server_error', 'The model is unavailable right now; check /v1/models, switch model or retry later.'],
};

/**
 * An upstream `/v1` answer as the member's response: the service's bytes as sent, 429 with
 * Retry-After, 5xx readable. The proxy's `sk-` key travels only in a header, which no answer repeats.
 */
export function relayVideo(up: Upstream): { response: ProxyResponse; body: any | null } {
  const headers: Record<string, string> = up.retryAfter ? { 'Retry-After': up.retryAfter } : {};
  let body: any = null;
  try {
    body = JSON.parse(up.body);
  } catch {
    body = null;
  }
  if (up.status === 401) {
    // The service refused the proxy's own sk- key: not the member's token, so never a 401 to them.
    return { body: null, response: videoFailure(502, videoError('upstream_unauthorized', "The video service refused the proxy's API key (HTTP 401). Ask the proxy's operator to check VIDEO_API_KEY.", 'server_error')) };
  }
  if (up.status >= 500 || (up.status >= 400 && !body?.error)) {
    const [code, type, advice] = FAILURES[up.status] ?? ['internal_error', 'server_error', 'If a task id exists, keep querying it; otherwise try again later.'];
    const detail = typeof body?.error?.message === 'string' ? `: ${body.error.message}` : '';
    const upstreamCode = typeof body?.error?.code === 'string' ? body.error.code : code;
    return { body: null, response: videoFailure(up.status >= 400 ? up.status : 502, videoError(upstreamCode, `${sentence(`The video service answered HTTP ${up.status}${detail}`)} ${advice}`, type), headers) };
  }
  if (!body) return { body: null, response: videoFailure(502, videoError('internal_error', `The video service answered HTTP ${up.status} with an unreadable body.`, 'server_error')) };
  return { body, response: rawJsonResponse(up.status, up.body, headers) };
}
