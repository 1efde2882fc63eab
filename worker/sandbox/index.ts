import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { clip } from '../../shared';
import { accountBook } from './accounts';
import type { SandboxEnv } from './env';
import { portraitImage, serveBytes } from './media/files';
import { errorResponse, limitBodies } from './routes/body';
import { advanceClock, resetStats, setFault, setLimits, stats } from './routes/test-helper-routes';
import { libraryRoute } from './routes/library-route';
import { lastFrameRoute, resultVideoRoute } from './routes/output-routes';
import { completePortrait, h5Page } from './routes/portrait-routes';
import { service } from './routes/service-object';
import { createVideo, getVideo, listModels } from './routes/video-routes';

export { ServiceState } from './state/service-state';

/** The sandbox: the service's two interfaces, its H5 page, result media and test helpers. */
const app = new Hono<{ Bindings: SandboxEnv }>();

// Every body is read within its route's limit (413 in the route's own error shape beyond it).
app.use('*', limitBodies);

app.post('/api/v3', libraryRoute);
app.get('/v1/models', listModels);
app.post('/v1/video/generations', createVideo);
app.get('/v1/video/generations/:id', getVideo);

app.get('/h5/portrait/:h5', h5Page);
app.post('/sandbox/portrait/complete', completePortrait);
app.post('/sandbox/faults', setFault);
app.post('/sandbox/clock', advanceClock);
app.post('/sandbox/limits', setLimits);
app.get('/sandbox/stats', stats);
app.delete('/sandbox/stats', resetStats);

app.get('/sandbox/videos/:file{[A-Za-z0-9-]+\\.mp4}', resultVideoRoute);
app.get('/sandbox/frames/:file{[A-Za-z0-9-]+\\.png}', lastFrameRoute);
app.get('/sandbox/media/portrait.png', (c) => serveBytes(c.req.raw, portraitImage, 'image/png'));

app.get('/', (c) => {
  accountBook(c.env.SANDBOX_ACCOUNTS); // fail loudly on a malformed SANDBOX_ACCOUNTS
  return c.json({
    service: 'Arkbridge sandbox',
    interfaces: { library: 'POST /api/v3?Action=<operation>&Version=2024-01-01', video: ['GET /v1/models', 'POST /v1/video/generations', 'GET /v1/video/generations/{id}'] },
    helpers: ['POST /sandbox/faults', 'POST /sandbox/clock', 'POST /sandbox/limits', 'GET /sandbox/stats', 'POST /sandbox/portrait/complete'],
  });
});

app.notFound((c) => c.json({ error: 'not_found', message: `${clip(c.req.method)} ${clip(new URL(c.req.url).pathname)} is not a route of the sandbox.` }, 404));

/**
 * The last resort: an exception no route handled is a readable HTTP 500 in the route's own error
 * shape, never a bare runtime error page. Bad input never gets here (the fuzz tests check that).
 */
app.onError((error, c) => {
  if (error instanceof HTTPException) return error.getResponse();
  console.error('sandbox: unhandled error', c.req.method, new URL(c.req.url).pathname, error);
  const message = `The sandbox failed on this request (${clip(error instanceof Error ? error.message : String(error), 200)}); this is a bug of the sandbox`;
  return errorResponse(c, 500, { library: 'InternalError', video: 'internal_error', type: 'server_error' }, message);
});

export default app;
