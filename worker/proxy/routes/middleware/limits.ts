import { bodyLimit } from 'hono/body-limit';
import { BODY_LIMITS, tooLargeMessage, videoError } from '../../../../shared';
import { libraryFailure, proxyError, toResponse, videoFailure, type ProxyResponse } from '../../infra/http/responses';

/**
 * The body limits of the routes (docs/proxy-api.md, "Limits"): a body over its route's limit is
 * refused with 413 before more of it is read (Content-Length first, else while streaming), in the
 * answer shape of its interface.
 */
const limit = (maxSize: number, refuse: (c: { req: { query(name: string): string | undefined } }, message: string) => ProxyResponse) =>
  bodyLimit({ maxSize, onError: (c) => toResponse(refuse(c, tooLargeMessage(maxSize))) });

/** `/api/v3`: 1 MB, a failure envelope naming the Action. */
export const libraryLimit = limit(BODY_LIMITS.json, (c, message) => libraryFailure(413, c.req.query('Action') ?? '', 'RequestTooLarge', message));
/** Every other JSON body (admin API, console forms, `/proxy/*`): 1 MB. */
export const jsonLimit = limit(BODY_LIMITS.json, (_c, message) => proxyError(413, 'request_too_large', message, 'body'));
/** `POST /v1/video/generations`: 16 MB (references may be data URIs). */
export const videoCreateLimit = limit(BODY_LIMITS.videoCreate, (_c, message) => videoFailure(413, videoError('request_too_large', message, 'invalid_request_error', 'body')));
