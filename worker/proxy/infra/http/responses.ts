import { clip, failureEnvelope, sentence, successEnvelope, videoError, type VideoApiError } from '../../../../shared';

/** A response crossing the Durable Object boundary (plain data, serializable). */
export interface ProxyResponse {
  status: number;
  body: string;
  headers: Record<string, string>;
}

const JSON_TYPE = { 'Content-Type': 'application/json; charset=utf-8' };

export const jsonResponse = (status: number, value: unknown, headers: Record<string, string> = {}): ProxyResponse => ({
  status,
  body: JSON.stringify(value),
  headers: { ...JSON_TYPE, ...headers },
});

/** The service's own answer, byte for byte: member data is never rewritten on its way back. */
export const rawJsonResponse = (status: number, body: string, headers: Record<string, string> = {}): ProxyResponse => ({
  status,
  body,
  headers: { ...JSON_TYPE, ...headers },
});

export const toResponse = (r: ProxyResponse): Response => new Response(r.status === 204 ? null : r.body, { status: r.status, headers: r.headers });

export const newRequestId = (): string => crypto.randomUUID();

/** A library failure envelope answered by the proxy itself (the caller's Action echoed clipped). */
export const libraryFailure = (status: number, action: string, code: string, message: string, headers?: Record<string, string>) =>
  jsonResponse(status, failureEnvelope(newRequestId(), clip(action), code, sentence(message)), headers);

export const librarySuccess = (action: string, result: unknown) => jsonResponse(200, successEnvelope(newRequestId(), action, result));

/** A `/v1` error answered by the proxy itself. */
export const videoFailure = (status: number, body: VideoApiError, headers?: Record<string, string>) =>
  jsonResponse(status, { ...body, error: { ...body.error, message: sentence(body.error.message) } }, headers);

export const unauthorizedLibrary = (action: string) =>
  libraryFailure(401, action, 'AuthenticationFailed', 'A valid member token is required: Authorization: Bearer <member token>.');

export const unauthorizedVideo = () =>
  videoFailure(401, videoError('unauthorized', 'A valid member token is required: Authorization: Bearer <member token>.', 'authentication_error'));

/** Why every token of a member whose scope has expired is refused (docs/identity.md): the same code on every surface. */
export const TOKEN_EXPIRED_MESSAGE = "Your access to this proxy has expired (your scope's expiresAt has passed); ask your team's admin to extend it.";

export const expiredLibrary = (action: string) => libraryFailure(401, action, 'token_expired', TOKEN_EXPIRED_MESSAGE);

export const expiredVideo = () => videoFailure(401, videoError('token_expired', TOKEN_EXPIRED_MESSAGE, 'authentication_error'));

/**
 * The proxy's own error answer, `{"error":{"code","message"[,"param"]}}` (docs/proxy-api.md): the
 * one place its shape is written. The message is made a sentence; `param` names the field at fault.
 */
export const errorBody = (code: string, message: string, param?: string) => ({ error: { code, message: sentence(message), ...(param ? { param } : {}) } });

/** The proxy's own error answer as a response of the member routes. */
export const proxyError = (status: number, code: string, message: string, param?: string, headers?: Record<string, string>): ProxyResponse =>
  jsonResponse(status, errorBody(code, message, param), headers);
