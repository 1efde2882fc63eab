import { Hono } from 'hono';
import { cleanMediaStore } from './domain/media/media-cleanup';
import type { ProxyEnv } from './infra/settings/proxy-env';
import { ledgerObject } from './objects/handles';
import { adminRoutes } from './routes/admin/admin-routes';
import { memberSigninRoutes } from './routes/console/connect-access';
import { connectRoutes } from './routes/console/connect-page';
import { consoleApp } from './routes/console/console-app';
import { notFound, onError } from './routes/fallbacks';
import { healthRoutes } from './routes/health-routes';
import { libraryRoutes } from './routes/library/library-routes';
import { mediaRoutes } from './routes/media/media-routes';
import { front } from './routes/middleware/front';
import { openApiRoutes } from './routes/openapi/openapi-routes';
import { proxyApp } from './routes/proxy/proxy-app';
import { videoRoutes } from './routes/video/video-routes';

/**
 * The proxy Worker (docs/architecture.md): the routes' sub-apps, composed; the Durable Object
 * classes; the hourly cleanup of the media store. Routes live in routes/, one sub-app per area.
 */

export { MemberState } from './objects/member-state';
export { MemberDirectory } from './objects/member-directory';
export { TeamLedger } from './objects/team-ledger';
export { TeamLibrary } from './objects/team-library';
export { TeamQueue } from './objects/team-queue';

const app = new Hono<{ Bindings: ProxyEnv }>();

// First: the log line and CORS, around every answer below.
app.route('/', front);
app.route('/', openApiRoutes(app));
app.route('/', healthRoutes);
app.route('/admin', adminRoutes);
app.route('/console', consoleApp);
app.route('/', connectRoutes);
app.route('/', memberSigninRoutes);
app.route('/api/v3', libraryRoutes);
app.route('/v1', videoRoutes);
app.route('/proxy', proxyApp);
app.route('/media', mediaRoutes);
app.notFound(notFound);
app.onError(onError);

/** The Worker: HTTP by the Hono app; hourly (Cron Trigger), the media store's cleanup and the ledger's sweep of stale reservations. */
export default {
  fetch: app.fetch,
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(
      cleanMediaStore(env, ledgerObject(env)).then((report) => console.log(JSON.stringify({ event: 'media_cleanup', ...report }))),
    );
    ctx.waitUntil(ledgerObject(env).sweepStale().then((released) => console.log(JSON.stringify({ event: 'stale_reservations', released }))));
  },
} satisfies ExportedHandler<ProxyEnv>;
