import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { describe, expect, it } from 'vitest';
import { corsFor } from './cors';

/** The configuration corsFor had when it was Hono's `cors()`: its answers must stay the same. */
const honoCors = (allowed: string) => {
  const list = allowed.split(',').map((o) => o.trim()).filter(Boolean);
  const isAllowed = (origin: string) => (list.length ? list.includes(origin) : origin.startsWith('chrome-extension://') || origin.startsWith('moz-extension://'));
  return cors({
    origin: (origin) => (origin && isAllowed(origin) ? origin : null),
    allowHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'Prefer'],
    allowMethods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
    exposeHeaders: ['Retry-After'],
    maxAge: 600,
  });
};

/** A response whose headers cannot be changed, like one passed through from fetch(). */
const immutable = () => Response.redirect('https://proxy.test/json', 302);

const appWith = (middleware: ReturnType<typeof corsFor>) => {
  const app = new Hono();
  app.use('*', middleware);
  app.get('/json', (c) => c.json({ ok: true }));
  app.get('/raw', () => new Response('{}', { status: 201, headers: { 'Content-Type': 'application/json', 'Retry-After': '3', Vary: 'Accept' } }));
  app.get('/passed-through', () => immutable());
  app.get('/throws', () => {
    throw new Error('boom');
  });
  app.notFound((c) => c.json({ error: 'not_found' }, 404));
  app.onError((_e, c) => c.json({ error: 'internal' }, 500));
  return app;
};

const answer = async (app: Hono, path: string, init: RequestInit) => {
  const response = await app.fetch(new Request(`https://proxy.test${path}`, init));
  return { status: response.status, headers: [...response.headers].sort(), body: await response.text() };
};

describe('corsFor', () => {
  const origins = [undefined, 'chrome-extension://abc', 'moz-extension://def', 'https://evil.example', 'https://app.example'];
  const requests: [string, RequestInit][] = [
    ['/json', {}],
    ['/raw', {}],
    ['/passed-through', {}],
    ['/throws', {}],
    ['/missing', { method: 'POST', body: '{}' }],
    ['/json', { method: 'OPTIONS', headers: { 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type' } }],
    ['/anything', { method: 'OPTIONS' }],
  ];

  it.each(['', 'https://app.example, chrome-extension://abc'])('answers exactly as Hono cors() did (ALLOWED_ORIGINS=%j)', async (allowed) => {
    const ours = appWith(corsFor(allowed));
    const hono = appWith(honoCors(allowed));
    for (const origin of origins) {
      for (const [path, init] of requests) {
        const headers = new Headers(init.headers);
        if (origin) headers.set('Origin', origin);
        const request = { ...init, headers };
        expect(await answer(ours, path, request), `${init.method ?? 'GET'} ${path} from ${origin}`).toEqual(await answer(hono, path, request));
      }
    }
  });

  it('covers a response with immutable headers', () => {
    expect(() => immutable().headers.set('X-Test', '1')).toThrow(TypeError);
  });

  it('is built once per setting', () => {
    expect(corsFor('')).toBe(corsFor(''));
    expect(corsFor('https://a.example')).not.toBe(corsFor(''));
  });
});
