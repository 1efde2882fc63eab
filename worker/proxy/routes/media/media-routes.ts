import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { serveMedia } from '../../domain/media/serve-media';
import type { ProxyEnv } from '../../infra/settings/proxy-env';
import { empty, errors, SIGNED_MEDIA } from '../openapi/route-docs';

/** `/media/:id`: the bytes behind a signed address, with no token (docs/media-store.md). */
export const mediaRoutes = new Hono<{ Bindings: ProxyEnv }>();

mediaRoutes.on(['GET', 'HEAD'], '/:id', describeRoute({
  summary: 'The bytes behind a signed media address (no token)',
  description: 'With `Content-Type`, `Content-Length`, `ETag`, `Accept-Ranges`; cacheable until it expires.',
  tags: ['media'],
  security: SIGNED_MEDIA,
  parameters: [
    { in: 'query', name: 'expires', required: true, description: 'Unix seconds, as in the address handed out.', schema: { type: 'string', pattern: '^\\d+$' } },
    { in: 'header', name: 'Range', required: false, schema: { type: 'string' } },
  ],
  responses: {
    200: { description: 'The bytes (none for HEAD).', content: { '*/*': {} } },
    206: { description: 'The `Range` asked for (one satisfiable range; any other `Range` is ignored: 200).', content: { '*/*': {} } },
    304: empty('`If-None-Match` matched the `ETag`.'),
    ...errors({ 403: '`forbidden`: the signature does not match.', 404: '`not_found`: no such media.', 410: '`expired`: past its expiry; ask for a fresh address.', 503: '`media_store_not_configured`: the operator has not set `MEDIA_URL_SECRET`.' }),
  },
}), (c) => serveMedia(c.env, c.req.raw, c.req.param('id')));
