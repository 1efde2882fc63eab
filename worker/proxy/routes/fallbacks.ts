import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { clip } from '../../../shared';
import { contextError } from './answers';

/** What the Worker answers for a path that is no route of the proxy. */
export const notFound: NotFoundHandler = (c: Context) =>
  contextError(c)(404, 'not_found', `${clip(c.req.method)} ${clip(new URL(c.req.url).pathname)} is not a route of the proxy.`);

/** What the Worker answers when the proxy itself fails: logged by name only (an error's message may hold request data). */
export const onError: ErrorHandler = (error, c) => {
  console.error(JSON.stringify({ level: 'error', route: c.req.path, message: error instanceof Error ? error.name : 'error' }));
  return contextError(c)(500, 'internal_error', 'The proxy failed to handle this request.');
};
