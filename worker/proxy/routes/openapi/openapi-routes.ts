import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { openApiRoute } from './openapi-document';
import { OPEN } from './route-docs';

/** `GET /openapi.json` describing `documented` (the whole Worker's app, generated at its first request). */
export function openApiRoutes(documented: Hono<any, any, any>) {
  return new Hono().get('/openapi.json', describeRoute({
    summary: 'This document, generated from the schemas the routes check with',
    tags: ['health'],
    security: OPEN,
    responses: { 200: { description: 'The OpenAPI 3.1 document; `servers` is the origin asked.', content: { 'application/json': { schema: { type: 'object' } } } } },
  }), openApiRoute(documented));
}
