import { Hono } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { jsonLimit } from '../middleware/limits';
import { pickLanguage, translator } from './console-i18n';
import { isHttps, type ConsoleEnv } from './console-kit';
import { libraryPages } from './console-library';
import { memberPages } from './console-members';
import { queuePages } from './console-queue';
import { reportPages } from './console-reports';
import { settingPages } from './console-settings';
import { webhookPages } from './console-webhook';
import { consoleGate, signinRoutes, signoutRoutes } from './console-signin';
import { CONSOLE_CSS } from './console-style';

/**
 * `/console`: the admin console, server-rendered HTML with no script at all. Every page reads and
 * every form changes through the admin API (the same routes scripts use), carrying the session's
 * cookie and CSRF token. Sign-in with the admin token or Cloudflare Access (docs/console.md).
 * Pages are sub-apps by area; this composes them behind the language, the strict headers and the gate.
 */
export const consoleApp = new Hono<ConsoleEnv>();

const LANG_COOKIE = 'arkbridge_lang';

// Forms are small.
consoleApp.use('*', jsonLimit);
/** Strict headers on every console answer: no script, no framing, nothing from elsewhere. */
consoleApp.use('*', async (c, next) => {
  const lang = pickLanguage(c.req.query('lang'), getCookie(c, LANG_COOKIE), c.req.header('accept-language'));
  if (c.req.query('lang') === lang) setCookie(c, LANG_COOKIE, lang, { path: '/console', sameSite: 'Strict', maxAge: 365 * 86_400, secure: isHttps(c) });
  c.set('lang', lang);
  c.set('t', translator(lang));
  await next();
  c.header('Content-Security-Policy', "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'");
  c.header('X-Frame-Options', 'DENY');
  c.header('X-Content-Type-Options', 'nosniff');
  // Not no-referrer: under it browsers send `Origin: null` with a form's POST, which the same-origin check refuses.
  c.header('Referrer-Policy', 'same-origin');
  c.header('Cache-Control', 'no-store');
});

consoleApp.get('/console.css', (c) => c.body(CONSOLE_CSS, 200, { 'Content-Type': 'text/css; charset=utf-8' }));

consoleApp.route('/', signinRoutes);
consoleApp.use('*', consoleGate);
consoleApp.route('/', signoutRoutes);
consoleApp.get('/', (c) => c.redirect('/console/members', 303));
consoleApp.route('/', memberPages);
consoleApp.route('/', libraryPages);
consoleApp.route('/', reportPages);
consoleApp.route('/', settingPages);
consoleApp.route('/', webhookPages);
consoleApp.route('/', queuePages);
