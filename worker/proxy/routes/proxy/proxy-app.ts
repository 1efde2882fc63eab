import { Hono } from 'hono';
import { jsonLimit } from '../middleware/limits';
import type { MemberEnv } from '../middleware/member-auth';
import { memberRoutes } from './member-routes';
import { proxyAuth } from './proxy-auth';
import { uploadRoutes } from './upload-routes';
import { galleryRoutes } from './gallery-routes';
import { sharingRoutes } from './sharing-routes';
import { sourceRoutes } from './source-routes';
import { assetStatusRoutes } from './asset-status-routes';
import { tokenRoutes } from './token-routes';
import { accessKeyRoutes } from './access-key-routes';
import { queueRoutes } from './queue-routes';
import { memberAnswer } from '../middleware/member-auth';
import { memberError } from '../answers';
import { MEMBER, UNAUTHORIZED_MEMBER } from '../openapi/route-docs';
import { webhookRoutes } from '../webhooks/webhook-routes';
import { proxyUnauthorized } from './proxy-auth';

/** `/proxy/*`: what the proxy adds for members (their records, consents, usage, uploads, tokens), behind the member token. */
export const proxyApp = new Hono<MemberEnv>();

proxyApp.use('*', proxyAuth);
// Uploads stream into the media store with their own per-kind limits; every other /proxy body is JSON.
// A quote takes a video create body, with the create's own limit (16 MB: inline images).
proxyApp.use('*', (c, next) => (c.req.method === 'POST' && (c.req.path === '/proxy/uploads' || c.req.path === '/proxy/quote') ? next() : jsonLimit(c, next)));
proxyApp.route('/', memberRoutes);
proxyApp.route('/', uploadRoutes);
proxyApp.route('/', sharingRoutes);
proxyApp.route('/', sourceRoutes);
proxyApp.route('/', assetStatusRoutes);
proxyApp.route('/', galleryRoutes);
proxyApp.route('/', tokenRoutes);
proxyApp.route('/', accessKeyRoutes);
proxyApp.route('/', queueRoutes);
// The member's own webhook (docs/webhooks.md): kept and sent by the member's object.
proxyApp.route('/', webhookRoutes({
  whose: 'the caller\'s',
  tag: 'member',
  security: MEMBER,
  refusals: { 401: UNAUTHORIZED_MEMBER },
  error: () => memberError,
  answer: async (c, call) => {
    const { state, tokenHash } = c.get('member');
    return memberAnswer(await state.webhook(tokenHash, call), proxyUnauthorized);
  },
}));
