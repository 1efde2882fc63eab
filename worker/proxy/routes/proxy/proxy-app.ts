import { Hono } from 'hono';
import { jsonLimit } from '../middleware/limits';
import type { MemberEnv } from '../middleware/member-auth';
import { memberRoutes } from './member-routes';
import { proxyAuth } from './proxy-auth';
import { uploadRoutes } from './upload-routes';
import { galleryRoutes } from './gallery-routes';
import { sharingRoutes } from './sharing-routes';

/** `/proxy/*`: what the proxy adds for members (their records, consents, usage, uploads), behind the member token. */
export const proxyApp = new Hono<MemberEnv>();

proxyApp.use('*', proxyAuth);
// Uploads stream into the media store with their own per-kind limits; every other /proxy body is JSON.
proxyApp.use('*', (c, next) => (c.req.method === 'POST' && c.req.path === '/proxy/uploads' ? next() : jsonLimit(c, next)));
proxyApp.route('/', memberRoutes);
proxyApp.route('/', uploadRoutes);
proxyApp.route('/', sharingRoutes);
proxyApp.route('/', galleryRoutes);
