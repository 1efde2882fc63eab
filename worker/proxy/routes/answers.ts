import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { errorBody, proxyError, toResponse } from '../infra/http/responses';

/**
 * How the routes deliver the proxy's own error answer (its shape: infra/http/responses.ts,
 * `errorBody`). Two deliveries, as today's answers: the member routes' answers are made as data
 * (`application/json; charset=utf-8`, as everything a member's object answers); the admin API and
 * the Worker's fallbacks answer through Hono (`application/json`, as their other answers).
 */

/** One way of answering an error: status, code, message, and the field at fault. */
export type ErrorAnswer = (status: number, code: string, message: string, param?: string) => Response;

/** A member route's error answer. */
export const memberError: ErrorAnswer = (status, code, message, param) => toResponse(proxyError(status, code, message, param));

/** An admin route's (or a fallback's) error answer, through the request's context. */
export const contextError = (c: Context): ErrorAnswer => (status, code, message, param) => c.json(errorBody(code, message, param), status as ContentfulStatusCode);
